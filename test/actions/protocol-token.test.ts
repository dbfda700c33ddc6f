import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { cancelRun } from '../../src/services/actions/runs';
import { stopTask } from '../../src/services/actions/tasks';
import { createRepo, gitTry, remoteUrl, tempDir } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { queueRun, registrationToken, runnerClient, runnerHeaders, type RunnerClient } from './protocol-helpers';

// The job token of a task (GITEA_TOKEN): it signs in as gitea-actions with write access to the
// task's repository only, and only while the task runs; cancelling and stopping a task.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let repo: { id: number; owner_id: number };
let sha: string;
let reg: { uuid: string; token: string };
let runner: RunnerClient;

async function fetchTask(label = 'tok') {
  await queueRun(s, repo, sha, [{ id: 'build', label }]);
  const task = (await runner.fetchTask({}, runnerHeaders(reg))).task!;
  expect(task).toBeDefined();
  return { id: task.id, token: String((task.context as Record<string, unknown>).token) };
}

const clone = (token: string, name: string) => {
  const dir = path.join(tempDir(), 'c');
  return gitTry(path.dirname(dir), 'clone', remoteUrl(s, 'alice', name, 'gitea-actions', token), dir);
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  const r = await createRepo(s, alice, 'proj', { auto_init: true, private: true });
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  repo = { id: Number(r.id), owner_id: alice.id };
  const branch = await s.request('api/v1/repos/alice/proj/branches/main', { auth: { basic: [alice.username, alice.password] } });
  sha = ((await branch.json()) as { commit: { id: string } }).commit.id;
  runner = runnerClient(s, true).runner;
  const token = await registrationToken(s, { ownerId: 0, repoId: 0 });
  const res = await runner.register({ name: 'tok', token, labels: ['tok'] });
  reg = { uuid: res.runner!.uuid, token: res.runner!.token };
});
afterAll(async () => { await s.stop(); });

describe('job token', () => {
  it('clones the task repository over git HTTP and is refused after the task ends', async () => {
    const task = await fetchTask();
    const ok = await clone(task.token, 'proj');
    expect(ok.code, ok.stderr).toBe(0);
    // Another private repository of the same owner stays out of reach.
    expect((await clone(task.token, 'secret')).code).not.toBe(0);
    const api = await s.request('api/v1/repos/alice/proj', { auth: { token: task.token } });
    expect(api.status).toBe(200);
    expect((await s.request('api/v1/repos/alice/secret', { auth: { token: task.token } })).status).toBe(404);

    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
    expect((await clone(task.token, 'proj')).code).not.toBe(0);
    expect((await s.request('api/v1/repos/alice/proj', { auth: { token: task.token } })).status).toBe(401);
  });

  it('a job token creates nothing outside repositories (regression: user-level writes as a user without a row)', async () => {
    const task = await fetchTask();
    const auth = { token: task.token };
    for (const [p, json] of [['api/v1/user/repos', { name: 'made-by-a-job' }], ['api/v1/user/keys', { title: 'k', key: 'ssh-ed25519 AAAA' }], ['api/v1/orgs', { username: 'job-org' }]] as const) {
      const res = await s.request(p, { method: 'POST', auth, json });
      expect(res.status, p).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('job token');
    }
    // Its own repository's routes still take writes.
    const issue = await s.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth, json: { title: 'from a job' } });
    expect(issue.status).toBe(201);
    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
  });

  it('pushes to the task repository with the token', async () => {
    const task = await fetchTask();
    const dir = path.join(tempDir(), 'w');
    const url = remoteUrl(s, 'alice', 'proj', 'gitea-actions', task.token);
    expect((await gitTry(path.dirname(dir), 'clone', url, dir)).code).toBe(0);
    fs.writeFileSync(path.join(dir, 'built.txt'), 'artifact\n');
    await gitTry(dir, 'add', '.');
    await gitTry(dir, '-c', 'user.name=ci', '-c', 'user.email=ci@example.com', 'commit', '-m', 'built');
    const push = await gitTry(dir, 'push', 'origin', 'HEAD:refs/heads/ci-output');
    expect(push.code, push.stderr).toBe(0);
    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
  });
});

describe('job token of a private organization repository', () => {
  it('clones the task repository of a private organization', async () => {
    const org = await createOrg(s, alice, 'acme', { visibility: 'private' });
    const res = await s.request('api/v1/orgs/acme/repos', { method: 'POST', auth: { basic: [alice.username, alice.password] }, json: { name: 'svc', private: true, auto_init: true } });
    expect(res.status).toBe(201);
    const r = (await res.json()) as { id: number };
    const head = await s.request('api/v1/repos/acme/svc/branches/main', { auth: { basic: [alice.username, alice.password] } });
    const orgSha = ((await head.json()) as { commit: { id: string } }).commit.id;
    await queueRun(s, { id: r.id, owner_id: org.id }, orgSha, [{ id: 'build', label: 'tok' }]);
    const task = (await runner.fetchTask({}, runnerHeaders(reg))).task!;
    const token = String((task.context as Record<string, unknown>).token);
    const dir = path.join(tempDir(), 'o');
    const got = await gitTry(path.dirname(dir), 'clone', remoteUrl(s, 'acme', 'svc', 'gitea-actions', token), dir);
    expect(got.code, got.stderr).toBe(0);
    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
  });
});

describe('stopping tasks', () => {
  it('a cancelled run answers the runner with cancelled and ends the token', async () => {
    const task = await fetchTask();
    const row = await s.hearth.db.selectFrom('action_task').innerJoin('action_run_job', 'action_run_job.id', 'action_task.job_id')
      .select(['action_run_job.run_id']).where('action_task.id', '=', Number(task.id)).executeTakeFirstOrThrow();
    await cancelRun(s.hearth, row.run_id, null);
    const res = await runner.updateTask({ state: { id: task.id } }, runnerHeaders(reg));
    expect(res.state?.result).toBe(Result.CANCELLED);
    expect((await clone(task.token, 'proj')).code).not.toBe(0);
  });

  it('stopTask finishes the task, its steps and its job', async () => {
    const task = await fetchTask();
    await stopTask(s.hearth, Number(task.id), 'failure');
    const db = s.hearth.db;
    const t = await db.selectFrom('action_task').selectAll().where('id', '=', Number(task.id)).executeTakeFirstOrThrow();
    expect(t.status).toBe('failure');
    expect(t.token_hash).toBeNull();
    const job = await db.selectFrom('action_run_job').selectAll().where('task_id', '=', t.id).executeTakeFirstOrThrow();
    expect(job.status).toBe('failure');
    const steps = await db.selectFrom('action_task_step').select('status').where('task_id', '=', t.id).execute();
    expect(steps.every((x) => x.status === 'cancelled')).toBe(true);
    const res = await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(reg));
    expect(res.state?.result).toBe(Result.FAILURE);
  });
});
