import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load';
import type { Config } from '../src/config/schema';
import type { DB } from '../src/db/connect';
import type { Hearth } from '../src/hearth';
import { initBare, repoDir } from '../src/git/repo';
import { listUnadopted } from '../src/services/admin/unadopted';
import { runDoctor } from '../src/services/doctor/doctor';
import type { CheckResult, DoctorContext } from '../src/services/doctor/types';
import { tempDatabase } from './helpers/database';
import { createRepo, git } from './helpers/git';
import { withInstanceDatabase } from './helpers/instance-database';
import { processDatabaseEnv, runHearthSync } from './helpers/process';
import { createUser, ok, startTestServer } from './helpers/server';
import { sqliteOnly, testsOnPostgres } from './helpers/test-database';

// `hearth doctor [--fix]`: the checks over a migrated temp database, then the command run from
// source (tsx) over a data dir a real server filled and the test then damaged.

const byName = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));

// On the pass's engine; PostgreSQL's own database checks (constraints never validated in place of
// foreign_key_check, integrity_check skipped) are test/db/doctor-postgres.test.ts's.
describe('doctor checks (service)', () => {
  let db: DB;
  let close: () => Promise<void>;
  let config: Config;
  let pgDataDir: string | null = null;
  const ctx = (fix: boolean): DoctorContext => ({
    config, fix, fsckTimeoutMs: 60_000, stamp: 'STAMP', signal: new AbortController().signal,
  });

  beforeEach(async () => {
    let file: string;
    ({ db, close, file } = await tempDatabase());
    // PostgreSQL's temp database has no file: the data dir (repositories, files) is a temp dir of its own.
    pgDataDir = file ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-doctor-pg-'));
    config = loadConfig(null, { dataDir: pgDataDir ?? path.dirname(file) }, { HEARTH__LOG__LEVEL: 'silent' });
    await db.insertInto('user').values({ lower_name: 'alice', name: 'alice', email: 'alice@example.com', created_unix: 0, updated_unix: 0 }).execute();
  });
  afterEach(async () => {
    await close();
    if (pgDataDir) fs.rmSync(pgDataDir, { recursive: true, force: true });
  });

  const addRepo = async (name: string) => {
    await db.insertInto('repository').values({
      owner_id: 1, owner_name: 'alice', lower_name: name, name, default_branch: 'main', created_unix: 0, updated_unix: 0,
    }).execute();
    return repoDir(config.repository.root, 'alice', name);
  };

  it('a fresh database passes every check', async () => {
    const results = await runDoctor(db, ctx(false));
    expect(results.filter((r) => r.problems.length || r.fixed.length)).toEqual([]);
  });

  // SQLite's foreign_key_check, reached by turning its foreign keys off (PostgreSQL's NOT VALID case: test/db/doctor-postgres).
  sqliteOnly('finds rows without their parent (foreign_key_check)', async () => {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    await sql`INSERT INTO star (uid, repo_id, created_unix) VALUES (1, 4242, 0)`.execute(db);
    await sql`PRAGMA foreign_keys = ON`.execute(db);
    const r = byName(await runDoctor(db, ctx(false)));
    expect(r['foreign-keys']!.problems).toEqual([expect.stringMatching(/^star -> repository: 1 rows without their parent/)]);
    expect(r['database-integrity']!.problems).toEqual([]);
  });

  it('reports a row without a directory, never deleting it, and moves an orphan directory aside', async () => {
    await initBare(await addRepo('kept'), { objectFormat: 'sha1', defaultBranch: 'main' });
    await addRepo('gone');
    // No user "nobody": not a repository anyone could adopt.
    const orphan = repoDir(config.repository.root, 'nobody', 'ghost');
    await initBare(orphan, { objectFormat: 'sha1', defaultBranch: 'main' });

    let r = byName(await runDoctor(db, ctx(false)));
    expect(r['repository-directories']!.problems).toEqual([expect.stringContaining('alice/gone: no directory')]);
    expect(r['orphan-directories']!.problems).toEqual([`${path.join('nobody', 'ghost.git')}: no repository row`]);
    expect(r['orphan-directories']!.hint).toContain('--fix');
    expect(r['git-fsck']!.problems).toEqual([]);
    expect(fs.existsSync(orphan)).toBe(true);

    r = byName(await runDoctor(db, ctx(true)));
    const moved = path.join(config.server.data_dir, 'doctor-orphans', 'STAMP', 'nobody', 'ghost.git');
    expect(r['orphan-directories']!.fixed).toEqual([expect.stringContaining(`to ${moved}`)]);
    expect(r['orphan-directories']!.problems).toEqual([]);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(path.join(moved, 'HEAD'))).toBe(true);
    expect(r['repository-directories']!.problems).toHaveLength(1);
    const rows = await db.selectFrom('repository').select('name').orderBy('name').execute();
    expect(rows.map((x) => x.name)).toEqual(['gone', 'kept']);
  });

  // Regression: doctor --fix moved aside what the unadopted API lists for adoption.
  it('leaves an unadopted repository (its owner exists) for the admin unadopted API, even with --fix', async () => {
    const unadopted = repoDir(config.repository.root, 'alice', 'found');
    await initBare(unadopted, { objectFormat: 'sha1', defaultBranch: 'main' });
    for (const fix of [false, true]) {
      const r = byName(await runDoctor(db, ctx(fix)));
      expect(r['orphan-directories']!.problems).toEqual([
        `${path.join('alice', 'found.git')}: unadopted (adopt or delete it: POST or DELETE /api/v1/admin/unadopted/alice/found)`,
      ]);
      expect(r['orphan-directories']!.fixed).toEqual([]);
      expect(r['orphan-directories']!.hint).toBeUndefined();
      expect(fs.existsSync(path.join(unadopted, 'HEAD'))).toBe(true);
    }
    expect(await listUnadopted({ ...({} as Hearth), db, config }, '', { limit: 10, offset: 0 })).toEqual({ names: ['alice/found'], total: 1 });
  });

  it('recounts a drifted counter only with --fix', async () => {
    await initBare(await addRepo('one'), { objectFormat: 'sha1', defaultBranch: 'main' });
    await sql`UPDATE repository SET num_issues = 7, num_stars = 2`.execute(db);
    let r = byName(await runDoctor(db, ctx(false)));
    expect(r['repository-counters']!.problems).toEqual(['alice/one (num_issues 7, counted 0, num_stars 2, counted 0)']);
    r = byName(await runDoctor(db, ctx(true)));
    expect(r['repository-counters']!.fixed).toEqual(['recounted alice/one (num_issues 7, counted 0, num_stars 2, counted 0)']);
    expect(r['repository-counters']!.problems).toEqual([]);
    const row = await db.selectFrom('repository').select(['num_issues', 'num_stars']).executeTakeFirstOrThrow();
    expect(row).toEqual({ num_issues: 0, num_stars: 0 });
  });

  it('finds git lock files a killed git left, and removes those over an hour old with --fix (regression: they blocked their branch for good)', async () => {
    const dir = await addRepo('locked');
    await initBare(dir, { objectFormat: 'sha1', defaultBranch: 'main' });
    fs.mkdirSync(path.join(dir, 'refs', 'heads'), { recursive: true });
    const stale = [path.join(dir, 'refs', 'heads', 'main.lock'), path.join(dir, 'HEAD.lock')];
    const fresh = path.join(dir, 'packed-refs.lock');
    for (const f of [...stale, fresh]) fs.writeFileSync(f, '');
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    for (const f of stale) fs.utimesSync(f, hoursAgo, hoursAgo);
    let r = byName(await runDoctor(db, ctx(false)));
    expect(r['git-lock-files']!.problems).toEqual(['stale git lock files (over an hour old; their refs cannot be updated): alice/locked.git/HEAD.lock, alice/locked.git/refs/heads/main.lock']);
    r = byName(await runDoctor(db, ctx(true)));
    expect(r['git-lock-files']!.fixed).toHaveLength(1);
    expect(stale.map((f) => fs.existsSync(f))).toEqual([false, false]);
    // Younger than an hour: git may be holding it right now.
    expect(fs.existsSync(fresh)).toBe(true);
  });

  it('reports attachment, avatar and package blob rows whose file is gone', async () => {
    const uuid = 'a1b2c3d4-0000-4000-8000-000000000001';
    await sql`INSERT INTO attachment (uuid, name, created_unix) VALUES (${uuid}, 'notes.txt', 0)`.execute(db);
    await db.updateTable('user').set({ avatar: 'cafe' }).where('id', '=', 1).execute();
    const sha = 'ab'.repeat(32);
    await sql`INSERT INTO package_blob (hash_md5, hash_sha1, hash_sha256, hash_sha512, created_unix)
      VALUES ('m', 's', ${sha}, 'x', 0)`.execute(db);

    let r = byName(await runDoctor(db, ctx(true)));
    expect(r['attachment-files']!.problems).toEqual([`attachment 1 (notes.txt, ${uuid}): file missing`]);
    expect(r['avatar-files']!.problems).toEqual(['avatar of alice (user 1): file missing']);
    expect(r['package-blob-files']!.problems).toEqual([expect.stringContaining('package blob 1 (sha256 abababababab): file missing')]);

    const put = (...p: string[]) => {
      fs.mkdirSync(path.join(config.server.data_dir, ...p.slice(0, -1)), { recursive: true });
      fs.writeFileSync(path.join(config.server.data_dir, ...p), 'x');
    };
    put('attachments', 'a', '1', uuid);
    put('avatars', '1');
    put('packages', 'blobs', 'ab', 'ab', sha);
    r = byName(await runDoctor(db, ctx(false)));
    expect([r['attachment-files'], r['avatar-files'], r['package-blob-files']].map((x) => x!.problems)).toEqual([[], [], []]);
  });
});

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** `hearth doctor` over `dataDir`, with its database's HEARTH__DATABASE__* in the PostgreSQL pass. */
function doctor(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const r = runHearthSync(['doctor', '--data', dataDir, ...args], env);
  return { ...r, lines: r.out.trim().split('\n') };
}

