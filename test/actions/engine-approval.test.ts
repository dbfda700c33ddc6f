import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRepoById } from '../../src/models/repo';
import { getUserById } from '../../src/models/user';
import { needsApproval } from '../../src/services/actions/approval';
import { git, remoteUrl, tempDir } from '../helpers/git';
import { commitFile } from '../helpers/pull-fixtures';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { jobsOf, newRepo, statusesOf, waitRuns, type User } from './engine-helpers';
import { registrationToken, runnerClient, runnerHeaders } from './protocol-helpers';

// Runs of fork pull requests wait for a writer's approval (Gitea's ifNeedApproval and
// ApproveRuns): their jobs stay blocked, so no runner (the embedded one runs on this host) takes
// a stranger's code, until someone who can write the repository's Actions approves the run.

let s: TestServer;
let alice: User;
let bob: User;

const db = () => s.hearth.db;
const call = (who: User | null, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), ...(body === undefined ? {} : { json: body }) });

/** Two jobs on runner label `label`: `build` first, `after` needs it. */
const workflow = (label: string, on = 'pull_request:') =>
  `on:\n  ${on}\njobs:\n  build: {runs-on: ${label}, steps: [{run: echo build}]}\n  after: {needs: build, runs-on: ${label}, steps: [{run: echo after}]}\n`;

/** A repository of alice with `files`, its id. */
const baseRepo = async (name: string, files: Record<string, string>) => (await newRepo(s, alice, name, files)).id;

/** `who` forks alice/`repo`, pushes `branch` with one commit and opens a pull request from it; push() adds a commit. */
async function forkPull(who: User, repo: string, branch: string): Promise<{ sha: string; push: (n: number) => Promise<string> }> {
  await ok(await call(who, 'POST', `repos/${alice.username}/${repo}/forks`, {}), 202);
  const dir = path.join(tempDir(), 'f');
  await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, who.username, repo, who.username, who.password), 'f');
  await git(dir, 'checkout', '-q', '-b', branch);
  const sha = await commitFile(dir, 'change.txt', 'one\n');
  await git(dir, 'push', '-q', 'origin', branch);
  await ok(await call(who, 'POST', `repos/${alice.username}/${repo}/pulls`, { head: `${who.username}:${branch}`, base: 'main', title: `from ${who.username}` }), 201);
  const push = async (n: number) => {
    const next = await commitFile(dir, 'change.txt', `${n}\n`);
    await git(dir, 'push', '-q', 'origin', branch);
    return next;
  };
  return { sha, push };
}

/** A runner at instance level with `label`; fetch() is one FetchTask, the task's job id or null. */
async function runner(label: string): Promise<{ fetch: () => Promise<number | null> }> {
  const { runner: c } = runnerClient(s, false);
  const token = await registrationToken(s, { ownerId: 0, repoId: 0 });
  const reg = (await c.register({ name: `r-${label}`, token, version: 'v0.2.11', labels: [label] })).runner!;
  return {
    fetch: async () => {
      const res = await c.fetchTask({}, runnerHeaders({ uuid: reg.uuid, token: reg.token }));
      if (!res.task) return null;
      const task = await db().selectFrom('action_task').select('job_id').where('id', '=', Number(res.task.id)).executeTakeFirstOrThrow();
      return task.job_id;
    },
  };
}

