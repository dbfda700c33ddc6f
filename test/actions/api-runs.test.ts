import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import { eventually } from '../helpers/wait';

// Workflows, runs, jobs, tasks, logs and artifacts through the REST API (issue 15). Runs come
// from workflow_dispatch; what a runner would leave (a task, its steps and log rows, an
// artifact) is written as rows, the API reading them as Gitea does.

type Creds = { username: string; password: string; id: number };
let s: TestServer;
let alice: Creds;
let bob: Creds;
let admin: Creds;

const call = (who: Creds | null, method: string, p: string, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), redirect: 'manual', ...(body === undefined ? {} : { json: body }) });
const now = () => Math.floor(Date.now() / 1000);
const b64 = (t: string) => Buffer.from(t).toString('base64');

const CI = `name: Build it
on:
  workflow_dispatch:
    inputs:
      greeting:
        type: string
        default: hello
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ inputs.greeting }}
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

async function addFile(owner: string, repo: string, file: string, content: string): Promise<void> {
  await ok(await call(alice, 'POST', `repos/${owner}/${repo}/contents/${file}`, { content: b64(content), message: `add ${file}` }), 201);
}

async function dispatch(owner: string, repo: string, inputs: Record<string, string> = {}): Promise<number> {
  await ok(await call(alice, 'POST', `repos/${owner}/${repo}/actions/workflows/ci.yml/dispatches`, { ref: 'main', inputs }), 204);
  const runs = await ok(await call(alice, 'GET', `repos/${owner}/${repo}/actions/runs`));
  return runs.workflow_runs[0].id as number;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  admin = { username: s.admin.username, password: s.admin.password, id: 1 };
  await createRepo(s, alice, 'proj', { auto_init: true, default_branch: 'main' });
  await addFile('alice', 'proj', '.gitea/workflows/ci.yml', CI);
  await addFile('alice', 'proj', '.gitea/workflows/lint.yaml', 'on: issues\njobs:\n  l:\n    runs-on: x\n    steps:\n      - run: "true"\n');
  await addFile('alice', 'proj', '.github/workflows/ignored.yml', CI);
  await createOrg(s, alice, 'acme');
  await ok(await call(alice, 'POST', 'orgs/acme/repos', { name: 'svc', auto_init: true, default_branch: 'main' }), 201);
  await addFile('acme', 'svc', '.github/workflows/ci.yml', CI);
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('workflows', () => {
  it('lists .gitea/workflows (which hides .github/workflows) at the default branch', async () => {
    const body = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/workflows'));
    expectShape(body, 'ActionWorkflowResponse');
    expect(body.total_count).toBe(2);
    const ci = body.workflows.find((w: { id: string }) => w.id === 'ci.yml');
    expect(ci).toMatchObject({ name: 'Build it', path: '.gitea/workflows/ci.yml', state: 'active' });
    expect(ci.url).toMatch(/\/api\/v1\/repos\/alice\/proj\/actions\/workflows\/ci\.yml$/);
    expect(ci.html_url).toMatch(/\/alice\/proj\/src\/branch\/main\/\.gitea\/workflows\/ci\.yml$/);
    expect(body.workflows.find((w: { id: string }) => w.id === 'lint.yaml').name).toBe('lint.yaml');
    const svc = await ok(await call(alice, 'GET', 'repos/acme/svc/actions/workflows'));
    expect(svc.workflows.map((w: { path: string }) => w.path)).toEqual(['.github/workflows/ci.yml']);
  });

  it('get one; 404 for an unknown one', async () => {
    const w = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/workflows/ci.yml'));
    expectShape(w, 'ActionWorkflow');
    expect(w.id).toBe('ci.yml');
    await ok(await call(alice, 'GET', 'repos/alice/proj/actions/workflows/nope.yml'), 404);
  });

  it('disable and enable (204); a disabled workflow refuses dispatches (403)', async () => {
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/workflows/ci.yml/disable'), 204);
    expect((await ok(await call(alice, 'GET', 'repos/alice/proj/actions/workflows/ci.yml'))).state).toBe('disabled_manually');
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/workflows/ci.yml/dispatches', { ref: 'main' }), 403);
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/workflows/ci.yml/enable'), 204);
    expect((await ok(await call(alice, 'GET', 'repos/alice/proj/actions/workflows/ci.yml'))).state).toBe('active');
    await ok(await call(alice, 'PUT', 'repos/alice/proj/actions/workflows/nope.yml/disable'), 404);
  });

  it('enable, disable and dispatch need write on the actions unit', async () => {
    await ok(await call(bob, 'PUT', 'repos/alice/proj/actions/workflows/ci.yml/disable'), 403);
    await ok(await call(bob, 'POST', 'repos/alice/proj/actions/workflows/ci.yml/dispatches', { ref: 'main' }), 403);
    await ok(await call(null, 'GET', 'repos/alice/proj/actions/workflows'), 401);
  });

  it('dispatch: ref required (422), unknown workflow 404, undeclared trigger 422', async () => {
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/workflows/ci.yml/dispatches', {}), 422);
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/workflows/nope.yml/dispatches', { ref: 'main' }), 404);
    await ok(await call(alice, 'POST', 'repos/alice/proj/actions/workflows/lint.yaml/dispatches', { ref: 'main' }), 422);
  });
});

describe('runs and jobs', () => {
  let runId: number;

  beforeAll(async () => {
    runId = await dispatch('alice', 'proj', { greeting: 'hi' });
  });

  it('a dispatched run is listed with its fields; filters narrow it', async () => {
    const body = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runs'));
    expectShape(body, 'ActionWorkflowRunsResponse');
    expect(body.total_count).toBe(1);
    const run = body.workflow_runs[0];
    expect(run).toMatchObject({
      id: runId, run_number: 1, event: 'workflow_dispatch', head_branch: 'main', path: 'ci.yml@refs/heads/main',
      status: 'queued', conclusion: '', repository_id: expect.any(Number),
    });
    expect(run.actor.login).toBe('alice');
    expect(run.url).toMatch(new RegExp(`/api/v1/repos/alice/proj/actions/runs/${runId}$`));
    const count = async (q: string) => (await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs?${q}`))).total_count;
    expect(await count('event=workflow_dispatch')).toBe(1);
    expect(await count('event=push')).toBe(0);
    expect(await count('branch=main')).toBe(1);
    expect(await count('branch=dev')).toBe(0);
    expect(await count('actor=alice')).toBe(1);
    expect(await count('actor=bob')).toBe(0);
    expect(await count('actor=nobody-at-all')).toBe(0);
    expect(await count(`head_sha=${run.head_sha}`)).toBe(1);
    expect(await count('status=completed')).toBe(0);
    await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runs?status=bogus'), 400);
  });

  it('get a run; another repository\'s run or a bad id is 404', async () => {
    const run = await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}`));
    expectShape(run, 'ActionWorkflowRun');
    expect(run.id).toBe(runId);
    await ok(await call(alice, 'GET', `repos/acme/svc/actions/runs/${runId}`), 404);
    await ok(await call(alice, 'GET', 'repos/alice/proj/actions/runs/abc'), 404);
    // As Gitea: a public repository's run reads without a token, its listing needs one.
    expect((await ok(await call(null, 'GET', `repos/alice/proj/actions/runs/${runId}`))).id).toBe(runId);
    await ok(await call(null, 'GET', 'repos/alice/proj/actions/runs'), 401);
  });

  it('a run\'s jobs, a job, the repository\'s jobs with status filters', async () => {
    const body = await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}/jobs`));
    expectShape(body, 'ActionWorkflowJobsResponse');
    expect(body.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'test']);
    const [build, test] = body.jobs;
    expect(build).toMatchObject({ run_id: runId, labels: ['ubuntu-latest'], head_branch: 'main', status: 'queued' });
    expect(test.status).toBe('waiting');
    expect(test.html_url).toMatch(/\/actions\/runs\/1\/jobs\/1$/);
    const one = await ok(await call(alice, 'GET', `repos/alice/proj/actions/jobs/${build.id}`));
    expectShape(one, 'ActionWorkflowJob');
    expect(one.id).toBe(build.id);
    const queued = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/jobs?status=queued'));
    expect(queued.jobs.map((j: { id: number }) => j.id)).toEqual([build.id]);
    const pending = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/jobs?status=pending'));
    expect(pending.jobs.map((j: { id: number }) => j.id)).toEqual([test.id]);
    await ok(await call(alice, 'GET', 'repos/alice/proj/actions/jobs?status=nonsense'), 400);
    await ok(await call(alice, 'GET', 'repos/acme/svc/actions/jobs/' + build.id), 404);
  });

  it('job logs: 404 before a task, then the task\'s log rows as plain text; tasks list', async () => {
    const { jobs } = await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}/jobs`));
    const job = jobs[0];
    await ok(await call(alice, 'GET', `repos/alice/proj/actions/jobs/${job.id}/logs`), 404);
    const db = s.hearth.db;
    const runner = await db.insertInto('action_runner').values({
      uuid: 'u-logs', name: 'logger', labels: '["ubuntu-latest"]', created_unix: now(), updated_unix: now(), deleted_unix: null,
    }).returning('id').executeTakeFirstOrThrow();
    const repoRow = await db.selectFrom('repository').select(['id', 'owner_id']).where('lower_name', '=', 'proj').executeTakeFirstOrThrow();
    const task = await db.insertInto('action_task').values({
      job_id: job.id, attempt: 1, runner_id: runner.id, status: 'running', repo_id: repoRow.id, owner_id: repoRow.owner_id,
      commit_sha: job.head_sha, token_hash: null, started_unix: now(), stopped_unix: null, created_unix: now(), updated_unix: now(),
    }).returning('id').executeTakeFirstOrThrow();
    await db.updateTable('action_run_job').set({ task_id: task.id, status: 'running', started_unix: now() }).where('id', '=', job.id).execute();
    await db.insertInto('action_task_step').values([
      { task_id: task.id, idx: 0, name: 'Set up job', status: 'success', started_unix: now(), stopped_unix: now() },
      { task_id: task.id, idx: 1, name: 'echo hi', status: 'running', started_unix: now(), stopped_unix: null },
    ]).execute();
    const t0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    await db.insertInto('action_task_log').values([
      { task_id: task.id, idx: 0, time_ms: t0, content: 'first line' },
      { task_id: task.id, idx: 1, time_ms: t0 + 1000, content: 'hi' },
    ]).execute();
    const res = await call(alice, 'GET', `repos/alice/proj/actions/jobs/${job.id}/logs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('2026-01-02T03:04:05.6780000Z first line\n2026-01-02T03:04:06.6780000Z hi\n');
    const shown = await ok(await call(alice, 'GET', `repos/alice/proj/actions/jobs/${job.id}`));
    expect(shown).toMatchObject({ status: 'in_progress', runner_id: runner.id, runner_name: 'logger' });
    expect(shown.steps.map((x: { name: string; status: string }) => [x.name, x.status])).toEqual([['Set up job', 'completed'], ['echo hi', 'in_progress']]);
    const tasks = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/tasks'));
    expectShape(tasks, 'ActionTaskResponse');
    expect(tasks.total_count).toBe(1);
    expect(tasks.workflow_runs[0]).toMatchObject({ id: task.id, name: 'build', status: 'running', workflow_id: 'ci.yml', run_number: 1, head_branch: 'main' });
    await db.updateTable('action_task').set({ log_expired: 1 }).where('id', '=', task.id).execute();
    await ok(await call(alice, 'GET', `repos/alice/proj/actions/jobs/${job.id}/logs`), 404);
  });

  it('delete refuses a run still going (400); cancel (extension) stops it, then delete (204)', async () => {
    await ok(await call(alice, 'DELETE', `repos/alice/proj/actions/runs/${runId}`), 400);
    await ok(await call(bob, 'POST', `repos/alice/proj/actions/runs/${runId}/cancel`), 403);
    await ok(await call(alice, 'POST', `repos/alice/proj/actions/runs/${runId}/cancel`), 204);
    await eventually(async () => (await json(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}`))).conclusion === 'cancelled');
    await ok(await call(alice, 'DELETE', `repos/alice/proj/actions/runs/${runId}`), 204);
    await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}`), 404);
    expect(await s.hearth.db.selectFrom('action_run_job').selectAll().where('run_id', '=', runId).execute()).toEqual([]);
  });
});

