import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { migrate, type DB } from '../../src/db/connect';
import { openPostgres } from '../../src/db/postgres/connect';
import { initBare, repoDir } from '../../src/git/repo';
import { runDoctor } from '../../src/services/doctor/doctor';
import type { CheckResult } from '../../src/services/doctor/types';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { runHearth } from '../helpers/process';

// `hearth doctor` on PostgreSQL: the database checks through the dialect (migrations against
// PostgreSQL's own list, constraints never validated in place of SQLite's foreign_key_check,
// the integrity check skipped with its reason), the counters and file checks as on SQLite.

let server: TempPostgres;
const opened: DB[] = [];
const dirs: string[] = [];
let databases = 0;

beforeAll(() => { if (!postgresInstalled) return; server = startPostgres(); }, 60_000);
afterAll(async () => {
  for (const db of opened) await db.destroy();
  server?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh, migrated database of its own and a data dir for the file checks. */
async function instance(): Promise<{ db: DB; url: string; dataDir: string }> {
  const name = `doctor${++databases}`;
  const admin = new pg.Client({ host: server.socketDir, port: server.port, user: server.user, database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = await openPostgres({ url: server.url(name), poolSize: 2 });
  opened.push(db);
  await migrate(db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-doctor-pg-'));
  dirs.push(dataDir);
  return { db, url: server.url(name), dataDir };
}

const byName = (results: CheckResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));
const ctxOf = (dataDir: string, fix: boolean) => ({
  config: loadConfig(null, { dataDir }, { HEARTH__LOG__LEVEL: 'silent' }), fix, fsckTimeoutMs: 60_000, stamp: 'STAMP', signal: new AbortController().signal,
});

withPostgres('hearth doctor on PostgreSQL', () => {
  it('a fresh database passes, its integrity check skipped with the reason', async () => {
    const { db, dataDir } = await instance();
    const r = byName(await runDoctor(db, ctxOf(dataDir, false)));
    expect(Object.values(r).filter((c) => c.problems.length)).toEqual([]);
    expect(r['database-version']!.skipped).toBeUndefined();
    expect(r['database-integrity']!.skipped).toMatch(/^PostgreSQL has no counterpart/);
  }, 120_000);

  it('finds drifted repository counters and recounts them with --fix', async () => {
    const { db, dataDir } = await instance();
    const ctx = ctxOf(dataDir, false);
    const user = await db.insertInto('user').values({ lower_name: 'alice', name: 'alice', email: 'a@example.com', created_unix: 0, updated_unix: 0 })
      .returningAll().executeTakeFirstOrThrow();
    await db.insertInto('repository').values({
      owner_id: user.id, owner_name: 'alice', lower_name: 'counted', name: 'counted', default_branch: 'main', num_issues: 99, created_unix: 0, updated_unix: 0,
    }).execute();
    await initBare(repoDir(ctx.config.repository.root, 'alice', 'counted'), { objectFormat: 'sha1', defaultBranch: 'main' });
    const found = byName(await runDoctor(db, ctx))['repository-counters']!;
    expect(found.problems).toEqual(['alice/counted (num_issues 99, counted 0)']);
    const fixed = byName(await runDoctor(db, ctxOf(dataDir, true)))['repository-counters']!;
    expect(fixed.fixed).toEqual(['recounted alice/counted (num_issues 99, counted 0)']);
    expect((await db.selectFrom('repository').select('num_issues').executeTakeFirstOrThrow()).num_issues).toBe(0);
  }, 120_000);

  it('reports a foreign key added NOT VALID, the one way PostgreSQL keeps an orphan', async () => {
    const { db, dataDir } = await instance();
    const { rows } = await sql<{ name: string }>`SELECT conname AS name FROM pg_constraint
      WHERE conrelid = 'star'::regclass AND confrelid = 'repository'::regclass`.execute(db);
    await sql.raw(`ALTER TABLE star DROP CONSTRAINT "${rows[0]!.name}"`).execute(db);
    const user = await db.insertInto('user').values({ lower_name: 'bob', name: 'bob', email: 'b@example.com', created_unix: 0, updated_unix: 0 })
      .returningAll().executeTakeFirstOrThrow();
    await db.insertInto('star').values({ uid: user.id, repo_id: 4242, created_unix: 0 }).execute();
    await sql`ALTER TABLE star ADD CONSTRAINT star_repo_late FOREIGN KEY (repo_id) REFERENCES repository(id) NOT VALID`.execute(db);
    const r = byName(await runDoctor(db, ctxOf(dataDir, false)));
    expect(r['foreign-keys']!.problems).toEqual([expect.stringMatching(/^star: constraint star_repo_late was never validated/)]);
  }, 120_000);

  it('runs from the command line on a PostgreSQL url', async () => {
    const { url, dataDir } = await instance();
    const r = await runHearth(['doctor', '--data', dataDir], { HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url });
    expect(r.code, r.out + r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toContain('[ok] database-version');
    expect(lines).toContain('[ok] foreign-keys');
    expect(lines.find((l) => l.startsWith('[skipped] database-integrity: '))).toBeDefined();
  }, 120_000);
});
