import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { runHearthSync, startHearthProcess } from './helpers/process';
import { closedPort, postgresInstalled, startPostgres, withPostgres, type TempPostgres } from './helpers/postgres';

// A PostgreSQL database hearth cannot open stops `hearth web`, `hearth migrate` and the admin
// commands with one line naming the server and the database (never the password), exit status 1,
// no stack trace. One throwaway cluster that asks for a password serves the wrong-password and
// missing-database cases; a released loopback port the refused one.

let server: TempPostgres;
const dirs: string[] = [];
const PASSWORD = 'pg-right-Secret';

beforeAll(() => { if (!postgresInstalled) return; server = startPostgres({ password: PASSWORD }); }, 60_000);
afterAll(() => {
  server?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** `hearth <args>` on a fresh data directory with the postgres driver and `url`. */
function hearth(url: string, ...args: string[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-pg-'));
  dirs.push(dataDir);
  return runHearthSync([...args, '--data', dataDir], { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url });
}

/** One line on stderr, starting `hearth: `, matching every part, naming no secret; exit 1. */
function expectOneLine(r: { code: number | null; err: string }, secret: string, ...parts: (string | RegExp)[]) {
  expect(r.code, r.err).toBe(1);
  const lines = r.err.trim().split('\n');
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(/^hearth: /);
  expect(r.err).not.toContain(secret);
  expect(r.err).not.toMatch(/\n\s+at /);
  for (const p of parts) expect(lines[0]).toMatch(p);
}


withPostgres('hearth on a PostgreSQL database it cannot open', () => {
  it('web: a failed password', () => {
    const url = server.url().replace(PASSWORD, 'not-the-password');
    expectOneLine(hearth(url, 'web', '--port', '0'), 'not-the-password',
      `cannot connect to PostgreSQL at socket ${server.socketDir}/.s.PGSQL.${server.port}, database "postgres"`,
      `password authentication failed for user "${server.user}"`);
  });

  it('web and an admin command: a missing database', () => {
    const url = server.url('no_such_db');
    for (const args of [['web', '--port', '0'], ['admin', 'user', 'list']]) {
      expectOneLine(hearth(url, ...args), PASSWORD, 'database "no_such_db" does not exist', 'HEARTH__DATABASE__URL');
    }
  });

  it('web and migrate: a refused connection', async () => {
    const port = await closedPort();
    const url = `postgres://hearth:${PASSWORD}@127.0.0.1:${port}/hearth`;
    for (const args of [['web', '--port', '0'], ['migrate']]) {
      expectOneLine(hearth(url, ...args), PASSWORD, `PostgreSQL at 127.0.0.1:${port}, database "hearth": connection refused`);
    }
  });

  it('web: an unknown host', () => {
    expectOneLine(hearth(`postgres://hearth:${PASSWORD}@no-such-host.invalid/hearth`, 'web', '--port', '0'), PASSWORD,
      /PostgreSQL at no-such-host\.invalid:5432, database "hearth": (unknown host|the host name could not be resolved)/);
  });

  it('web: a URL that does not parse, and a URL of another scheme (a config error)', () => {
    expectOneLine(hearth(`postgres://hearth:${PASSWORD}@db:port/hearth`, 'web', '--port', '0'), PASSWORD, /url \(HEARTH__DATABASE__URL\) is not a valid URL/);
    expectOneLine(hearth(`mysql://hearth:${PASSWORD}@db/hearth`, 'web', '--port', '0'), PASSWORD,
      /invalid config: database\.url \(set by HEARTH__DATABASE__URL\): expected a postgres:\/\/ URL/);
  });
});

withPostgres('hearth on a PostgreSQL database', () => {
  it('web migrates a new database, serves, logs no password, and stops with no connection left', async () => {
    const admin = new pg.Client({ connectionString: server.url() });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE served');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-pg-'));
      dirs.push(dataDir);
      const env = { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: server.url('served') };
      const web = await startHearthProcess(dataDir, env);
      const version = await fetch(`${web.url}/api/v1/version`);
      expect(version.status).toBe(200);
      const who = /user name: (\S+)[\s\S]*password: {2}(\S+)/.exec(web.out())!;
      const me = await fetch(`${web.url}/api/v1/user`, { headers: { Authorization: `Basic ${Buffer.from(`${who[1]}:${who[2]}`).toString('base64')}` } });
      expect(((await me.json()) as { login: string }).login).toBe(who[1]);
      const used = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'served'`);
      expect(used.rows[0].n).toBeGreaterThan(0);
      web.child.kill('SIGTERM');
      expect(await web.exited).toBe(0);
      expect(web.out()).not.toContain(PASSWORD);
      const left = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'served'`);
      expect(left.rows[0].n).toBe(0);
      // The schema is there: migrate finds nothing to do.
      const again = runHearthSync(['migrate', '--data', dataDir], env);
      expect(again.code, again.err).toBe(0);
      expect(again.out + again.err).toMatch(/up to date/i);
    } finally {
      await admin.end();
    }
  });
});
