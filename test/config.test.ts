import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { configSchema } from '../src/config/schema';
import type { User } from '../src/db/schema';
import { maskUrlPassword } from '../src/lib/url-password';
import { configSummary } from '../src/services/web/admin-dashboard';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-config-'));
const write = (text: string) => {
  const file = path.join(tmp(), 'hearth.toml');
  fs.writeFileSync(file, text);
  return file;
};

describe('configuration', () => {
  it('config.example.toml documents every key with its default', () => {
    const example = parse(fs.readFileSync(path.join(__dirname, '..', 'config.example.toml'), 'utf8'));
    expect(example).toEqual(configSchema.parse({}));
  });

  it('has a default for every key', () => {
    const c = loadConfig(null, {}, {});
    expect(c.server.http_port).toBe(3000);
    expect(c.server.root_url).toBe('http://127.0.0.1:3000/');
    expect(c.server.data_dir).toBe(path.resolve('data'));
    expect(c.database.path).toBe(path.resolve('data', 'hearth.db'));
    expect(c.api.max_response_items).toBe(50);
  });

  it('reads the file, then environment overrides, then CLI overrides', () => {
    const file = write('[server]\nhttp_port = 4000\nroot_url = "https://git.example.com"\n[api]\ndefault_paging_num = 10\n');
    const c = loadConfig(file, { dataDir: '/srv/h' }, { HEARTH__API__DEFAULT_PAGING_NUM: '20', HEARTH__API__ENABLE_SWAGGER: 'false' });
    expect(c.server.http_port).toBe(4000);
    expect(c.server.root_url).toBe('https://git.example.com/');
    expect(c.api.default_paging_num).toBe(20);
    expect(c.api.enable_swagger).toBe(false);
    expect(c.server.data_dir).toBe('/srv/h');
    expect(loadConfig(file, { port: 5000 }, {}).server.http_port).toBe(5000);
  });

  it.each([
    ['[server]\nhttp_prot = 1\n', 'server.http_prot'],
    ['[server]\nhttp_port = "x"\n', 'server.http_port'],
    ['[nosuch]\na = 1\n', 'nosuch'],
    ['[log]\nlevel = "loud"\n', 'log.level'],
    ['[server]\nroot_url = "not a url"\n', 'server.root_url'],
  ])('rejects %j naming the key', (text, key) => {
    expect(() => loadConfig(write(text), {}, {})).toThrow(ConfigError);
    expect(() => loadConfig(write(text), {}, {})).toThrow(key);
  });

  it('rejects invalid TOML and a bad environment value with a clear error', () => {
    expect(() => loadConfig(write('[server\n'), {}, {})).toThrow(/invalid TOML/);
    expect(() => loadConfig(null, {}, { HEARTH__SERVER__HTTP_PORT: 'abc' })).toThrow(/server\.http_port/);
    expect(() => loadConfig(null, {}, { HEARTH__SERVERHTTP: '1' })).toThrow(/HEARTH__SECTION__KEY/);
  });

  it('reads [cron.<task>] tables and HEARTH__CRON__<TASK>__<KEY>, typed as the schema says', () => {
    const file = write('[cron.repo_health_check]\nschedule = "@every 10m"\ntimeout = "90s"\n[cron.git_gc_repos]\nenabled = true\n');
    const c = loadConfig(file, {}, {
      HEARTH__CRON__GIT_GC_REPOS__RUN_AT_START: 'true',
      HEARTH__CRON__CLEANUP_HOOK_TASK_TABLE__NUMBER_TO_KEEP: '3',
      HEARTH__CRON__CLEANUP_HOOK_TASK_TABLE__CLEANUP_TYPE: 'PerWebhook',
      HEARTH__CRON__REPO_HEALTH_CHECK__SCHEDULE: '30 4 * * *',
    });
    expect(c.cron.repo_health_check).toEqual({ schedule: '30 4 * * *', timeout: '90s' });
    expect(c.cron.git_gc_repos).toEqual({ enabled: true, run_at_start: true });
    expect(c.cron.cleanup_hook_task_table).toEqual({ number_to_keep: 3, cleanup_type: 'PerWebhook' });
    // Keys left out keep the task's own defaults, which are not the config's.
    expect(c.cron.check_repo_stats).toBeUndefined();
  });

  it.each([
    '@every 10m', '@every 1h30m', '@every 72h', '@midnight', '@hourly', '@daily', '@weekly', '@monthly', '@yearly',
    '@annually', '0 3 * * *', '*/15 * * * *', '30 0 3 * * *', '0 0 1 1 *',
  ])('accepts the schedule %j', (schedule) => {
    expect(loadConfig(write(`[cron.check_repo_stats]\nschedule = "${schedule}"\n`), {}, {}).cron.check_repo_stats?.schedule).toBe(schedule);
  });

  it.each([
    ['[cron.no_such_task]\nenabled = true\n', 'cron.no_such_task'],
    ['[cron.check_repo_stats]\nenabled = "yes"\n', 'cron.check_repo_stats.enabled'],
    ['[cron.check_repo_stats]\nolder_than = "1h"\n', 'cron.check_repo_stats.older_than'],
    ['[cron.archive_cleanup]\nolder_than = "a day"\n', 'cron.archive_cleanup.older_than'],
    ['[cron.repo_health_check]\ntimeout = 60\n', 'cron.repo_health_check.timeout'],
    ['[cron.repo_health_check]\nschedule = "@every"\n', 'cron.repo_health_check.schedule'],
    ['[cron.repo_health_check]\nschedule = "@sometimes"\n', 'cron.repo_health_check.schedule'],
    ['[cron.repo_health_check]\nschedule = "* * *"\n', 'cron.repo_health_check.schedule'],
    ['[cron.repo_health_check]\nschedule = "61 * * * *"\n', 'cron.repo_health_check.schedule'],
    ['[cron.cleanup_hook_task_table]\ncleanup_type = "Sometimes"\n', 'cron.cleanup_hook_task_table.cleanup_type'],
    ['[cron.cleanup_hook_task_table]\nnumber_to_keep = -1\n', 'cron.cleanup_hook_task_table.number_to_keep'],
    ['[cron]\nrepo_health_check = 1\n', 'cron.repo_health_check'],
  ])('rejects %j naming the key', (text, key) => {
    expect(() => loadConfig(write(text), {}, {})).toThrow(ConfigError);
    expect(() => loadConfig(write(text), {}, {})).toThrow(key);
  });

  it('rejects ill-formed cron environment variables naming them', () => {
    expect(() => loadConfig(null, {}, { HEARTH__CRON__GIT_GC_REPOS: 'true' })).toThrow(/HEARTH__CRON__TASK__KEY/);
    expect(() => loadConfig(null, {}, { HEARTH__SERVER__HTTP_PORT__X: '1' })).toThrow(/HEARTH__SECTION__KEY/);
    expect(() => loadConfig(null, {}, { HEARTH__CRON__GIT_GC_REPOS__ENABLED: 'maybe' })).toThrow(/cron\.git_gc_repos\.enabled/);
    expect(() => loadConfig(null, {}, { HEARTH__CRON__NOPE__ENABLED: 'true' })).toThrow(/cron\.nope/);
  });

  it('chooses the database engine: sqlite by default, postgres with a url and a pool size from the environment', () => {
    expect(loadConfig(null, {}, {}).database).toMatchObject({ driver: 'sqlite', url: '', pool_size: 10 });
    const url = 'postgres://hearth:s3cret@db.example.com:5433/hearth';
    const c = loadConfig(null, {}, { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url, HEARTH__DATABASE__POOL_SIZE: '4' });
    expect(c.database).toMatchObject({ driver: 'postgres', url, pool_size: 4 });
    const file = write('[database]\ndriver = "postgres"\nurl = "postgresql://hearth@/hearth?host=/run/postgresql"\n');
    expect(loadConfig(file, {}, {}).database.url).toBe('postgresql://hearth@/hearth?host=/run/postgresql');
  });

  it('refuses a postgres driver without a url or with a url of another scheme, in one line naming the key and never the password', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(null, {}, env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal({ HEARTH__DATABASE__DRIVER: 'postgres' })).toMatch(/^invalid config: database\.url: driver "postgres" needs a url [^\n]*$/);
    const other = refusal({ HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: 'mysql://root:hunter2@db/hearth' });
    expect(other).toMatch(/database\.url \(set by HEARTH__DATABASE__URL\): expected a postgres:\/\/ URL/);
    expect(other).not.toContain('hunter2');
    expect(refusal({ HEARTH__DATABASE__DRIVER: 'mysql' })).toMatch(/database\.driver/);
    expect(refusal({ HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: 'postgres://h/d', HEARTH__DATABASE__POOL_SIZE: '0' }))
      .toMatch(/database\.pool_size/);
    // A url without the postgres driver is kept for later and refuses nothing.
    expect(loadConfig(null, {}, { HEARTH__DATABASE__URL: 'anything' }).database.driver).toBe('sqlite');
  });

  it('shows database.url in the configuration summary without its password', () => {
    const url = 'postgres://hearth:s3cr%40t@db.example.com:5433/hearth?sslmode=require';
    const c = loadConfig(null, {}, { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url });
    const rows = configSummary(c, { is_admin: 1 } as User);
    expect(rows.find((r) => r.key === 'database.url')?.value).toBe('postgres://hearth:******@db.example.com:5433/hearth?sslmode=require');
    expect(JSON.stringify(rows)).not.toContain('s3cr');
    expect(maskUrlPassword('postgres://hearth@/hearth?host=/run/postgresql')).toBe('postgres://hearth@/hearth?host=/run/postgresql');
    expect(maskUrlPassword('postgresql://u:p@h/d')).toBe('postgresql://u:******@h/d');
    expect(maskUrlPassword('not a url: a:b@c')).toBe('not a url: a:b@c');
  });

  it('[storage]: local by default, s3 needs a bucket, and the secret key is masked in the summary', () => {
    expect(loadConfig(null, {}, {}).storage).toMatchObject({ type: 'local', region: 'us-east-1', path_style: false, prefix: '' });
    expect(() => loadConfig(null, {}, { HEARTH__STORAGE__TYPE: 's3' })).toThrow(/storage\.bucket/);
    expect(() => loadConfig(null, {}, { HEARTH__STORAGE__TYPE: 'gcs' })).toThrow(/storage\.type/);
    const c = loadConfig(null, {}, {
      HEARTH__STORAGE__TYPE: 's3', HEARTH__STORAGE__BUCKET: 'forge', HEARTH__STORAGE__ENDPOINT: 'http://minio:9000',
      HEARTH__STORAGE__SECRET_ACCESS_KEY: 'very-secret-value', HEARTH__STORAGE__PATH_STYLE: 'true',
    });
    expect(c.storage).toMatchObject({ type: 's3', bucket: 'forge', path_style: true });
    const rows = configSummary(c, { is_admin: 1 } as User);
    expect(rows.find((r) => r.key === 'storage.secret_access_key')?.value).toBe('******');
    expect(rows.find((r) => r.key === 'storage.bucket')?.value).toBe('forge');
    expect(JSON.stringify(rows)).not.toContain('very-secret-value');
  });
});
