import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/load';
import { configSchema } from '../src/config/schema';

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
});
