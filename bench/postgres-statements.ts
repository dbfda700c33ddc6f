// What a named prepared statement saves on PostgreSQL: a simple indexed SELECT by id through
// Kysely and hearth's connection layer (src/db/postgres/connect.ts), with named statements (parsed
// once per connection, then bound and executed) and without (parsed and planned every time), on a
// throwaway cluster over its Unix socket, one connection. SQLite's statement cache (in-process) in
// the same run is the floor. Paired rounds, medians; ratios against the unnamed run.
// Usage: npx tsx bench/postgres-statements.ts [statements=5000] [rounds=5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../src/db/connect';
import { openPostgres } from '../src/db/postgres/connect';
import { startPostgres } from '../test/helpers/postgres';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

const N = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 5);
const ROWS = 10_000;

async function fill(db: Db): Promise<void> {
  await sql`CREATE TABLE item (id BIGINT PRIMARY KEY, name TEXT NOT NULL, owner_id BIGINT NOT NULL, created_unix BIGINT NOT NULL)`.execute(db);
  for (let start = 1; start <= ROWS; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: start + i, name: `item-${start + i}`, owner_id: (start + i) % 97, created_unix: 1_700_000_000 + start + i }));
    await db.insertInto('item').values(rows).execute();
  }
}

/** Microseconds per statement over N lookups by id. */
async function perStatement(db: Db): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const row = await db.selectFrom('item').selectAll().where('id', '=', 1 + ((i * 7919) % ROWS)).executeTakeFirst();
    if (!row) throw new Error('missing row');
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / N;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const server = startPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-pgstmt-'));
  const engines: Record<string, Db> = {};
  try {
    engines.named = await openPostgres({ url: server.url(), poolSize: 1 }) as Db;
    engines.unnamed = await openPostgres({ url: server.url(), poolSize: 1, namedStatements: false }) as Db;
    engines.sqlite = openDatabase({ file: path.join(dir, 'bench.db'), busyTimeout: 5000, cacheDir: path.join(dir, 'cache') }) as Db;
    await fill(engines.named);
    await fill(engines.sqlite);
    const times: Record<string, number[]> = { named: [], unnamed: [], sqlite: [] };
    for (const db of Object.values(engines)) await perStatement(db); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating order: drift on a shared machine falls on both sides alike.
      const order = r % 2 ? ['unnamed', 'named', 'sqlite'] : ['named', 'unnamed', 'sqlite'];
      for (const k of order) times[k]!.push(await perStatement(engines[k]!));
    }
    const unnamed = median(times.unnamed!);
    console.log(`SELECT * FROM item WHERE id = $1, ${N} statements x ${ROUNDS} rounds, one connection (medians)`);
    for (const k of ['unnamed', 'named', 'sqlite']) {
      const m = median(times[k]!);
      console.log(`  ${k.padEnd(8)} ${m.toFixed(1).padStart(6)} µs/statement   ${(m / unnamed).toFixed(2)}x of unnamed`);
    }
  } finally {
    for (const db of Object.values(engines)) await db.destroy();
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
