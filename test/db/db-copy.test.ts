import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { testsOnPostgres } from '../helpers/test-database';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { runHearth, startHearthProcess } from '../helpers/process';
import { createUser, ok, startTestServer } from '../helpers/server';

// `hearth admin db copy --to postgres://...`: an instance a real server filled on SQLite, then
// stopped, copied into a fresh PostgreSQL database; every table arrives whole, identities go on
// past the copied ids, and a target that holds rows is refused.

let server: TempPostgres;
const dirs: string[] = [];

beforeAll(() => { if (!postgresInstalled) return; server = startPostgres(); }, 60_000);
afterAll(() => {
  server?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const urlOf = (database: string) => server.url(database);

async function withClient<T>(database: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ host: server.socketDir, port: server.port, user: server.user, database });
  await c.connect();
  try { return await fn(c); } finally { await c.end(); }
}

/** A data dir filled through the API: users, a pushed repository, issues, comments, labels, a release, a webhook. */
async function filledInstance(): Promise<string> {
  const s = await startTestServer();
  dirs.push(s.dataDir);
  const alice = await createUser(s, 'alice');
  const bob = await createUser(s, 'bob');
  const auth = { basic: [alice.username, alice.password] as [string, string] };
  await createRepo(s, alice, 'tools');
  const wt = await workTree({ 'README.md': '# tools\n' });
  dirs.push(wt);
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'tools', alice.username, alice.password), 'main');
  const label = await ok(await s.request('api/v1/repos/alice/tools/labels', { method: 'POST', auth, json: { name: 'bug', color: '#ff0000' } }), 201);
  for (const title of ['first', 'second', 'third']) {
    const issue = await ok(await s.request('api/v1/repos/alice/tools/issues', { method: 'POST', auth, json: { title, labels: [label.id] } }), 201);
    await ok(await s.request(`api/v1/repos/alice/tools/issues/${issue.number}/comments`, {
      method: 'POST', auth: { basic: [bob.username, bob.password] }, json: { body: `on ${title}` },
    }), 201);
  }
  await ok(await s.request('api/v1/repos/alice/tools/releases', { method: 'POST', auth, json: { tag_name: 'v1.0', name: 'one' } }), 201);
  await ok(await s.request('api/v1/repos/alice/tools/hooks', {
    method: 'POST', auth, json: { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['push'], active: true },
  }), 201);
  // The source is read with the server stopped: a running one keeps the data dir's lock.
  const busy = await runHearth(['admin', 'db', 'copy', '--data', s.dataDir, '--to', urlOf('copied')]);
  expect(busy.code).toBe(1);
  expect(busy.err.trim()).toMatch(/^hearth: db copy reads the database with the server stopped: .* is in use by another hearth \(pid \d+\)/);
  await s.close(); // not stop(): that removes the data dir
  return s.dataDir;
}