describe('organization, user and admin listings', () => {
  it('runs and jobs of an organization, of the user\'s repositories, of the instance', async () => {
    const orgRun = await dispatch('acme', 'svc');
    const userRun = await dispatch('alice', 'proj');
    const ids = async (who: Creds, p: string) => (await ok(await call(who, 'GET', p))).workflow_runs.map((r: { id: number }) => r.id);
    expect(await ids(alice, 'orgs/acme/actions/runs')).toEqual([orgRun]);
    expect(await ids(alice, 'user/actions/runs')).toEqual([userRun]);
    expect(await ids(admin, 'admin/actions/runs')).toEqual([userRun, orgRun]);
    const orgJobs = await ok(await call(alice, 'GET', 'orgs/acme/actions/jobs'));
    expectShape(orgJobs, 'ActionWorkflowJobsResponse');
    expect(orgJobs.jobs.every((j: { run_id: number }) => j.run_id === orgRun)).toBe(true);
    expect((await ok(await call(admin, 'GET', 'admin/actions/jobs?status=queued'))).total_count).toBe(2);
    await ok(await call(bob, 'GET', 'orgs/acme/actions/runs'), 403);
    await ok(await call(bob, 'GET', 'admin/actions/jobs'), 403);
    expect((await ok(await call(bob, 'GET', 'user/actions/runs'))).total_count).toBe(0);
  });
});

