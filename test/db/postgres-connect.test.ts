import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DatabaseConnectError, statementStats, type DB } from '../../src/db/connect';
import { dialectOf } from '../../src/db/dialect';
import { openPostgres } from '../../src/db/postgres/connect';
import { closedPort, postgresInstalled, startPostgres, withPostgres, type TempPostgres } from '../helpers/postgres';

// PostgreSQL's connection layer on a throwaway cluster: rows typed as SQLite gives them, one
// prepared statement per text and connection, the statement counter, and start errors that name
// the server and the database in one line, never the password.

let server: TempPostgres;
let db: DB;

beforeAll(async () => {
  if (!postgresInstalled) return;
  server = startPostgres();
  db = await openPostgres({ url: server.url(), poolSize: 2 });
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  server?.stop();
});


async function refusal(url: string): Promise<string> {
  const err = await openPostgres({ url, poolSize: 1 }).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(DatabaseConnectError);
  const message = (err as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
}

withPostgres('openPostgres', () => {
  it('is a PostgreSQL Kysely instance whose counts, sums and ids are numbers, as on SQLite', async () => {
    expect(dialectOf(db).engine).toBe('postgres');
    const r = await sql<Record<string, unknown>>`SELECT COUNT(*) AS n, SUM(x) AS total, 12::int8 AS id, 1.5::numeric AS ratio,
      9007199254740993::int8 AS huge FROM (VALUES (1::int8), (2::int8)) AS v(x)`.execute(db);
    // Past 2^53 an int8 stays a string rather than a number that lost its last digits.
    expect(r.rows[0]).toEqual({ n: 2, total: 3, id: 12, ratio: 1.5, huge: '9007199254740993' });
  });

  it('talks UTF-8 in UTC', async () => {
    const r = await sql<{ client_encoding: string; tz: string; s: string }>`SELECT current_setting('client_encoding') AS client_encoding,
      current_setting('TimeZone') AS tz, ${'héllo ✓ 🔥'}::text AS s`.execute(db);
    expect(r.rows[0]).toEqual({ client_encoding: 'UTF8', tz: 'UTC', s: 'héllo ✓ 🔥' });
  });

  it('prepares a statement once per connection and counts what it runs', async () => {
    const one = await openPostgres({ url: server.url(), poolSize: 1 });
    try {
      const before = { ...statementStats(one) };
      for (let i = 1; i <= 5; i++) {
        const row = await one.selectNoFrom(sql<number>`${i}::int8 + 1`.as('v')).executeTakeFirstOrThrow();
        expect(row.v).toBe(i + 1);
      }
      expect(statementStats(one).executed - before.executed).toBe(5);
      expect(statementStats(one).prepared - before.prepared).toBe(1);
      const names = await sql<{ name: string }>`SELECT name FROM pg_prepared_statements
        WHERE statement LIKE '%::int8 + 1%' AND statement NOT LIKE '%pg_prepared_statements%'`.execute(one);
      expect(names.rows).toHaveLength(1);
      expect(names.rows[0]!.name).toMatch(/^h_/);
      // A transaction's statements are counted too (begin, the statement, commit).
      const mid = statementStats(one).executed;
      await one.transaction().execute(async (trx) => { await trx.selectNoFrom(sql<number>`1`.as('v')).execute(); });
      expect(statementStats(one).executed - mid).toBe(3);
    } finally {
      await one.destroy();
    }
  });

  it('gives the same rows on a statement\'s later runs, whose row description is the one its first run read', async () => {
    const named = await openPostgres({ url: server.url(), poolSize: 1 });
    const unnamed = await openPostgres({ url: server.url(), poolSize: 1, namedStatements: false });
    try {
      await sql`CREATE TABLE shaped (id BIGINT PRIMARY KEY, name TEXT, flag BOOLEAN, n INTEGER, at TIMESTAMPTZ)`.execute(named);
      const runs = async (d: DB, i: number) => [
        // Every type, NULLs, a duplicate column name (the later one wins, in the first one's place), no rows.
        (await sql`SELECT s.*, s.name AS id FROM shaped s ORDER BY s.id`.execute(d)).rows,
        (await sql`SELECT id, name FROM shaped WHERE id > ${1000 + i}`.execute(d)).rows,
        (await sql`UPDATE shaped SET name = name WHERE id = ${11} RETURNING n, flag, at`.execute(d)).rows,
      ];
      for (let i = 0; i < 3; i++) {
        // An INSERT without RETURNING has no rows to describe; its count still arrives.
        for (const d of [named, unnamed]) {
          const inserted = await sql`INSERT INTO shaped (id, name, flag, n, at) VALUES (${10 * i + (d === named ? 1 : 2)}, ${i ? `row ${i}` : null}, ${i % 2 === 0}, ${i ? i : null}, ${i ? '2024-01-02T03:04:05Z' : null})`.execute(d);
          expect(inserted.numAffectedRows).toBe(1n);
        }
        const [a, b] = [await runs(named, i), await runs(unnamed, i)];
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a[0]).toHaveLength(2 * (i + 1));
        expect(a[0]![0]).toEqual({ id: null, name: null, flag: true, n: null, at: null });
      }
      // A later run that fails is refused as the first would be, and the statement runs again after it.
      const insert = (id: number) => sql`INSERT INTO shaped (id) VALUES (${id})`.execute(named);
      await insert(500);
      await expect(insert(500)).rejects.toThrow(/duplicate key/);
      await insert(501);
      expect((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM shaped WHERE id >= ${500}`.execute(named)).rows).toEqual([{ n: 2 }]);
    } finally {
      await sql`DROP TABLE IF EXISTS shaped`.execute(named);
      await named.destroy();
      await unnamed.destroy();
    }
  });

  it('refuses a missing database in one line naming the server and the database', async () => {
    const message = await refusal(server.url('nosuchdb'));
    expect(message).toContain(`cannot connect to PostgreSQL at socket ${server.socketDir}/.s.PGSQL.${server.port}, database "nosuchdb"`);
    expect(message).toContain('database "nosuchdb" does not exist');
    expect(message).toContain('HEARTH__DATABASE__URL');
  });

  it('refuses a closed port and an unknown host, naming them and not the password', async () => {
    const port = await closedPort();
    const refused = await refusal(`postgres://hearth:hunter2@127.0.0.1:${port}/hearth`);
    expect(refused).toContain(`PostgreSQL at 127.0.0.1:${port}, database "hearth": connection refused`);
    expect(refused).not.toContain('hunter2');
    const unknown = await refusal('postgres://hearth:hunter2@no-such-host.invalid:5432/hearth');
    expect(unknown).toMatch(/PostgreSQL at no-such-host\.invalid:5432, database "hearth": (unknown host|the host name could not be resolved)/);
    expect(unknown).not.toContain('hunter2');
  });

  it('refuses a URL it cannot read', async () => {
    expect(await refusal('postgres://hearth:hunter2@db:notaport/hearth')).toMatch(/url \(HEARTH__DATABASE__URL\) is not a valid URL/);
  });
});

withPostgres('openPostgres on a server that asks for a password', () => {
  let guarded: TempPostgres;
  beforeAll(() => { guarded = startPostgres({ password: 'right-pw' }); }, 60_000);
  afterAll(() => guarded?.stop());

  it('connects with the right password and refuses a wrong or missing one without showing it', async () => {
    const good = await openPostgres({ url: guarded.url(), poolSize: 1 });
    expect((await sql<{ v: number }>`SELECT 1::int8 AS v`.execute(good)).rows[0]!.v).toBe(1);
    await good.destroy();
    const wrong = await refusal(guarded.url().replace('right-pw', 'wrong-pw'));
    expect(wrong).toContain(`password authentication failed for user "${guarded.user}"`);
    expect(wrong).not.toContain('wrong-pw');
    const none = await refusal(guarded.url().replace(':right-pw', ''));
    expect(none).toMatch(/asks for a password|password authentication failed/);
  });
});
