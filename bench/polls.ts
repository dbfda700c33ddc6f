// What every poll costs once the tables have grown for years: the queries a runner's FetchTask
// (every 2 s per runner), the job queue and the clients that poll run, timed through the real
// models on a migrated database with 300,000 finished Actions jobs, 200,000 notifications and
// 100,000 commit statuses, against `SELECT 1` through the same connection (the floor of any
// statement). Target: every poll under 0.2 ms, whatever the table sizes (measured: 20-110 µs;
// the tasks version read the whole job table before migration 0035: 15 ms from the page cache).
// Usage: npx tsx bench/polls.ts [jobs=300000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { migrate, openDatabase } from '../src/db/connect';
import { latestCommitStatuses } from '../src/models/commit-status';
import { tasksVersion, waitingJobs } from '../src/models/actions-tasks';
import { dueJobs } from '../src/models/job';
import { countNotifications } from '../src/models/notification';

const JOBS = Number(process.argv[2] ?? 300_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-polls-'));
const file = path.join(dir, 'hearth.db');

function fill(): void {
  const raw = new SQLite(file);
  const now = Math.floor(Date.now() / 1000);
  const payload = 'name: ci\non: push\njobs:\n  build:\n    runs-on: x\n    steps:\n      - run: make\n'.repeat(10);
  const user = raw.prepare(`INSERT INTO user (id, lower_name, name, email, created_unix, updated_unix) VALUES (?, ?, ?, ?, 0, 0)`);
  for (let i = 1; i <= 500; i++) user.run(i, `u${i}`, `u${i}`, `u${i}@example.com`);
  raw.exec(`INSERT INTO repository (id, owner_id, owner_name, lower_name, name, default_branch, created_unix, updated_unix) VALUES (1, 1, 'u1', 'r', 'r', 'main', 0, 0)`);
  raw.transaction(() => {
    const run = raw.prepare(`INSERT INTO action_run (id, repo_id, owner_id, run_index, title, workflow_id, trigger_user_id, ref, commit_sha, event, trigger_event, event_payload, status, created_unix, updated_unix)
      VALUES (?, 1, 1, ?, 't', 'ci.yml', 1, 'refs/heads/main', 'sha', 'push', 'push', '{}', 'success', ?, ?)`);
    const job = raw.prepare(`INSERT INTO action_run_job (run_id, repo_id, owner_id, commit_sha, name, job_id, attempt, workflow_payload, needs, runs_on, status, created_unix, updated_unix)
      VALUES (?, 1, 1, 'sha', 'build', 'build', 1, ?, '[]', '["x"]', 'success', ?, ?)`);
    for (let i = 1; i <= JOBS / 3; i++) {
      const t = now - JOBS + i * 3;
      run.run(i, i, t, t);
      for (let k = 0; k < 3; k++) job.run(i, payload, t, t + k);
    }
    const note = raw.prepare(`INSERT INTO notification (user_id, repo_id, status, source, issue_id, commit_id, comment_id, updated_by, created_unix, updated_unix)
      VALUES (?, 1, ?, 1, ?, '', 0, 1, ?, ?)`);
    for (let i = 0; i < 200_000; i++) note.run((i % 500) + 1, i % 7 ? 2 : 1, i, now - i, now - i);
    const status = raw.prepare(`INSERT INTO commit_status (idx, repo_id, state, sha, target_url, description, context, creator_id, created_unix, updated_unix)
      VALUES (?, 1, 'success', ?, '', '', ?, 1, ?, ?)`);
    for (let i = 0; i < 100_000; i++) status.run(i, (i % 20_000).toString(16).padStart(40, '0'), `ci/${i % 5}`, now - i, now - i);
  })();
  raw.close();
}

async function main(): Promise<void> {
  const db = openDatabase({ file, busyTimeout: 5000, cacheDir: path.join(dir, 'cache') });
  await migrate(db);
  await db.destroy();
  const t0 = performance.now();
  fill();
  console.log(`filled ${JOBS.toLocaleString('en')} jobs, 200,000 notifications, 100,000 commit statuses in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const dbr = openDatabase({ file, busyTimeout: 5000, cacheDir: path.join(dir, 'cache') });
  const time = async (fn: () => Promise<unknown>, n = 200): Promise<number> => {
    await fn();
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      await fn();
      samples.push(performance.now() - s);
    }
    return samples.sort((a, b) => a - b)[Math.floor(n / 2)]!;
  };
  const floor = await time(() => sql`SELECT 1`.execute(dbr));
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, () => Promise<unknown>][] = [
    ['FetchTask: tasks version', () => tasksVersion(dbr)],
    ['FetchTask: waiting jobs (instance runner)', () => waitingJobs(dbr, { ownerId: 0, repoId: 0 }, 200)],
    ['job queue: due jobs', () => dueJobs(dbr, now, 10, [])],
    ['GET /notifications/new: unread count', () => countNotifications(dbr, { userId: 7, statuses: [1] })],
    ['GET commits/{sha}/status: latest per context', () => latestCommitStatuses(dbr, 1, (123).toString(16).padStart(40, '0'), { offset: 0, limit: 30 })],
    ['(before 0035) tasks version as one select of two max()', () => sql`SELECT max(updated_unix), max(id) FROM action_run_job`.execute(dbr)],
  ];
  console.log(`median of 200, against SELECT 1 = ${(floor * 1000).toFixed(0)} µs`);
  for (const [name, fn] of cases) {
    const ms = await time(fn, name.startsWith('(before') ? 20 : 200);
    console.log(`  ${name.padEnd(56)} ${(ms * 1000).toFixed(0).padStart(7)} µs  ${(ms / floor).toFixed(1)}x`);
  }
  await dbr.destroy();
}

main().finally(() => fs.rmSync(dir, { recursive: true, force: true }));
