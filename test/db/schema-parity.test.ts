import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, pendingMigrations, type DB } from '../../src/db/connect';
import { dialectOf } from '../../src/db/dialect';
import { migrations, POSTGRES_BASELINE_COVERS } from '../../src/db/migrations';
import { BASELINE_MIGRATION, MIGRATION_LOCK } from '../../src/db/postgres/migrate';
import { postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';
import { postgresShape, sqliteShape } from '../helpers/schema-shape';

// Both engines, migrated by the same migrate(), hold the same schema: tables, columns, indexes
// and foreign keys (PostgreSQL's trigram indexes standing for SQLite's FTS5 table). Each test
// makes its own PostgreSQL database on one throwaway cluster.

let server: TempPostgres;
let admin: Kysely<unknown>;
const opened: Kysely<unknown>[] = [];
let counter = 0;

const connect = (database: string) => {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ host: server.socketDir, port: server.port, user: server.user, database, max: 3 }) }),
  });
  opened.push(db);
  return db as unknown as DB;
};

async function freshPostgres(): Promise<{ name: string; db: DB }> {
  const name = `parity_${process.pid}_${++counter}`;
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  return { name, db: connect(name) };
}

function freshSqlite(): DB {
  const raw = new Database(':memory:');
  raw.pragma('foreign_keys = ON');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  opened.push(db);
  return db as unknown as DB;
}

beforeAll(() => {
  if (!postgresInstalled) return;
  server = startPostgres();
  admin = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ host: server.socketDir, port: server.port, user: server.user, database: server.database, max: 1 }) }) });
}, 60_000);
afterAll(async () => {
  for (const db of [...opened, admin]) await db?.destroy();
  server?.stop();
});

const laterMigrations = () => Object.keys(migrations).filter((n) => n > POSTGRES_BASELINE_COVERS).sort();

