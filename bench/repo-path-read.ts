// A repository request's first reads, separate against fused (src/models/repo-path.ts), on
// SQLite and on PostgreSQL (a throwaway cluster, bench/postgres.mjs), through hearth's models:
// the caller by name with another user's repository (separate: caller, owner, repository and
// collaboration, 4 statements; fused: 1), the caller who owns it (2 against 1) and an anonymous
// caller (owner and repository, 2 against 1). Wall time and this process's CPU per lookup,
// paired rounds in rotated order, medians, and the fused read's ratio to the separate reads on
// the same engine in the same run (SQLite keeps the fused read only where it is not slower).
// Usage: npx tsx bench/repo-path-read.ts [lookups=3000] [rounds=5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, type DB } from '../src/db/connect';
import { openPostgres } from '../src/db/postgres/connect';
import { getCollaboratorMode, getRepoWithTransferFlag, insertRepo } from '../src/models/repo';
import { getCallerByNameAndRepo, getOwnerAndRepo } from '../src/models/repo-path';
import { getUserByName, insertUser } from '../src/models/user';
// @ts-expect-error a plain JavaScript module of the benches
import { postgresInstalled, startPostgres } from './postgres.mjs';

const N = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 5);

async function fill(db: DB): Promise<void> {
  for (const name of ['alice', 'bob']) {
    await insertUser(db, { name, lower_name: name, email: `${name}@example.com`, created_unix: 1, updated_unix: 1 } as never);
  }
  const alice = (await getUserByName(db, 'alice'))!;
  await insertRepo(db, { owner_id: alice.id, owner_name: 'alice', name: 'Repo', lower_name: 'repo', default_branch: 'main', created_unix: 1, updated_unix: 1 } as never);
}

type Case = { name: string; separate: (db: DB) => Promise<unknown>; fused: (db: DB) => Promise<unknown> };
const cases: Case[] = [
  {
    name: 'another user\'s repository (4 statements / 1)',
    async separate(db) {
      const caller = await getUserByName(db, 'bob');
      const owner = await getUserByName(db, 'alice');
      const found = await getRepoWithTransferFlag(db, owner!.id, 'repo');
      return getCollaboratorMode(db, found!.repo.id, caller!.id);
    },
    fused: (db) => getCallerByNameAndRepo(db, 'bob', 'alice', 'repo'),
  },
  {
    name: 'the caller\'s own repository (2 / 1)',
    async separate(db) {
      const caller = await getUserByName(db, 'alice');
      return getRepoWithTransferFlag(db, caller!.id, 'repo');
    },
    fused: (db) => getCallerByNameAndRepo(db, 'alice', 'alice', 'repo'),
  },
  {
    name: 'anonymous (2 / 1)',
    async separate(db) {
      const owner = await getUserByName(db, 'alice');
      return getRepoWithTransferFlag(db, owner!.id, 'repo');
    },
    fused: (db) => getOwnerAndRepo(db, 'alice', 'repo'),
  },
];

type Per = { wall: number; cpu: number };
async function per(db: DB, fn: (db: DB) => Promise<unknown>): Promise<Per> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await fn(db);
  const cpu = process.cpuUsage(cpu0);
  return { wall: Number(process.hrtime.bigint() - t0) / 1000 / N, cpu: (cpu.user + cpu.system) / N };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-repo-path-'));
  const server = postgresInstalled() ? startPostgres() : null;
  const engines: Record<string, DB> = {};
  try {
    engines.sqlite = openDatabase({ file: path.join(dir, 'bench.db'), busyTimeout: 5000, cacheDir: path.join(dir, 'cache') });
    if (server) engines.postgres = await openPostgres({ url: server.url, poolSize: 1 });
    for (const db of Object.values(engines)) {
      await migrate(db);
      await fill(db);
    }
    for (const c of cases) {
      console.log(`${c.name}: ${N} lookups x ${ROUNDS} rounds (medians, µs per lookup)`);
      for (const [engine, db] of Object.entries(engines)) {
        const sides = { separate: c.separate, fused: c.fused };
        const times: Record<string, Per[]> = { separate: [], fused: [] };
        for (const fn of Object.values(sides)) await per(db, fn); // warm-up
        for (let r = 0; r < ROUNDS; r++) {
          const order = r % 2 ? ['fused', 'separate'] as const : ['separate', 'fused'] as const;
          for (const k of order) times[k]!.push(await per(db, sides[k]));
        }
        const m = (k: string, f: keyof Per) => median(times[k]!.map((t) => t[f]));
        console.log(`  ${engine.padEnd(8)} separate wall ${m('separate', 'wall').toFixed(1)} cpu ${m('separate', 'cpu').toFixed(1)}; `
          + `fused wall ${m('fused', 'wall').toFixed(1)} cpu ${m('fused', 'cpu').toFixed(1)}: fused/separate wall ${(m('fused', 'wall') / m('separate', 'wall')).toFixed(2)}x, cpu ${(m('fused', 'cpu') / m('separate', 'cpu')).toFixed(2)}x`);
      }
    }
  } finally {
    for (const db of Object.values(engines)) await db.destroy();
    server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
