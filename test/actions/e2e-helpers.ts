import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerRunner } from '../../src/runner/client';
import { startRunner, type RunningRunner } from '../../src/runner/daemon';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { as, createUser, json, ok, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// The whole Actions loop as a user meets it: a repository, hearth's runner registered with a
// registration token from the API and running in this process, workflows pushed with git.

export type User = { username: string; password: string; id: number };

export async function userWithRepo(s: TestServer, name: string, repo = 'app'): Promise<User> {
  const user = await createUser(s, name);
  await createRepo(s, user, repo);
  return user;
}

/** A repository-level registration token, through the API. */
export async function repoRegistrationToken(s: TestServer, user: User, repo = 'app'): Promise<string> {
  const body = await ok(await s.request(`api/v1/repos/${user.username}/${repo}/actions/runners/registration-token`, { auth: as(user) }));
  return body.token as string;
}

/** hearth's runner registered with `token` and running in-process; stopped by the returned function. */
export async function startHearthRunner(
  s: TestServer, token: string, labels = ['hearth'], capacity = 1, name = 'test-runner',
): Promise<RunningRunner & { workDir: string }> {
  const url = s.hearth.config.server.root_url.replace(/\/$/, '');
  const reg = await registerRunner(url, token, name, labels);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-runner-'));
  const runner = await startRunner({ instance: url, uuid: reg.uuid, token: reg.token, name, labels, capacity, workDir, idleMs: 100 });
  return {
    ...runner,
    workDir,
    done: runner.done,
    get finished() { return runner.finished; },
    stop: async () => {
      await runner.stop();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/** Pushes a fresh history with `files` to user/repo's main branch. */
export async function pushFiles(s: TestServer, user: User, files: Record<string, string>, repo = 'app'): Promise<string> {
  const dir = await workTree(files);
  await git(dir, 'push', '-q', remoteUrl(s, user.username, repo, user.username, user.password), 'HEAD:refs/heads/main');
  const sha = (await git(dir, 'rev-parse', 'HEAD')).trim();
  fs.rmSync(dir, { recursive: true, force: true });
  return sha;
}

export type Run = { id: number; status: string; conclusion: string | null; head_sha: string; run_number: number; event: string; workflow_error?: string };

export async function listRuns(s: TestServer, user: User, repo = 'app', query = ''): Promise<Run[]> {
  const body = await ok(await s.request(`api/v1/repos/${user.username}/${repo}/actions/runs${query}`, { auth: as(user) }));
  return body.workflow_runs as Run[];
}

/** Waits for the repository's run matching `pick` to be completed and returns it. */
export async function completedRun(
  s: TestServer, user: User, pick: (r: Run) => boolean = () => true, repo = 'app', ms = 30_000,
): Promise<Run> {
  let found: Run | undefined;
  await eventually(async () => {
    found = (await listRuns(s, user, repo)).find(pick);
    return found?.status === 'completed';
  }, ms, 'a completed run');
  return found!;
}

export async function runJobs(s: TestServer, user: User, runId: number, repo = 'app'): Promise<any[]> {
  const body = await ok(await s.request(`api/v1/repos/${user.username}/${repo}/actions/runs/${runId}/jobs`, { auth: as(user) }));
  return body.jobs as any[];
}

export async function jobLogs(s: TestServer, user: User, jobId: number, repo = 'app'): Promise<string> {
  const res = await s.request(`api/v1/repos/${user.username}/${repo}/actions/jobs/${jobId}/logs`, { auth: as(user) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`logs of job ${jobId}: ${res.status} ${text}`);
  return text;
}

export { json };

export const workflow = (body: string) => ({ '.gitea/workflows/ci.yml': body });