withPostgres('schema parity between SQLite and PostgreSQL', () => {
  it('has the same tables, columns, indexes and foreign keys on both engines after migrating', async () => {
    const lite = freshSqlite();
    await migrate(lite);
    const { db } = await freshPostgres();
    expect(dialectOf(db).engine).toBe('postgres');
    expect(await migrate(db)).toEqual([BASELINE_MIGRATION, ...laterMigrations()]);
    const [s, p] = [await sqliteShape(lite), await postgresShape(db)];
    const trigram = p.indexes.filter((i) => / gin /.test(i));
    expect(trigram.sort()).toEqual(['issue idx_issue_content_trgm gin (content)', 'issue idx_issue_title_trgm gin (title)']);
    expect(s.tables.length).toBeGreaterThan(80);
    expect(p.tables).toEqual(s.tables);
    expect(p.columns).toEqual(s.columns);
    expect(p.indexes.filter((i) => !trigram.includes(i))).toEqual(s.indexes);
    expect(p.foreignKeys).toEqual(s.foreignKeys);
  });

  it('numbers new rows by identity and returns the ids', async () => {
    const { db } = await freshPostgres();
    await migrate(db);
    const d = db as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const badges = await d.insertInto('badge').values([{ slug: 'a' }, { slug: 'b' }]).returning('id').execute();
    expect(badges.map((r) => Number(r.id))).toEqual([1, 2]);
    const redirect = await d.insertInto('user_redirect').values({ lower_name: 'old', redirect_user_id: 7 }).returning('id').executeTakeFirstOrThrow();
    expect(Number(redirect.id)).toBe(1);
    const topic = await d.insertInto('topic').values({ name: 'go', created_unix: 1, updated_unix: 1 }).returning(['id', 'name']).executeTakeFirstOrThrow();
    expect(Number(topic.id)).toBe(1);
    const back = await d.selectFrom('badge').select(['slug', 'description']).where('id', '=', badges[1].id).executeTakeFirstOrThrow();
    expect(back).toEqual({ slug: 'b', description: '' });
    await expect(d.insertInto('badge').values({ slug: 'a' }).execute()).rejects.toSatisfy((e) => dialectOf(d).isUniqueViolation(e));
  });

  it('serves the issue text search from the trigram indexes', async () => {
    const { db } = await freshPostgres();
    await migrate(db);
    const d = db as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const plan = await d.connection().execute(async (conn) => {
      await sql`SET enable_seqscan = off`.execute(conn);
      const q = conn.selectFrom('issue as i').select('i.id').where(dialectOf(conn).issueText('i.id', 'Crash'));
      const compiled = q.compile();
      return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${compiled.sql.replace(/\$(\d+)/g, (_, n) => `'${String(compiled.parameters[n - 1]).replace(/'/g, "''")}'`)}`).execute(conn)).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('idx_issue_title_trgm');
    expect(plan).toContain('idx_issue_content_trgm');
  });
});

withPostgres('the issue text search on each engine\'s index', () => {
  const ISSUES = [
    { id: 1, title: 'Crash on Start', content: 'segfault at 100% load' },
    { id: 2, title: 'docs', content: 'the START page' },
    { id: 3, title: 'Trash can', content: '' },
  ];
  const found = async (db: Kysely<any>, keyword: string) => // eslint-disable-line @typescript-eslint/no-explicit-any
    (await db.selectFrom('issue as i').select('i.id').where(dialectOf(db).issueText('i.id', keyword)).orderBy('i.id').execute()).map((r) => Number(r.id));

  it('finds the same issues, whatever the case, on SQLite\'s FTS5 and PostgreSQL\'s trigram indexes', async () => {
    const rows = ISSUES.map((i) => ({ ...i, repo_id: 1, index: i.id, poster_id: 1, created_unix: 1, updated_unix: 1 }));
    const lite = freshSqlite() as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    await migrate(lite as unknown as DB);
    // The rows stand alone: no repository or user behind them.
    await sql`PRAGMA foreign_keys = OFF`.execute(lite);
    await lite.insertInto('issue').values(rows).execute();
    const { db } = await freshPostgres();
    await migrate(db);
    const postgres = db as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    await postgres.connection().execute(async (conn) => {
      await sql`SET session_replication_role = replica`.execute(conn);
      await conn.insertInto('issue').values(rows).execute();
    });
    const expected: Record<string, number[]> = { crash: [1], START: [1, 2], 'ash o': [1], '100%': [1], ash: [1, 3], zzz: [] };
    for (const [keyword, ids] of Object.entries(expected)) {
      expect([keyword, await found(lite, keyword)]).toEqual([keyword, ids]);
      expect([keyword, await found(postgres, keyword)]).toEqual([keyword, ids]);
    }
  });
});

withPostgres('the PostgreSQL migrator', () => {
  it('lists what is pending, then answers up to date in one query', async () => {
    const { db } = await freshPostgres();
    expect(await pendingMigrations(db)).toEqual([BASELINE_MIGRATION, ...laterMigrations()]);
    await migrate(db);
    expect(await pendingMigrations(db)).toEqual([]);
    expect(await migrate(db)).toEqual([]);
  });

  it('lets two nodes migrate one empty database at once: both succeed, the schema exists once', async () => {
    const { name, db: first } = await freshPostgres();
    const second = connect(name);
    const results = await Promise.all([migrate(first), migrate(second)]);
    expect(results.map((r) => r.length).sort()).toEqual([0, 1 + laterMigrations().length]);
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(first);
    expect(applied.rows.map((r) => r.name)).toEqual([BASELINE_MIGRATION, ...laterMigrations()]);
    const users = await sql<{ n: string }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'user'`.execute(first);
    expect(Number(users.rows[0].n)).toBe(1);
  });

  it('waits while another node holds the migration lock', async () => {
    const { name, db } = await freshPostgres();
    const other = connect(name) as unknown as Kysely<unknown>;
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    let locked!: () => void;
    const holding = new Promise<void>((r) => { locked = r; });
    const holder = other.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK}::bigint)`.execute(conn);
      locked();
      await released;
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`.execute(conn);
    });
    await holding;
    let done = false;
    const migrating = migrate(db).then((r) => { done = true; return r; });
    try {
      await new Promise((r) => setTimeout(r, 500));
      expect(done).toBe(false);
      expect(await dialectOf(db).tableExists(db, 'kysely_migration')).toBe(false);
    } finally {
      release();
      await holder;
    }
    expect(await migrating).toEqual([BASELINE_MIGRATION, ...laterMigrations()]);
  });

  it('runs a later migration on both engines, each through its own SQL, after the baseline', async () => {
    const { db } = await freshPostgres();
    await migrate(db);
    // A stand-in for a migration from 0052 on: one module, one branch per engine.
    const probe = '9999-parity-probe';
    migrations[probe] = {
      async up(trx) {
        if (dialectOf(trx).engine === 'postgres') await sql`CREATE TABLE probe (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name TEXT NOT NULL DEFAULT '')`.execute(trx);
        else await sql`CREATE TABLE probe (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT '')`.execute(trx);
        await trx.schema.createIndex('idx_probe_name').on('probe').column('name').execute();
      },
    };
    try {
      expect(await pendingMigrations(db)).toEqual([probe]);
      expect(await migrate(db)).toEqual([probe]);
      const lite = freshSqlite();
      await migrate(lite);
      const [s, p] = [await sqliteShape(lite), await postgresShape(db)];
      expect(s.columns.filter((c) => c.startsWith('probe.'))).toEqual(['probe.id integer not null', 'probe.name text not null default']);
      expect(p.columns).toEqual(s.columns);
      expect(p.indexes.filter((i) => i.startsWith('probe '))).toEqual(s.indexes.filter((i) => i.startsWith('probe ')));
      expect(s.indexes).toContain('probe idx_probe_name (name)');
    } finally {
      delete migrations[probe];
    }
  });
});