const statusOfJobs = async (runId: number) => (await jobsOf(db(), runId)).map((j) => [j.job_id, j.status]);
const approvals = () => db().selectFrom('audit_log').select(['operator_name', 'target_id', 'repo_name', 'message'])
  .where('operation_type', '=', 'actions.run.approve').execute();

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('approval of fork pull request runs', () => {
  let id = 0;
  let runId = 0;
  let r: Awaited<ReturnType<typeof runner>>;
  let pull: Awaited<ReturnType<typeof forkPull>>;

  it('a fork pull request of a user who cannot write waits for approval: its jobs stay blocked', async () => {
    id = await baseRepo('gate', { '.gitea/workflows/ci.yml': workflow('gate') });
    r = await runner('gate');
    pull = await forkPull(bob, 'gate', 'feature');
    const [run] = await waitRuns(db(), id, 1);
    expect(run).toMatchObject({ event: 'pull_request', is_fork_pull_request: 1, need_approval: 1, approved_by: 0, status: 'blocked' });
    runId = run!.id;
    expect(await statusOfJobs(runId)).toEqual([['build', 'blocked'], ['after', 'blocked']]);
    expect(await r.fetch()).toBeNull();
    const st = await statusesOf(db(), id, pull.sha);
    expect(st.at(-1)?.description).toBe('Blocked by required conditions');
    const json = await ok(await call(alice, 'GET', `repos/alice/gate/actions/runs/${runId}`));
    expect(json.status).toBe('waiting');
  });

  it('refuses the approval of a user who cannot write; the owner approves and a runner gets the first job', async () => {
    expect((await call(bob, 'POST', `repos/alice/gate/actions/runs/${runId}/approve`)).status).toBe(403);
    expect((await call(null, 'POST', `repos/alice/gate/actions/runs/${runId}/approve`)).status).toBe(401);
    expect((await db().selectFrom('action_run').select('need_approval').where('id', '=', runId).executeTakeFirstOrThrow()).need_approval).toBe(1);
    const json = await ok(await call(alice, 'POST', `repos/alice/gate/actions/runs/${runId}/approve`));
    expect(json).toMatchObject({ id: runId, status: 'queued', event: 'pull_request', head_sha: pull.sha });
    const run = await db().selectFrom('action_run').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ need_approval: 0, approved_by: alice.id, status: 'waiting' });
    expect(await approvals()).toEqual([{ operator_name: 'alice', target_id: runId, repo_name: 'alice/gate', message: expect.stringContaining('alice approved Actions run #') }]);
    expect(await statusOfJobs(runId)).toEqual([['build', 'waiting'], ['after', 'blocked']]);
    // The commit status follows the job, as after any job change.
    expect((await statusesOf(db(), id, pull.sha)).at(-1)?.description).toBe('Waiting to run');
    const build = (await jobsOf(db(), runId))[0]!;
    expect(await r.fetch()).toBe(build.id);
  });

  it('a second approval answers 200 and changes nothing: approver kept, the running job left running', async () => {
    const admin = { username: s.admin.username, password: s.admin.password, id: 1 };
    const json = await ok(await call(admin, 'POST', `repos/alice/gate/actions/runs/${runId}/approve`));
    expect(json).toMatchObject({ id: runId, status: 'in_progress' });
    const run = await db().selectFrom('action_run').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run).toMatchObject({ need_approval: 0, approved_by: alice.id, status: 'running' });
    expect(await approvals()).toHaveLength(1);
    expect(await statusOfJobs(runId)).toEqual([['build', 'running'], ['after', 'blocked']]);
  });

  it('approving an unknown run, or another repository\'s run, is a 404', async () => {
    expect((await call(alice, 'POST', `repos/alice/gate/actions/runs/${runId}/approve`)).status).toBe(200);
    expect((await call(alice, 'POST', 'repos/alice/gate/actions/runs/999999/approve')).status).toBe(404);
    expect((await call(alice, 'POST', 'repos/alice/gate/actions/runs/abc/approve')).status).toBe(404);
    await baseRepo('other', { 'README.md': 'x' });
    expect((await call(alice, 'POST', `repos/alice/other/actions/runs/${runId}/approve`)).status).toBe(404);
  });

  it('a later run of the same user in that repository needs no approval', async () => {
    await pull.push(2);
    const runs = await waitRuns(db(), id, 2);
    expect(runs[1]).toMatchObject({ event: 'pull_request', is_fork_pull_request: 1, need_approval: 0, approved_by: 0 });
    expect(await statusOfJobs(runs[1]!.id)).toEqual([['build', 'waiting'], ['after', 'blocked']]);
  });
});