/** The status line of a check: `[ok] name` or `[!] name: ...`. */
const status = (lines: string[], name: string) => lines.find((l) => l === `[ok] ${name}` || l.startsWith(`[!] ${name}:`));

describe('hearth doctor (CLI)', () => {
  // SQLite: no hearth.db there. PostgreSQL: the (migrated) database is there, the data directory is not.
  it('refuses a data dir without a database, creating nothing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-doctor-'));
    dirs.push(empty);
    const r = doctor(path.join(empty, 'none'), await processDatabaseEnv());
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(testsOnPostgres ? /^hearth: no data directory at .*none: run 'hearth migrate'/ : /^hearth: no database at .*hearth\.db/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(empty, 'none'))).toBe(false);
  });

  it('takes Gitea\'s form: doctor check [--all] [--run a,b] [--list] [--fix]', async () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-doctor-'));
    dirs.push(d);
    const env = await processDatabaseEnv();
    const list = doctor(d, env, '--list');
    expect(list.code).toBe(0);
    expect(list.lines).toEqual(['database-version', 'database-integrity', 'foreign-keys', 'repository-directories', 'orphan-directories',
      'git-fsck', 'git-lock-files', 'branch-rows', 'repository-counters', 'attachment-files', 'avatar-files', 'package-blob-files']);
    expect(runHearthSync(['migrate', '--data', d], env).code).toBe(0);
    const some = runHearthSync(['doctor', 'check', '--run', 'branch-rows,foreign-keys', '--data', d], env);
    expect(some.code, some.err).toBe(0);
    expect(some.out.trim().split('\n')).toEqual(['[ok] foreign-keys', '[ok] branch-rows']);
    const all = runHearthSync(['doctor', 'check', '--all', '--data', d], env);
    expect(all.code, all.out + all.err).toBe(0);
    expect(all.out.trim().split('\n')).toHaveLength(list.lines.length);
    const unknown = runHearthSync(['doctor', 'check', '--run', 'nope', '--data', d], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toMatch(/^hearth: unknown check nope; the checks are: database-version, /);
    expect(runHearthSync(['doctor', 'recreate-table', '--data', d], env).err).toMatch(/unknown doctor command 'recreate-table'/);
  });

  // One instance for the whole story: filled by a real server, stopped, then damaged step by step.
  it('finds and fixes the damage done to a data dir a server left', async () => {
    const s = await startTestServer();
    const { dataDir } = s;
    dirs.push(dataDir);
    // The server's database: hearth.db in its data dir, or the PostgreSQL database of this pass it was given.
    const { driver, url } = s.hearth.config.database;
    const env: Record<string, string> = driver === 'postgres' ? { HEARTH__DATABASE__DRIVER: driver, HEARTH__DATABASE__URL: url } : {};
    const setCount = (n: number) => withInstanceDatabase(dataDir, env, (db) =>
      db.updateTable('repository').set({ num_issues: n }).where('name', '=', 'counted').execute());
    // SQLite's integrity_check has no PostgreSQL counterpart: reported skipped, with its reason.
    const integrity = testsOnPostgres ? /^\[skipped\] database-integrity: PostgreSQL has no counterpart/ : /^\[ok\] database-integrity$/;
    const others = (lines: string[]) => lines.filter((l) => !/^\S+ database-integrity\b/.test(l));
    const alice = await createUser(s, 'alice');
    await createRepo(s, alice, 'counted', { auto_init: true });
    await createRepo(s, alice, 'branched', { auto_init: true });
    await createRepo(s, alice, 'lost');
    await ok(await s.request('api/v1/repos/alice/branched/branches', {
      method: 'POST', auth: { basic: [alice.username, alice.password] }, json: { new_branch_name: 'feature' },
    }), 201);
    // --fix keeps off a data dir a server is using: its pid lock (SQLite), its live node row (PostgreSQL).
    const busy = doctor(dataDir, env, '--fix');
    expect(busy.code).toBe(1);
    expect(busy.err.trim()).toMatch(testsOnPostgres
      ? /^hearth: --fix: hearth is running on this database \(pid \d+ on .+\): stop every node first$/
      : /^hearth: --fix: .* is in use by another hearth \(pid \d+\)/);
    await s.close(); // not stop(): that removes the data dir

    // A clean instance: every check [ok], exit 0.
    const clean = doctor(dataDir, env);
    expect(clean.code, clean.out + clean.err).toBe(0);
    expect(clean.lines.find((l) => l.includes(' database-integrity'))).toMatch(integrity);
    expect(others(clean.lines).every((l) => l.startsWith('[ok] '))).toBe(true);
    expect(clean.lines).toContain('[ok] git-fsck');

    const repos = path.join(dataDir, 'repositories');
    fs.rmSync(path.join(repos, 'alice', 'lost.git'), { recursive: true });
    await git(repos, 'init', '--bare', '-q', path.join(repos, 'bob', 'orphan.git'));
    await git(repos, '--git-dir', path.join(repos, 'alice', 'branched.git'), 'update-ref', '-d', 'refs/heads/feature');
    await setCount(99);

    // Without --fix: everything found, nothing changed, exit 1.
    const found = doctor(dataDir, env);
    expect(found.code).toBe(1);
    expect(status(found.lines, 'repository-directories')).toMatch(/^\[!\] repository-directories: alice\/lost: no directory/);
    expect(status(found.lines, 'orphan-directories')).toMatch(/^\[!\] orphan-directories: bob\/orphan\.git: no repository row \(run with --fix to repair\)$/);
    expect(status(found.lines, 'branch-rows')).toMatch(/^\[!\] branch-rows: alice\/branched: row feature \([0-9a-f]{10}\) has no branch in git/);
    expect(status(found.lines, 'repository-counters')).toBe('[!] repository-counters: alice/counted (num_issues 99, counted 0) (run with --fix to repair)');
    expect(found.lines.find((l) => l.includes(' database-integrity'))).toMatch(integrity);
    expect(found.lines.some((l) => l.startsWith('[fixed]'))).toBe(false);
    expect(fs.existsSync(path.join(repos, 'bob', 'orphan.git'))).toBe(true);

    // --fix: the safe repairs made and said; the row without a directory stays reported, exit 1.
    const fixed = doctor(dataDir, env, '--fix');
    expect(fixed.code).toBe(1);
    expect(fixed.lines).toContain('[ok] orphan-directories');
    expect(fixed.lines).toContain('[ok] branch-rows');
    expect(fixed.lines).toContain('[ok] repository-counters');
    expect(fixed.lines.find((l) => l.startsWith('[fixed] orphan-directories:'))).toMatch(/moved bob\/orphan\.git .* to .*doctor-orphans\/\d{8}T\d{6}Z\/bob\/orphan\.git$/);
    expect(fixed.lines.find((l) => l.startsWith('[fixed] branch-rows:'))).toContain('alice/branched: row feature');
    expect(fixed.lines.find((l) => l.startsWith('[fixed] repository-counters:'))).toContain('alice/counted (num_issues 99, counted 0)');
    expect(status(fixed.lines, 'repository-directories')).toMatch(/^\[!\] repository-directories: alice\/lost/);
    expect(fs.existsSync(path.join(repos, 'bob', 'orphan.git'))).toBe(false);
    const [stamp] = fs.readdirSync(path.join(dataDir, 'doctor-orphans'));
    expect(fs.existsSync(path.join(dataDir, 'doctor-orphans', stamp!, 'bob', 'orphan.git', 'HEAD'))).toBe(true);
    await withInstanceDatabase(dataDir, env, async (db) => {
      const repo = (name: string) => db.selectFrom('repository').where('name', '=', name);
      const branched = await repo('branched').select('id').executeTakeFirstOrThrow();
      expect(await db.selectFrom('branch').select('name').where('repo_id', '=', branched.id).execute()).toEqual([{ name: 'main' }]);
      expect(await repo('counted').select('num_issues').execute()).toEqual([{ num_issues: 0 }]);
      expect(await repo('lost').select('name').execute()).toEqual([{ name: 'lost' }]);
    });

    // Once the directory is back and everything else found is fixed: exit 0.
    await git(repos, 'init', '--bare', '-q', path.join(repos, 'alice', 'lost.git'));
    await setCount(5);
    const healed = doctor(dataDir, env, '--fix');
    expect(healed.code, healed.out).toBe(0);
    expect(others(healed.lines).filter((l) => !l.startsWith('[ok] '))).toEqual([expect.stringMatching(/^\[fixed\] repository-counters: recounted alice\/counted/)]);
    await s.stop(); // its PostgreSQL database dropped (close() left it for doctor)
  }, 60_000);
});
