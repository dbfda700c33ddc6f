import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Result } from '../../src/lib/actions-proto/runner/v1/messages_pb';
import { putSecret } from '../../src/services/actions/secrets';
import { createVariable } from '../../src/services/actions/variables';
import { createRepo } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { queueRun, registrationToken, runnerClient, runnerHeaders, type RunnerClient } from './protocol-helpers';

// What a task carries (secrets, variables, needs) and which runners may take which jobs
// (instance, owner and repository runners; disabled and ephemeral runners).

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let proj: { id: number; owner_id: number };
let other: { id: number; owner_id: number };
let bobs: { id: number; owner_id: number };
let runner: RunnerClient;

async function headOf(owner: Creds, name: string): Promise<string> {
  const res = await s.request(`api/v1/repos/${owner.username}/${name}/branches/main`, { auth: { basic: [owner.username, owner.password] } });
  return ((await res.json()) as { commit: { id: string } }).commit.id;
}

async function register(scope: { ownerId: number; repoId: number }, labels: string[], ephemeral = false) {
  const token = await registrationToken(s, scope);
  const r = (await runner.register({ name: 'r', token, labels, ephemeral })).runner!;
  return { uuid: r.uuid, token: r.token, id: Number(r.id) };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  const mk = async (u: Creds, name: string) => ({ id: Number((await createRepo(s, u, name, { auto_init: true })).id), owner_id: u.id });
  proj = await mk(alice, 'proj');
  other = await mk(alice, 'other');
  bobs = await mk(bob, 'bobs');
  runner = runnerClient(s, true).runner;
});
afterAll(async () => { await s.stop(); });

describe('task payload', () => {
  it('carries secrets (repository over owner), variables (repository over owner) and the job token', async () => {
    const { db, secret } = { db: s.hearth.db, secret: s.hearth.secret };
    await putSecret(db, secret, { ownerId: alice.id, repoId: 0 }, 'SHARED', { data: 'from-owner' });
    await putSecret(db, secret, { ownerId: alice.id, repoId: 0 }, 'OWNER_ONLY', { data: 'o' });
    await putSecret(db, secret, { ownerId: 0, repoId: proj.id }, 'SHARED', { data: 'from-repo' });
    await createVariable(db, { ownerId: alice.id, repoId: 0 }, 'COLOR', { value: 'red' });
    await createVariable(db, { ownerId: 0, repoId: proj.id }, 'COLOR', { value: 'blue' });
    await createVariable(db, { ownerId: alice.id, repoId: 0 }, 'SIZE', { value: 'L' });
    const r = await register({ ownerId: 0, repoId: 0 }, ['pay']);
    await queueRun(s, proj, await headOf(alice, 'proj'), [{ id: 'build', label: 'pay' }]);
    const task = (await runner.fetchTask({}, runnerHeaders(r))).task!;
    expect(task.secrets).toMatchObject({ SHARED: 'from-repo', OWNER_ONLY: 'o' });
    expect(task.secrets.GITEA_TOKEN).toMatch(/^[0-9a-f]{40}$/);
    expect(task.vars).toEqual({ COLOR: 'blue', SIZE: 'L' });
    expect(task.context).toMatchObject({ repository: 'alice/proj', job: 'build', gitea_default_actions_url: 'https://github.com' });
    await runner.updateTask({ state: { id: task.id, result: Result.SUCCESS } }, runnerHeaders(r));
  });

  it('gives a job the outputs and results of the jobs it needs', async () => {
    const r = await register({ ownerId: 0, repoId: 0 }, ['needs']);
    const { jobIds } = await queueRun(s, proj, await headOf(alice, 'proj'), [
      { id: 'first', label: 'needs' }, { id: 'second', label: 'needs', needs: ['first'] },
    ]);
    const first = (await runner.fetchTask({}, runnerHeaders(r))).task!;
    expect(first.context).toMatchObject({ job: 'first' });
    expect((await runner.fetchTask({}, runnerHeaders(r))).task).toBeUndefined();
    await runner.updateTask({ state: { id: first.id, result: Result.SUCCESS }, outputs: { version: '1.2.3' } }, runnerHeaders(r));
    const job = await s.hearth.db.selectFrom('action_run_job').select('status').where('id', '=', jobIds[1]!).executeTakeFirstOrThrow();
    expect(job.status).toBe('waiting');
    const second = (await runner.fetchTask({}, runnerHeaders(r))).task!;
    expect(second.context).toMatchObject({ job: 'second' });
    expect(second.needs.first?.outputs).toEqual({ version: '1.2.3' });
    expect(second.needs.first?.result).toBe(Result.SUCCESS);
    await runner.updateTask({ state: { id: second.id, result: Result.SUCCESS } }, runnerHeaders(r));
  });
});

