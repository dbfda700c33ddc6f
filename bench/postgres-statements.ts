// What a named prepared statement saves on PostgreSQL: an indexed SELECT by id through Kysely and
// hearth's connection layer (src/db/postgres/connect.ts), with named statements (parsed once per
// connection, then bound and executed; later runs without the row description), with named
// statements described on every run (pg's own way, `describeEachRun`), and unnamed (parsed and
// planned every time), on a throwaway cluster over its Unix socket, one connection. SQLite's
// statement cache (in-process) in the same run is the floor. A narrow row (4 columns) and a wide
// one (48 columns, as hearth's user and repository rows), wall time and this process's CPU time
// per statement. Paired rounds, medians; ratios against the unnamed run.
// Usage: npx tsx bench/postgres-statements.ts [statements=5000] [rounds=5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../src/db/connect';
import { openPostgres } from '../src/db/postgres/connect';
// @ts-expect-error a plain JavaScript module of the benches
import { startPostgres } from './postgres.mjs';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

const N = Number(process.argv[2] ?? 5000);
const ROUNDS = Number(process.argv[3] ?? 5);
const ROWS = 10_000;

const WIDE = 44;
async function fill(db: Db): Promise<void> {
  const extra = Array.from({ length: WIDE }, (_, i) => `c${i} ${['TEXT', 'BIGINT', 'BOOLEAN', 'TEXT'][i % 4]}`).join(', ');
  await sql.raw(`CREATE TABLE item (id BIGINT PRIMARY KEY, name TEXT NOT NULL, owner_id BIGINT NOT NULL, created_unix BIGINT NOT NULL, ${extra})`).execute(db);
  const value = (i: number, c: number) => [`text ${c} of ${i}`, i * c, c % 3 === 0 ? 1 : 0, c % 7 ? '' : null][c % 4];
  for (let start = 1; start <= ROWS; start += 500) {
    const rows = Array.from({ length: 500 }, (_, i) => ({
      id: start + i, name: `item-${start + i}`, owner_id: (start + i) % 97, created_unix: 1_700_000_000 + start + i,
      ...Object.fromEntries(Array.from({ length: WIDE }, (_, c) => [`c${c}`, value(start + i, c)])),
    }));
    await db.insertInto('item').values(rows).execute();
  }
}

type Per = { wall: number; cpu: number };

/** Microseconds per statement (wall and this process's CPU) over N lookups by id. */
async function perStatement(db: Db, wide: boolean): Promise<Per> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const id = 1 + ((i * 7919) % ROWS);
    const row = wide
      ? await db.selectFrom('item').selectAll().where('id', '=', id).executeTakeFirst()
      : await db.selectFrom('item').select(['id', 'name', 'owner_id', 'created_unix']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new Error('missing row');
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: Number(process.hrtime.bigint() - t0) / 1000 / N, cpu: (cpu.user + cpu.system) / N };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const server = startPostgres();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-pgstmt-'));
  const engines: Record<string, Db> = {};
  try {
    engines.named = await openPostgres({ url: server.url, poolSize: 1 }) as Db;
    engines.described = await openPostgres({ url: server.url, poolSize: 1, describeEachRun: true }) as Db;
    engines.unnamed = await openPostgres({ url: server.url, poolSize: 1, namedStatements: false }) as Db;
    engines.sqlite = openDatabase({ file: path.join(dir, 'bench.db'), busyTimeout: 5000, cacheDir: path.join(dir, 'cache') }) as Db;
    await fill(engines.named);
    await fill(engines.sqlite);
    const keys = Object.keys(engines);
    for (const wide of [false, true]) {
      const times: Record<string, Per[]> = Object.fromEntries(keys.map((k) => [k, []]));
      for (const k of keys) await perStatement(engines[k]!, wide); // warm-up
      for (let r = 0; r < ROUNDS; r++) {
        // Rotated order: drift on a shared machine falls on every side alike.
        const order = keys.map((_, i) => keys[(i + r) % keys.length]!);
        for (const k of order) times[k]!.push(await perStatement(engines[k]!, wide));
      }
      const m = (k: string, f: keyof Per) => median(times[k]!.map((t) => t[f]));
      console.log(`SELECT ${wide ? `* (${WIDE + 4} columns)` : '4 columns'} FROM item WHERE id = $1, ${N} statements x ${ROUNDS} rounds, one connection (medians)`);
      for (const k of keys) {
        console.log(`  ${k.padEnd(10)} wall ${m(k, 'wall').toFixed(1).padStart(6)} µs/statement (${(m(k, 'wall') / m('unnamed', 'wall')).toFixed(2)}x of unnamed), `
          + `this process's CPU ${m(k, 'cpu').toFixed(1).padStart(6)} µs (${(m(k, 'cpu') / m('unnamed', 'cpu')).toFixed(2)}x)`);
      }
    }
  } finally {
    for (const db of Object.values(engines)) await db.destroy();
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
