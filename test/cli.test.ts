import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { withInstanceDatabase } from './helpers/instance-database';
import { hearthCommand, processDatabaseEnv, runHearthSync } from './helpers/process';
import { basicHeader } from './helpers/server';
import { sqliteOnly, testsOnPostgres } from './helpers/test-database';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-'));
  dirs.push(d);
  return d;
};
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) process.kill(-c.pid!, 'SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

// In the PostgreSQL pass (HEARTH_TEST_DB=postgres) each instance's data directory comes with a
// database of its own, which every hearth run over that directory is pointed at.
const envs = new Map<string, Record<string, string>>();
/** The HEARTH__DATABASE__* of the instance at `dataDir` (none on SQLite: its database is in the directory). */
const dbEnv = (dataDir: string) => envs.get(dataDir) ?? {};
/** A data directory and its database in the pass's engine (`empty`: one with no tables yet on PostgreSQL). */
async function freshInstance(opts: { empty?: boolean } = {}): Promise<string> {
  const d = tmp();
  envs.set(d, await processDatabaseEnv(opts));
  return d;
}

/** Runs `hearth` from source with a config pointing at `dataDir` (and its database). */
const hearth = (dataDir: string, ...args: string[]) => runHearthSync(args, { HEARTH__SERVER__DATA_DIR: dataDir, ...dbEnv(dataDir) });

/** `hearth web` in its own process group, on loopback; `url` resolves once it listens. */
function startWeb(dataDir: string, port = '0') {
  const child = spawn(...hearthCommand(['web', '--port', port, '--data', dataDir]), {
    detached: true, env: { ...process.env, HEARTH__LOG__LEVEL: 'info', HEARTH__SERVER__HTTP_ADDR: '127.0.0.1', ...dbEnv(dataDir) },
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { out += b; });
  const exit = new Promise<number | null>((r) => child.on('exit', r));
  // To the server's process alone: a second, separate SIGTERM would mean "exit now".
  const stop = async () => { child.kill('SIGTERM'); return exit; };
  return { child, exit, stop, output: () => out, url: () => waitFor(() => /"url":"(http:[^"]+)"/.exec(out)?.[1]) };
}

/** A start-up failure is one line on stderr, no stack trace, exit status 1. */
function expectOneLineFailure(r: { code: number | null; err: string }, ...parts: (string | RegExp)[]) {
  expect(r.code, r.err).toBe(1);
  const lines = r.err.trim().split('\n').filter((l) => !l.startsWith('{'));
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(/^hearth: /);
  for (const p of parts) expect(lines[0]).toMatch(p);
}

describe('hearth CLI', () => {
  it('--version prints the version', () => {
    const r = hearth(tmp(), '--version');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^hearth \d+\.\d+\.\d+/);
  });

  it('migrate creates the database and says so; a second run says it is up to date', async () => {
    const d = await freshInstance({ empty: true });
    const r = hearth(d, 'migrate');
    expect(r.code, r.err).toBe(0);
    // SQLite: the file in the data directory; PostgreSQL: the tables in the (empty) database its URL names.
    const name = testsOnPostgres ? /postgres:\/\/\S*t_[0-9a-f]{12}\S*/ : /\S*hearth\.db/;
    expect(fs.existsSync(path.join(d, 'hearth.db'))).toBe(!testsOnPostgres);
    expect(r.out).toMatch(new RegExp(`^created ${testsOnPostgres ? "hearth's tables in the database" : 'the database'} ${name.source} \\(\\d+ migrations\\)\n$`));
    expect(hearth(d, 'migrate').out).toMatch(new RegExp(`^database ${name.source} is up to date\n$`));
  });

  // The admin user tests run the CLI a dozen times each, a process start each: slow on a loaded machine.
  it('admin user create, list and change-password', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    const created = hearth(d, 'admin', 'user', 'create', '--username', 'alice', '--email', 'alice@example.com',
      '--random-password', '--admin', '--access-token');
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/generated random password is '.{8,}'/);
    expect(created.out).toMatch(/Access token was successfully created\.\.\. [0-9a-f]{40}/);
    expect(created.out).toContain("New user 'alice' has been successfully created!");

    const again = hearth(d, 'admin', 'user', 'create', '--username', 'alice', '--email', 'other@example.com', '--password', 'longenough');
    expect(again.code).toBe(1);
    expect(again.err).toContain('user already exists');

    const list = hearth(d, 'admin', 'user', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/alice\s+alice@example\.com\s+true\s+true/);

    expect(hearth(d, 'admin', 'user', 'change-password', '--username', 'alice', '--password', 'short').code).toBe(1);
    const changed = hearth(d, 'admin', 'user', 'change-password', '--username', 'alice', '--password', 'a:new:password');
    expect(changed.code).toBe(0);
    expect(hearth(d, 'admin', 'user', 'change-password', '--username', 'nobody', '--password', 'whatever1').code).toBe(1);
  }, 120_000);

  it('admin user create and change-password follow Gitea: a password to change except for the first account, token name and scopes, restricted', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    const create = (name: string, ...a: string[]) => hearth(d, 'admin', 'user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', 'longenough', ...a);
    const rows = () => withInstanceDatabase(d, dbEnv(d), async (db) => {
      const users = await db.selectFrom('user').select(['name', 'must_change_password', 'is_restricted']).execute();
      const tokens = await db.selectFrom('access_token').select(['name', 'scope']).execute();
      return { users: Object.fromEntries(users.map((u) => [u.name, [Number(u.must_change_password), Number(u.is_restricted)]])), tokens };
    });
    expect(create('root', '--admin').code).toBe(0);
    expect(create('bob').code).toBe(0);
    expect(create('carol', '--must-change-password=false').code).toBe(0);
    expect(create('dave', '--must-change-password').code).toBe(0);
    const erin = create('erin', '--restricted', '--access-token', '--access-token-name', 'ci', '--access-token-scopes', 'read:repository,write:issue');
    expect(erin.out).toMatch(/Access token was successfully created\.\.\. [0-9a-f]{40}/);
    expectOneLineFailure(create('frank', '--access-token-scopes', 'all'), /only valid when access-token flag is set/);
    expectOneLineFailure(create('frank', '--access-token', '--access-token-scopes', 'read:nonsense'), /invalid access token scope provided/);
    expectOneLineFailure(create('frank', '--must-change-password=maybe'), /--must-change-password: expected true or false/);
    const generated = hearth(d, 'admin', 'user', 'create', '--name', 'gina', '--email', 'gina@example.com', '--random-password', '--random-password-length', '31');
    expect(generated.out).toMatch(/generated random password is '.{31}'\n/);
    expect(generated.err).toContain('--name flag is deprecated');
    expect(await rows()).toEqual({
      users: { root: [0, 0], bob: [1, 0], carol: [0, 0], dave: [1, 0], erin: [1, 1], gina: [1, 0] },
      tokens: [{ name: 'ci', scope: 'write:issue,read:repository' }],
    });

    expect(hearth(d, 'admin', 'user', 'change-password', '-u', 'root', '-p', 'a:new:password').code).toBe(0);
    expect(hearth(d, 'admin', 'user', 'change-password', '-u', 'carol', '-p', 'a:new:password', '--must-change-password=false').code).toBe(0);
    expect((await rows()).users).toMatchObject({ root: [1, 0], carol: [0, 0] });
  }, 120_000);

  it('admin user create needs exactly one password option', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    const r = hearth(d, 'admin', 'user', 'create', '--username', 'bob', '--email', 'bob@example.com');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--password or --random-password/);
  }, 120_000);

  it('a bad configuration key stops the start with a message naming it', () => {
    const d = tmp();
    const file = path.join(d, 'bad.toml');
    fs.writeFileSync(file, '[server]\nhttp_prot = 1\n');
    const r = hearth(d, 'migrate', '--config', file);
    expect(r.code).toBe(1);
    expect(r.err).toContain('server.http_prot');
  });

  it('an ill-typed HEARTH__ variable is named in the error', () => {
    const r = runHearthSync(['migrate', '--data', tmp()], { HEARTH__SERVER__HTTP_PORT: 'abc' });
    expect(r.code).toBe(1);
    expect(r.err).toContain('server.http_port (set by HEARTH__SERVER__HTTP_PORT)');
  });

  it('the first answer comes once the first admin exists and is printed: a script that waits for it signs in at once', async () => {
    const d = await freshInstance();
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const web = startWeb(d, String(port));
    for (const end = Date.now() + 30_000; !(await fetch(`http://127.0.0.1:${port}/api/v1/version`).catch(() => null))?.ok;) {
      if (Date.now() > end) throw new Error(`no answer:\n${web.output()}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    // Read straight after the first answer: the block is already there, set apart from the log lines.
    const out = web.output();
    expect(out).toMatch(/\n={72}\n.*first site administrator.*\n\n  user name: root\n  password:  \S+\n/);
    const password = /^ {2}password: {2}(\S+)$/m.exec(out)![1]!;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/user`, { headers: { Authorization: basicHeader('root', password) } });
    expect(res.status).toBe(200);
    expect(await web.stop(), web.output()).toBe(0);
  });

  it('web prints the first admin once, serves, and shuts down gracefully on SIGTERM', async () => {
    const d = await freshInstance();
    const child = spawn(...hearthCommand(['web', '--port', '0', '--data', d]), {
      env: { ...process.env, HEARTH__LOG__LEVEL: 'info', ...dbEnv(d) },
    });
    let out = '';
    child.stdout.on('data', (b) => { out += b; });
    child.stderr.on('data', (b) => { out += b; });
    const url = await waitFor(() => /"url":"(http:[^"]+)"/.exec(out)?.[1]);
    const password = /password:\s+(\S+)/.exec(out)?.[1];
    expect(password).toBeTruthy();
    const res = await fetch(`${url}api/v1/user`, { headers: { Authorization: basicHeader('root', password!) } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { is_admin: boolean }).is_admin).toBe(true);
    const exit = new Promise<number | null>((r) => child.on('exit', r));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(out).toContain('shutting down');

    // Exactly one user was created: the first admin.
    const list = hearth(d, 'admin', 'user', 'list');
    expect(list.out.trim().split('\n')).toHaveLength(2);
  });
});