describe('runner scopes', () => {
  it("an owner runner serves that owner's repositories, a repository runner only its repository", async () => {
    const ownerRunner = await register({ ownerId: alice.id, repoId: 0 }, ['scoped']);
    const repoRunner = await register({ ownerId: 0, repoId: other.id }, ['scoped']);
    await queueRun(s, bobs, await headOf(bob, 'bobs'), [{ id: 'bob-job', label: 'scoped' }]);
    expect((await runner.fetchTask({}, runnerHeaders(ownerRunner))).task).toBeUndefined();
    expect((await runner.fetchTask({}, runnerHeaders(repoRunner))).task).toBeUndefined();
    await queueRun(s, proj, await headOf(alice, 'proj'), [{ id: 'proj-job', label: 'scoped' }]);
    expect((await runner.fetchTask({}, runnerHeaders(repoRunner))).task).toBeUndefined();
    const t = (await runner.fetchTask({}, runnerHeaders(ownerRunner))).task!;
    expect(t.context).toMatchObject({ repository: 'alice/proj' });
    await runner.updateTask({ state: { id: t.id, result: Result.SUCCESS } }, runnerHeaders(ownerRunner));
    await queueRun(s, other, await headOf(alice, 'other'), [{ id: 'other-job', label: 'scoped' }]);
    const t2 = (await runner.fetchTask({}, runnerHeaders(repoRunner))).task!;
    expect(t2.context).toMatchObject({ repository: 'alice/other' });
    await runner.updateTask({ state: { id: t2.id, result: Result.SUCCESS } }, runnerHeaders(repoRunner));
    // Bob's job is still there for a runner that may serve it.
    const instance = await register({ ownerId: 0, repoId: 0 }, ['scoped']);
    const t3 = (await runner.fetchTask({}, runnerHeaders(instance))).task!;
    expect(t3.context).toMatchObject({ repository: 'bob/bobs' });
    await runner.updateTask({ state: { id: t3.id, result: Result.SUCCESS } }, runnerHeaders(instance));
  });

  it('a disabled runner gets nothing; an ephemeral runner one task, then it is gone', async () => {
    const disabled = await register({ ownerId: 0, repoId: 0 }, ['dis']);
    await s.hearth.db.updateTable('action_runner').set({ disabled: 1 }).where('uuid', '=', disabled.uuid).execute();
    await queueRun(s, proj, await headOf(alice, 'proj'), [{ id: 'a', label: 'dis' }, { id: 'b', label: 'dis' }]);
    expect((await runner.fetchTask({}, runnerHeaders(disabled))).task).toBeUndefined();
    const eph = await register({ ownerId: 0, repoId: 0 }, ['dis'], true);
    const t = (await runner.fetchTask({}, runnerHeaders(eph))).task!;
    expect(t).toBeDefined();
    expect((await runner.fetchTask({}, runnerHeaders(eph))).task).toBeUndefined();
    await runner.updateTask({ state: { id: t.id, result: Result.SUCCESS } }, runnerHeaders(eph));
    await expect(runner.fetchTask({}, runnerHeaders(eph))).rejects.toThrow(/unregistered runner/);
  });
});
