import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type DB } from '../../src/db/connect';
import type { Database } from '../../src/db/schema';
import { abandonedJobs, runningTasks } from '../../src/models/actions-engine-cleanup';
import { dueSpecs } from '../../src/models/actions-engine-schedules';
import { getRunnerByUuid } from '../../src/models/actions-runners';
import { tasksVersion, waitingJobs } from '../../src/models/actions-tasks';
import { latestCommitStatuses, listCommitStatuses } from '../../src/models/commit-status';
import { countJobs, dueJobs, nextRunAt } from '../../src/models/job';
import { countNotifications, listNotifications } from '../../src/models/notification';
import { dueMirrors } from '../../src/models/mirror';
import { duePushMirrorIds } from '../../src/models/push-mirror';

// The queries that run on a timer or on every poll, for as long as the server runs: each runner's
// FetchTask (every 2 s by default), the job queue, the cron tasks of every few minutes. Their
// tables only grow over the years, so none may read a whole table (or a whole index): each plan
// must seek. Asserted on SQLite's own plans, on the statements the models actually send.

let dir: string;
let sqlite: SQLite.Database;
let db: DB;
const sent = new Set<string>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-plans-'));
  sqlite = new SQLite(path.join(dir, 'hearth.db'));
  const recording = new Proxy(sqlite, {
    get(target, key) {
      if (key === 'prepare') return (text: string) => { sent.add(text); return target.prepare(text); };
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database: recording }) });
  await migrate(db);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The steps of SQLite's plan for `text` that walk a whole table or index (not a subquery's few rows). */
function fullScans(text: string): string[] {
  const tables = new Set((sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
  const params = (text.match(/\?/g) ?? []).map(() => 0);
  const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[];
  return plan.map((p) => p.detail).filter((d) => tables.has(/^SCAN (\S+)/.exec(d)?.[1] ?? ''));
}

async function plansOf(run: () => Promise<unknown>): Promise<Record<string, string[]>> {
  sent.clear();
  await run();
  const out: Record<string, string[]> = {};
  for (const text of sent) {
    const scans = fullScans(text);
    if (scans.length) out[text] = scans;
  }
  return out;
}

describe('queries on a timer seek, never scan', () => {
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<unknown>][] = [
    ['a runner\'s FetchTask: the runner, waiting jobs, the tasks version', async () => {
      await getRunnerByUuid(db, 'x');
      await waitingJobs(db, { ownerId: 0, repoId: 0 }, 200);
      await waitingJobs(db, { ownerId: 0, repoId: 1 }, 200);
      await waitingJobs(db, { ownerId: 1, repoId: 0 }, 200);
      await tasksVersion(db);
    }],
    ['the job queue', async () => {
      await dueJobs(db, now, 10, ['a']);
      await nextRunAt(db);
    }],
    ['cron: zombie and endless tasks, abandoned jobs, schedules, mirrors', async () => {
      await runningTasks(db, { updatedBefore: now });
      await runningTasks(db, { startedBefore: now });
      await abandonedJobs(db, now);
      await dueSpecs(db, now, 10);
      await dueMirrors(db, now, 50);
      await duePushMirrorIds(db, now, 50);
    }],
    ['what clients poll: new notifications, a commit\'s combined status', async () => {
      await countNotifications(db, { userId: 1, statuses: [1] });
      await listNotifications(db, { userId: 1, statuses: [1, 3], updatedSince: now }, { offset: 0, limit: 50 });
      await latestCommitStatuses(db, 1, 'a'.repeat(40), { offset: 0, limit: 30 });
      await listCommitStatuses(db, { repoId: 1, sha: 'a'.repeat(40), sort: '', offset: 0, limit: 30 });
    }],
    ['a metrics scrape\'s job counts', async () => {
      await countJobs(db, 'pending');
    }],
  ];
  for (const [name, run] of cases) {
    it(name, async () => {
      expect(await plansOf(run)).toEqual({});
    });
  }
});