describe('hearth CLI: commands and options', () => {
  it('an unknown command names itself and lists the commands, not "too many arguments for web"', () => {
    const r = hearth(tmp(), 'frobnicate');
    expectOneLineFailure(r, /unknown command 'frobnicate'/, /web, admin, migrate/);
    expect(r.err).not.toContain('too many arguments');
  });

  // SQLite: no hearth.db in the data directory. PostgreSQL: a database without hearth's tables
  // (one that is not there at all is test/cli-postgres.test.ts's), or no data directory.
  it('admin commands where no database exists say so and create none', async () => {
    const d = await freshInstance({ empty: true });
    for (const args of [['admin', 'user', 'list'], ['admin', 'user', 'must-change-password', '--all'],
      ['admin', 'user', 'create', '--username', 'x', '--email', 'x@example.com', '--password', 'longenough']]) {
      if (testsOnPostgres) expectOneLineFailure(hearth(d, ...args), /the database postgres:\/\/\S+ is older than this hearth/, /hearth migrate/);
      else expectOneLineFailure(hearth(d, ...args), /no database at .*hearth\.db/, /hearth migrate/);
    }
    if (testsOnPostgres) {
      const tables = await withInstanceDatabase(d, dbEnv(d), async (db) => (await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`.execute(db)).rows[0]!.n);
      expect(tables).toBe(0);
    }
    const elsewhere = path.join(d, 'elsewhere');
    // The database there (PostgreSQL) is a migrated one: the data directory alone is missing.
    const migrated = await processDatabaseEnv();
    const r = runHearthSync(['admin', 'user', 'list', '--data', elsewhere], { HEARTH__SERVER__DATA_DIR: d, ...migrated });
    expectOneLineFailure(r, elsewhere, /hearth migrate/);
    expect(fs.readdirSync(d)).toEqual([]);
  }, 120_000);

  // As Gitea's CLI (InitEngine, not InitEngineWithMigration): a server of the previous version
  // may be using the database; only `migrate` and `web` change its schema.
  it('admin commands never migrate: an older database is one line pointing at hearth migrate', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    // The newest migration forgotten: to this hearth, the database is one version behind.
    const newest = await withInstanceDatabase(d, dbEnv(d), async (db) => {
      const { name } = (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db)).rows[0]!;
      await sql`DELETE FROM kysely_migration WHERE name = ${name}`.execute(db);
      return name;
    });
    for (const args of [['admin', 'user', 'list'], ['admin', 'badge', 'create', '--slug', 'b', '--description', 'B']]) {
      expectOneLineFailure(hearth(d, ...args), /is older than this hearth \(1 migration pending\)/, /hearth migrate/);
    }
    // Nothing was migrated behind the refusal.
    const left = await withInstanceDatabase(d, dbEnv(d), async (db) => (await sql<{ n: number }>`
      SELECT COUNT(*) AS n FROM kysely_migration WHERE name = ${newest}`.execute(db)).rows[0]!);
    expect(Number(left.n)).toBe(0);
  }, 120_000);

  it('every command takes --data', async () => {
    const d = path.join(tmp(), 'data');
    const onDb = await processDatabaseEnv();
    // HEARTH__SERVER__DATA_DIR names another directory each time: --data wins.
    const run = (...args: string[]) => runHearthSync(args, { HEARTH__SERVER__DATA_DIR: tmp(), ...onDb });
    expect(run('migrate', '--data', d).code).toBe(0);
    // The database file (SQLite) or the instance key (beside a PostgreSQL database) made there.
    expect(fs.existsSync(path.join(d, testsOnPostgres ? 'secret_key' : 'hearth.db'))).toBe(true);
    const created = run('admin', 'user', 'create', '--data', d, '--username', 'dana', '--email', 'dana@example.com', '--password', 'longenough');
    expect(created.code, created.err).toBe(0);
    expect(run('admin', 'user', 'list', '--data', d).out).toContain('dana');
  });

  it('admin user delete by name, email or id; refuses the last admin', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    for (const [name, admin] of [['root', true], ['bob', false], ['carol', false], ['dave', false]] as const) {
      const r = hearth(d, 'admin', 'user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', 'longenough', ...(admin ? ['--admin'] : []));
      expect(r.code, r.err).toBe(0);
    }
    expectOneLineFailure(hearth(d, 'admin', 'user', 'delete'), /id, username or email/);
    expectOneLineFailure(hearth(d, 'admin', 'user', 'delete', '--username', 'root'), /last admin/);
    expectOneLineFailure(hearth(d, 'admin', 'user', 'delete', '--email', 'bob@example.com', '--username', 'carol'), /does not match/);
    expect(hearth(d, 'admin', 'user', 'delete', '--username', 'bob').out).toContain("User 'bob' has been successfully deleted!");
    expect(hearth(d, 'admin', 'user', 'delete', '--email', 'CAROL@example.com', '--purge').code).toBe(0);
    const id = /^(\d+)\s+dave/m.exec(hearth(d, 'admin', 'user', 'list').out)?.[1];
    expect(hearth(d, 'admin', 'user', 'delete', '--id', id!).code).toBe(0);
    expectOneLineFailure(hearth(d, 'admin', 'user', 'delete', '--id', id!), /user does not exist/);
    const left = hearth(d, 'admin', 'user', 'list').out;
    expect(left).toContain('root');
    expect(left).not.toMatch(/bob|carol|dave/);
  }, 120_000);

  it('admin user generate-access-token validates scopes as the API does and prints the token', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    expect(hearth(d, 'admin', 'user', 'create', '--username', 'erin', '--email', 'erin@example.com', '--password', 'longenough').code).toBe(0);
    const gen = (...a: string[]) => hearth(d, 'admin', 'user', 'generate-access-token', '--username', 'erin', ...a);
    expectOneLineFailure(gen('--scopes', 'read:nonsense'), /invalid access token scope provided/);
    expectOneLineFailure(gen(), /must have a scope/);
    const plain = gen('--scopes', 'read:repository,write:issue');
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).toMatch(/^Access token was successfully created: [0-9a-f]{40}\n$/);
    expectOneLineFailure(gen('--scopes', 'all'), /name has been used already/);
    const raw = gen('--token-name', 'ci', '--scopes', 'all', '--raw');
    expect(raw.out).toMatch(/^[0-9a-f]{40}\n$/);
    expectOneLineFailure(hearth(d, 'admin', 'user', 'generate-access-token', '--username', 'nobody', '--scopes', 'all'), /does not exist/);

    // The token authenticates as erin.
    const web = startWeb(d);
    const url = await web.url();
    const res = await fetch(`${url}api/v1/user`, { headers: { Authorization: `token ${raw.out.trim()}` } });
    expect(((await res.json()) as { login: string }).login).toBe('erin');
    expect(await web.stop()).toBe(0);
  }, 120_000);

  it('actions generate-runner-token prints the scope\'s active registration token, the one the API hands out', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    expect(hearth(d, 'admin', 'user', 'create', '--username', 'root', '--email', 'root@example.com', '--password', 'longenough', '--admin').code).toBe(0);
    const grt = (...a: string[]) => hearth(d, 'actions', 'generate-runner-token', ...a);
    const instance = grt();
    expect(instance.code, instance.err).toBe(0);
    expect(instance.out).toMatch(/^[A-Za-z0-9_-]{40}\n$/);
    expect(hearth(d, 'actions', 'grt').out).toBe(instance.out);
    const owner = grt('--scope', 'root');
    expect(owner.out).toMatch(/^[A-Za-z0-9_-]{40}\n$/);
    expect(owner.out).not.toBe(instance.out);
    expectOneLineFailure(grt('-s', 'nobody'), /--scope nobody: user does not exist/);
    expectOneLineFailure(grt('-s', 'root/none'), /--scope root\/none: repository does not exist/);
    const rows = await withInstanceDatabase(d, dbEnv(d), (db) => db.selectFrom('action_runner_token')
      .select(['token', 'owner_id', 'repo_id', 'is_active']).orderBy('id').execute());
    expect(rows.map((r) => ({ ...r, is_active: Number(r.is_active) }))).toEqual([
      { token: instance.out.trim(), owner_id: 0, repo_id: 0, is_active: 1 },
      { token: owner.out.trim(), owner_id: 1, repo_id: 0, is_active: 1 },
    ]);

    const web = startWeb(d);
    const url = await web.url();
    const res = await fetch(`${url}api/v1/admin/runners/registration-token`, { headers: { Authorization: basicHeader('root', 'longenough') } });
    expect(((await res.json()) as { token: string }).token).toBe(instance.out.trim());
    expect(await web.stop()).toBe(0);
  }, 120_000);

  it('admin repo-sync-releases and admin regenerate hooks|keys', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    const sync = hearth(d, 'admin', 'repo-sync-releases');
    expect(sync.code, sync.err).toBe(0);
    expect(sync.out).toBe('Synchronizing repository releases (this may take a while)\nSynchronized 0 repositories: 0 releases followed their tags\n');
    const hooks = hearth(d, 'admin', 'regenerate', 'hooks');
    expect(hooks.out).toMatch(/^hook scripts in \S+ are up to date\n$/);
    expect(fs.existsSync(path.join(/^hook scripts in (\S+)/.exec(hooks.out)![1]!, 'pre-receive'))).toBe(true);
    expect(hearth(d, 'admin', 'regenerate', 'keys').out).toMatch(/nothing to regenerate/);
    expectOneLineFailure(hearth(d, 'admin', 'regenerate', 'certs'), /unknown target 'certs': hooks or keys/);
  });

  it('admin user must-change-password sets and unsets the flag for named users or all', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    for (const name of ['fay', 'gus', 'hal']) {
      const create = ['admin', 'user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', 'longenough', '--must-change-password=false'];
      expect(hearth(d, ...create).code).toBe(0);
    }
    const mcp = (...a: string[]) => hearth(d, 'admin', 'user', 'must-change-password', ...a);
    expectOneLineFailure(mcp(), /either usernames or --all/);
    expect(mcp('fay', 'GUS').out).toBe('Updated 2 users setting MustChangePassword to true\n');
    expect(mcp('--all', '--exclude', 'hal').out).toBe('Updated 0 users setting MustChangePassword to true\n');
    expect(mcp('--all').out).toBe('Updated 1 users setting MustChangePassword to true\n');
    expect(mcp('--unset', 'fay').out).toBe('Updated 1 users setting MustChangePassword to false\n');
    expect(mcp('--all', '--unset', '-e', 'gus').out).toBe('Updated 1 users setting MustChangePassword to false\n');
  }, 120_000);
});

describe('hearth web: start-up failures and the data directory lock', () => {
  it('a port in use is one line naming the address and the key to change, found before a new data directory is made', async () => {
    const d = path.join(tmp(), 'new');
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const r = runHearthSync(['web', '--port', String(port), '--data', d], { HEARTH__SERVER__HTTP_ADDR: '127.0.0.1', ...await processDatabaseEnv() });
      expectOneLineFailure(r, `127.0.0.1:${port}`, /EADDRINUSE/,
        /\[server\] http_port/, /HEARTH__SERVER__HTTP_PORT/, /--port/);
      expect(r.err).not.toContain('password');
    } finally {
      busy.close();
    }
    // The port is tried first: the failed start made no directory, database or first admin.
    expect(fs.existsSync(d)).toBe(false);
  });

  it('a SIGTERM as soon as the server answers stops it gracefully (regression: it was killed while still starting)', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const web = startWeb(d, String(port));
    // Straight after the first answer: the first admin, the jobs, cron and the runner may still be starting.
    for (const end = Date.now() + 20_000; !(await fetch(`http://127.0.0.1:${port}/api/v1/version`).catch(() => null))?.ok;) {
      if (Date.now() > end) throw new Error('no answer');
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await web.stop(), web.output()).toBe(0);
    expect(web.output()).toContain('shutting down');
    expect(fs.existsSync(path.join(d, 'hearth.pid'))).toBe(false);
  });

  it('without git on PATH the start is one line and creates nothing (regression: it started and answered 500)', async () => {
    // A PATH with node alone (the tsx loader needs none, the executable needs nothing).
    const bin = tmp();
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const d = tmp();
    const r = runHearthSync(['web', '--port', '0', '--data', path.join(d, 'data')], { PATH: bin, ...await processDatabaseEnv() });
    expectOneLineFailure(r, /cannot start: git is not installed or not on PATH/);
    expect(fs.existsSync(path.join(d, 'data'))).toBe(false);
  });

  it('a data directory under a file is one line naming ENOTDIR, not ENOENT', async () => {
    const file = path.join(tmp(), 'a-file');
    fs.writeFileSync(file, '');
    for (const cmd of ['web', 'migrate']) {
      const r = hearth(await freshInstance(), cmd, '--data', path.join(file, 'data'), ...(cmd === 'web' ? ['--port', '0'] : []));
      expectOneLineFailure(r, `${file}/data`, /ENOTDIR/, /--data/);
      expect(r.err).not.toContain('ENOENT');
    }
  });

  const root = process.getuid?.() === 0;
  if (root) console.log('skipped "a read-only data directory ...": running as root, chmod does not stop writes');
  it.skipIf(root)('a read-only data directory is one line naming EACCES', async () => {
    const d = await freshInstance();
    expect(hearth(d, 'migrate').code).toBe(0);
    fs.chmodSync(d, 0o555);
    try {
      expectOneLineFailure(hearth(d, 'web', '--port', '0'), d, /EACCES/);
    } finally {
      fs.chmodSync(d, 0o755);
    }
  });

  // The pid lock is SQLite's: on PostgreSQL nodes share the data directory by design (test/cluster).
  sqliteOnly('a second hearth web on the same data directory refuses, naming the running process', async () => {
    const d = tmp();
    const first = startWeb(d);
    await first.url();
    const [owner] = fs.readFileSync(path.join(d, 'hearth.pid'), 'utf8').split('\n');
    expect(owner).toMatch(/^\d+@.+$/);
    const pid = owner.split('@')[0];
    const second = hearth(d, 'web', '--port', '0');
    expectOneLineFailure(second, `pid ${pid}`, d, /hearth\.pid/);
    expect(fs.readFileSync(path.join(d, 'hearth.pid'), 'utf8').split('\n')[0]).toBe(owner);
    expect(await first.stop()).toBe(0);
    // Removed on a clean shutdown.
    expect(fs.existsSync(path.join(d, 'hearth.pid'))).toBe(false);
  });

  // The pid lock is SQLite's (see above): PostgreSQL's servers take none.
  sqliteOnly('a stale lock left by a killed process is taken over', async () => {
    const d = tmp();
    expect(hearth(d, 'migrate').code).toBe(0);
    const dead = spawnSync('true').pid!;
    fs.writeFileSync(path.join(d, 'hearth.pid'), `${dead}\n`);
    const web = startWeb(d);
    await web.url();
    const pid = Number(fs.readFileSync(path.join(d, 'hearth.pid'), 'utf8').split('@')[0]);
    expect(pid).not.toBe(dead);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(await web.stop()).toBe(0);
  });
});

async function waitFor<T>(probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