describe('artifacts', () => {
  it('list, get, zip download through a signed address, delete', async () => {
    const runId = await dispatch('alice', 'proj');
    const db = s.hearth.db;
    const repoRow = await db.selectFrom('repository').select(['id', 'owner_id']).where('lower_name', '=', 'proj').executeTakeFirstOrThrow();
    // Stored as an upload would store it: in the data directory, or the bucket in the S3 pass.
    await s.hearth.blobs.put(`actions_artifacts/${runId}/dist.zip`, Readable.from([Buffer.from('PK-zip-bytes')]));
    const base = { run_id: runId, runner_id: 0, repo_id: repoRow.id, owner_id: repoRow.owner_id, commit_sha: 'abc', created_unix: now(), updated_unix: now() };
    const art = await db.insertInto('action_artifact').values({
      ...base, artifact_name: 'dist', artifact_path: 'dist.zip', storage_path: `${runId}/dist.zip`, file_size: 12,
      file_compressed_size: 12, content_encoding: 'application/zip', status: 'confirmed', expired_unix: now() + 86400,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('action_artifact').values({ ...base, artifact_name: 'partial', status: 'pending' }).execute();

    const list = await ok(await call(alice, 'GET', 'repos/alice/proj/actions/artifacts'));
    expectShape(list, 'ActionArtifactsResponse');
    expect(list.artifacts.map((a: { name: string }) => a.name)).toEqual(['dist']);
    expect(list.artifacts[0]).toMatchObject({ id: art.id, size_in_bytes: 12, expired: false, workflow_run: { id: runId } });
    expect((await ok(await call(alice, 'GET', `repos/alice/proj/actions/runs/${runId}/artifacts?name=dist`))).total_count).toBe(1);
    expect((await ok(await call(alice, 'GET', 'repos/alice/proj/actions/artifacts?name=other'))).total_count).toBe(0);
    const one = await ok(await call(alice, 'GET', `repos/alice/proj/actions/artifacts/${art.id}`));
    expectShape(one, 'ActionArtifact');

    const redirect = await call(alice, 'GET', `repos/alice/proj/actions/artifacts/${art.id}/zip`);
    expect(redirect.status).toBe(302);
    const signed = redirect.headers.get('location')!;
    expect(signed).toMatch(/\/zip\/raw\?sig=[^&]+&expires=\d+$/);
    const raw = await fetch(signed);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/zip');
    expect(await raw.text()).toBe('PK-zip-bytes');
    const forged = signed.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(forged)).status).toBe(404);
    const stale = signed.replace(/expires=\d+/, `expires=${now() + 7200}`);
    expect((await fetch(stale)).status).toBe(404);

    await ok(await call(bob, 'DELETE', `repos/alice/proj/actions/artifacts/${art.id}`), 403);
    await ok(await call(alice, 'DELETE', `repos/alice/proj/actions/artifacts/${art.id}`), 204);
    await ok(await call(alice, 'GET', `repos/alice/proj/actions/artifacts/${art.id}`), 404);
  });
});