describe('who needs no approval, who always does', () => {
  it('a collaborator with write on the base repository needs none', async () => {
    const carol = await createUser(s, 'carol');
    const id = await baseRepo('collab', { '.gitea/workflows/ci.yml': workflow('collab') });
    await ok(await call(alice, 'PUT', 'repos/alice/collab/collaborators/carol', { permission: 'write' }), 204);
    await forkPull(carol, 'collab', 'feature');
    const [run] = await waitRuns(db(), id, 1);
    expect(run).toMatchObject({ is_fork_pull_request: 1, need_approval: 0 });
    expect(await statusOfJobs(run!.id)).toEqual([['build', 'waiting'], ['after', 'blocked']]);
  });

  it('pull_request_target (the base\'s workflow at the base\'s commit) needs none; pull_request of the same pull does', async () => {
    const erin = await createUser(s, 'erin');
    const on = 'pull_request:\n  pull_request_target:';
    const id = await baseRepo('target', { '.gitea/workflows/ci.yml': workflow('target', on) });
    await forkPull(erin, 'target', 'feature');
    const runs = await waitRuns(db(), id, 2);
    const byEvent = Object.fromEntries(runs.map((r) => [r.event, r]));
    expect(byEvent.pull_request_target).toMatchObject({ is_fork_pull_request: 1, need_approval: 0 });
    expect(await statusOfJobs(byEvent.pull_request_target!.id)).toEqual([['build', 'waiting'], ['after', 'blocked']]);
    expect(byEvent.pull_request).toMatchObject({ is_fork_pull_request: 1, need_approval: 1 });
    expect(await statusOfJobs(byEvent.pull_request!.id)).toEqual([['build', 'blocked'], ['after', 'blocked']]);
  });

  it('a restricted user needs approval even after an approved run; cancelling such a run cancels its jobs', async () => {
    const dave = await createUser(s, 'dave', { restricted: true });
    const id = await baseRepo('strict', { '.gitea/workflows/ci.yml': workflow('strict') });
    // A restricted user sees only what he is given.
    await ok(await call(alice, 'PUT', 'repos/alice/strict/collaborators/dave', { permission: 'read' }), 204);
    const pull = await forkPull(dave, 'strict', 'feature');
    const [first] = await waitRuns(db(), id, 1);
    expect(first).toMatchObject({ need_approval: 1 });
    await ok(await call(alice, 'POST', `repos/alice/strict/actions/runs/${first!.id}/approve`));
    await pull.push(2);
    const [, second] = await waitRuns(db(), id, 2);
    expect(second).toMatchObject({ need_approval: 1, approved_by: 0, status: 'blocked' });
    expect(await statusOfJobs(second!.id)).toEqual([['build', 'blocked'], ['after', 'blocked']]);
    await ok(await call(alice, 'POST', `repos/alice/strict/actions/runs/${second!.id}/cancel`), 204);
    expect(await statusOfJobs(second!.id)).toEqual([['build', 'cancelled'], ['after', 'cancelled']]);
    const json = await ok(await call(alice, 'GET', `repos/alice/strict/actions/runs/${second!.id}`));
    expect(json).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
  });
});

describe('needsApproval (the rule alone)', () => {
  it('holds only fork pull request runs, of users who cannot write and were never approved', async () => {
    const id = await baseRepo('rule', { 'README.md': 'x' });
    const repo = (await getRepoById(db(), id))!;
    const owner = (await getUserById(db(), alice.id))!;
    const stranger = (await getUserById(db(), bob.id))!;
    const site = (await getUserById(db(), 1))!;
    const ask = (doer: typeof owner, isForkPull: boolean, triggerEvent = 'pull_request') =>
      needsApproval(db(), { repo, owner, doer, isForkPull, triggerEvent });
    expect(await ask(stranger, true)).toBe(true);
    expect(await ask(stranger, false)).toBe(false);
    expect(await ask(stranger, true, 'pull_request_target')).toBe(false);
    expect(await ask(owner, true)).toBe(false);
    expect(await ask(site, true)).toBe(false);
    expect(await ask({ ...stranger, is_restricted: 1 }, true, 'pull_request_target')).toBe(false);
  });
});
