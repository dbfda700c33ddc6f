import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../src/db/connect';
import type { ActionRun, ActionRunJob } from '../../src/db/schema';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { afterAll, beforeAll } from 'vitest';
import type { ActionsDeps } from '../../src/services/actions/runs';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// The engine's integration tests push workflows with git and read the engine's rows directly
// (the REST views are A1's, tested there); a "runner" is simulated by writing job results and
// calling the engine's entry points, as the task protocol does.

export type User = { username: string; password: string; id: number };

export type Repo = { dir: string; push: (files: Record<string, string | null>, message?: string, branch?: string) => Promise<string> };

/** A local clone of user/name whose pushes go through git HTTP. */
export async function localRepo(s: TestServer, user: User, name: string, files: Record<string, string>): Promise<Repo> {
  const dir = await workTree(files);
  const url = remoteUrl(s, user.username, name, user.username, user.password);
  await git(dir, 'push', '-q', url, 'HEAD:refs/heads/main');
  const push: Repo['push'] = async (more, message = 'change', branch = 'main') => {
    for (const [file, content] of Object.entries(more)) {
      const full = path.join(dir, file);
      if (content === null) fs.rmSync(full, { force: true });
      else {
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, content);
      }
    }
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '--allow-empty', '-m', message);
    await git(dir, 'push', '-q', url, `HEAD:refs/heads/${branch}`);
    return (await git(dir, 'rev-parse', 'HEAD')).trim();
  };
  return { dir, push };
}

/** A new repository of `user` with `files` pushed to main: its local clone and its id. */
export async function newRepo(s: TestServer, user: User, name: string, files: Record<string, string>): Promise<{ local: Repo; id: number }> {
  await createRepo(s, user, name);
  const local = await localRepo(s, user, name, files);
  return { local, id: await repoId(s.hearth.db, user.username, name) };
}

export type EngineServer = {
  s: () => TestServer; db: () => DB; deps: () => ActionsDeps; alice: () => User;
  newRepo: (name: string, files: Record<string, string>) => Promise<{ local: Repo; id: number }>;
};

/** A server and its user alice for the engine tests of one file (started before them, stopped after). */
export function engineServer(): EngineServer {
  let s: TestServer;
  let alice: User;
  beforeAll(async () => {
    s = await startTestServer();
    alice = await createUser(s, 'alice');
  });
  afterAll(async () => { await s.stop(); });
  return {
    s: () => s, db: () => s.hearth.db, alice: () => alice,
    deps: () => s.hearth,
    newRepo: (name, files) => newRepo(s, alice, name, files),
  };
}

export const runsOf = (db: DB, repoId: number): Promise<ActionRun[]> =>
  db.selectFrom('action_run').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();

export const jobsOf = (db: DB, runId: number): Promise<ActionRunJob[]> =>
  db.selectFrom('action_run_job').selectAll().where('run_id', '=', runId).orderBy('id').execute();

/** Waits until the repository has `count` runs, and the trigger jobs have settled them; returns them. */
export async function waitRuns(db: DB, repoId: number, count: number, ms = 15_000): Promise<ActionRun[]> {
  await eventually(async () => (await runsOf(db, repoId)).length >= count, ms, `${count} run(s)`);
  await triggersDone(db, ms);
  return runsOf(db, repoId);
}

export async function repoId(db: DB, owner: string, name: string): Promise<number> {
  const row = await db.selectFrom('repository').innerJoin('user', 'user.id', 'repository.owner_id')
    .select('repository.id').where('user.lower_name', '=', owner.toLowerCase()).where('repository.lower_name', '=', name.toLowerCase())
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Plays the runner's part: the job ran (running) and ended with `result`. */
export async function finishJob(db: DB, jobId: number, result: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await db.updateTable('action_run_job').set({ status: result, started_unix: now, stopped_unix: now, updated_unix: now })
    .where('id', '=', jobId).execute();
}

export async function statusesOf(db: DB, repoId: number, sha: string): Promise<{ context: string; state: string; description: string }[]> {
  return db.selectFrom('commit_status').select(['context', 'state', 'description']).where('repo_id', '=', repoId)
    .where('sha', '=', sha).orderBy('id').execute();
}

/** Waits until the trigger jobs queued so far (workflow detection) have all run. */
export async function triggersDone(db: DB, ms = 10_000): Promise<void> {
  await eventually(async () => {
    const row = await db.selectFrom('job').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'actions.trigger').executeTakeFirst();
    return Number(row?.n ?? 0) === 0;
  }, ms, 'trigger jobs done');
}