/** Row counts of every table SQLite has that PostgreSQL has too (the full-text index's tables aside). */
function sqliteCounts(file: string): Record<string, number> {
  const db = new SQLite(file, { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'issue_fts%' AND name NOT LIKE 'kysely_migration%'")
      .pluck().all() as string[];
    return Object.fromEntries(names.map((n) => [n, Number(db.prepare(`SELECT COUNT(*) FROM "${n}"`).pluck().get())]));
  } finally {
    db.close();
  }
}

// The copy's source is a SQLite instance made by a test server: in the PostgreSQL pass the test
// servers themselves run on PostgreSQL, so this runs in the SQLite pass only.
(testsOnPostgres ? describe.skip : withPostgres)('hearth admin db copy', () => {
  it('copies every table into an empty PostgreSQL database, ids continue past the copied ones, and a second copy is refused', async () => {
    const dataDir = await filledInstance();
    await withClient('postgres', (c) => c.query('CREATE DATABASE copied'));
    const copy = await runHearth(['admin', 'db', 'copy', '--data', dataDir, '--to', urlOf('copied')]);
    expect(copy.code, copy.out + copy.err).toBe(0);
    expect(copy.out).toMatch(/^issue: 3 rows$/m);
    expect(copy.out).toMatch(/^skipped \(SQLite only.*\): issue_fts/m);
    expect(copy.out).toMatch(/^copied \d+ tables, \d+ rows$/m);
    expect(copy.out).not.toContain(server.socketDir);

    const expected = sqliteCounts(path.join(dataDir, 'hearth.db'));
    expect(expected.user).toBeGreaterThanOrEqual(3);
    expect(expected.comment).toBeGreaterThanOrEqual(3);
    expect(expected.release).toBe(1);
    expect(expected.webhook).toBe(1);
    const copied = await withClient('copied', async (c) => {
      const out: Record<string, number> = {};
      for (const name of Object.keys(expected)) out[name] = Number((await c.query(`SELECT COUNT(*) AS n FROM "${name}"`)).rows[0].n);
      return out;
    });
    expect(copied).toEqual(expected);

    await withClient('copied', async (c) => {
      const { rows: [max] } = await c.query('SELECT MAX(id) AS id FROM "user"');
      const { rows: [added] } = await c.query(`INSERT INTO "user" (lower_name, name, email, created_unix, updated_unix)
        VALUES ('carol', 'carol', 'carol@example.com', 0, 0) RETURNING id`);
      expect(Number(added.id)).toBeGreaterThan(Number(max.id));
    });

    // A server on the copy serves what SQLite held and numbers the next issue after the copied ones.
    const web = await startHearthProcess(dataDir, { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: urlOf('copied'), HEARTH__LOG__LEVEL: 'info' });
    try {
      const auth = `Basic ${Buffer.from('alice:pw-alice-secret').toString('base64')}`;
      const listed = await fetch(`${web.url}/api/v1/repos/alice/tools/issues?state=all`, { headers: { Authorization: auth } });
      expect((await ok(listed)).map((i: { title: string }) => i.title).sort()).toEqual(['first', 'second', 'third']);
      const created = await fetch(`${web.url}/api/v1/repos/alice/tools/issues`, {
        method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'fourth' }),
      });
      expect((await ok(created, 201)).number).toBe(4);
    } finally {
      web.child.kill('SIGTERM');
      await web.exited;
    }

    const again = await runHearth(['admin', 'db', 'copy', '--data', dataDir, '--to', urlOf('copied')]);
    expect(again.code).toBe(1);
    expect(again.err.trim()).toMatch(/^hearth: db copy: the target database already holds rows \(.*\): db copy fills an empty database only$/);

    const missing = await runHearth(['admin', 'db', 'copy', '--data', dataDir, '--to', urlOf('nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: db copy: .*database "nowhere" does not exist/)]);
  }, 180_000);

  it('refuses a row PostgreSQL cannot hold (a NUL byte in text, text in an integer column) in one line naming it; the target stays empty', async () => {
    const s = await startTestServer();
    dirs.push(s.dataDir);
    await createUser(s, 'alice');
    await s.close();
    const file = path.join(s.dataDir, 'hearth.db');
    const tamper = (statement: string) => { const db = new SQLite(file); try { db.exec(statement); } finally { db.close(); } };
    const copy = () => runHearth(['admin', 'db', 'copy', '--data', s.dataDir, '--to', urlOf('refused')]);
    await withClient('postgres', (c) => c.query('CREATE DATABASE refused'));

    tamper("UPDATE \"user\" SET full_name = 'Al' || char(0) || 'ice' WHERE lower_name = 'alice'");
    const nul = await copy();
    expect(nul.code).toBe(1);
    expect(nul.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: db copy: table user, row \d+ \(id \d+\): column full_name holds text with a NUL byte \(\\u0000\), which PostgreSQL cannot store; correct or remove it/)]);

    tamper("UPDATE \"user\" SET full_name = 'Alice', num_repos = 'many' WHERE lower_name = 'alice'");
    const text = await copy();
    expect(text.code).toBe(1);
    expect(text.err.trim().split('\n')).toEqual([expect.stringMatching(/^hearth: db copy: table user, row \d+ \(id \d+\): column num_repos holds "many" where PostgreSQL's column is an integer;/)]);
    // The copy is one transaction: nothing of it stayed.
    expect(await withClient('refused', async (c) => (await c.query('SELECT COUNT(*)::int AS n FROM "user"')).rows[0].n)).toBe(0);
  }, 120_000);

  it('refuses a URL that is not PostgreSQL\'s, in one line', async () => {
    const r = await runHearth(['admin', 'db', 'copy', '--data', '/nonexistent', '--to', 'mysql://x@y/z']);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe('hearth: --to: a PostgreSQL URL (postgres://user:password@host/database)');
  });
});
