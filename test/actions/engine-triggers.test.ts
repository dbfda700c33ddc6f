import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRON_TASKS } from '../../src/services/cron/tasks/index';
import { jobResultReported, type ActionsDeps } from '../../src/services/actions/runs';
import { startScheduleTasks } from '../../src/services/actions/schedules';
import { createLogger } from '../../src/lib/logger';
import { git } from '../helpers/git';
import { as, createUser, type TestServer, startTestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { finishJob, jobsOf, newRepo as newActionsRepo, runsOf, triggersDone, waitRuns, type User } from './engine-helpers';
import { withDb } from '../../src/hearth';

describe('Actions triggers, webhooks, schedules and cron tasks', () => {
  let s: TestServer;
  let deps: ActionsDeps;
  let alice: User;

  beforeAll(async () => {
    s = await startTestServer({ HEARTH__WEBHOOK__ALLOWED_HOST_LIST: '*', HEARTH__ACTIONS__ABANDONED_JOB_TIMEOUT: '1h' });
    deps = s.hearth;
    alice = await createUser(s, 'alice');
  });
  afterAll(async () => { await s.stop(); });

  const db = () => s.hearth.db;
  const newRepo = (name: string, files: Record<string, string>) => newActionsRepo(s, alice, name, files);
  const cron = (name: keyof typeof CRON_TASKS) => {
    const task = CRON_TASKS[name];
    const ctx = { db: db(), config: s.hearth.config, log: createLogger('silent'), signal: new AbortController().signal };
    return (task.run as (c: typeof ctx, st: unknown) => Promise<string>)(ctx, task.defaults);
  };

  it('pull requests run pull_request at the head and pull_request_target at the base', async () => {
    const wf = 'on:\n  pull_request:\n  pull_request_target:\n    types: [opened]\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n';
    const { id, local } = await newRepo('prs', { '.gitea/workflows/pr.yml': wf });
    const head = await local.push({ 'feature.txt': 'x' }, 'a feature', 'feature');
    await triggersDone(db());
    expect(await runsOf(db(), id)).toEqual([]);
    const res = await s.request(`api/v1/repos/${alice.username}/prs/pulls`, {
      method: 'POST', auth: as(alice), json: { head: 'feature', base: 'main', title: 'Add a feature' },
    });
    expect(res.status).toBe(201);
    const runs = await waitRuns(db(), id, 2);
    const base = (await git(local.dir, 'rev-parse', 'HEAD~1')).trim();
    expect(runs.map((r) => [r.event, r.ref, r.commit_sha])).toEqual([
      ['pull_request', 'refs/pull/1/head', head], ['pull_request_target', 'refs/heads/main', base],
    ]);
    expect(JSON.parse(runs[0]!.event_payload)).toMatchObject({ action: 'opened', pull_request: { title: 'Add a feature' } });
    // A new push to the head: synchronize runs pull_request only (pull_request_target wants opened).
    await local.push({ 'feature.txt': 'y' }, 'more', 'feature');
    await waitRuns(db(), id, 3);
    await triggersDone(db());
    expect((await runsOf(db(), id)).map((r) => r.event)).toEqual(['pull_request', 'pull_request_target', 'pull_request']);
  });

  it('create and delete of refs, and releases, start their workflows', async () => {
    const wf = 'on:\n  create:\n  delete:\n  release:\n    types: [published]\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n';
    const { id, local } = await newRepo('refs', { '.gitea/workflows/refs.yml': wf });
    // The first push created main: that is a create already.
    expect((await waitRuns(db(), id, 1))[0]).toMatchObject({ event: 'create', ref: 'refs/heads/main' });
    const sha = await local.push({ 'b.txt': '1' }, 'on a branch', 'topic');
    const [, created] = await waitRuns(db(), id, 2);
    expect(created).toMatchObject({ event: 'create', ref: 'refs/heads/topic', commit_sha: sha });
    expect(JSON.parse(created!.event_payload)).toMatchObject({ ref: 'topic', ref_type: 'branch', sha });
    const res = await s.request(`api/v1/repos/${alice.username}/refs/branches/topic`, { method: 'DELETE', auth: as(alice) });
    expect(res.status).toBe(204);
    const runs = await waitRuns(db(), id, 3);
    expect(runs[2]).toMatchObject({ event: 'delete', ref: 'refs/heads/main' });
    expect(JSON.parse(runs[2]!.event_payload)).toMatchObject({ ref: 'topic', ref_type: 'branch' });
    const rel = await s.request(`api/v1/repos/${alice.username}/refs/releases`, { method: 'POST', auth: as(alice), json: { tag_name: 'v1.0', name: 'One' } });
    expect(rel.status).toBe(201);
    const all = await waitRuns(db(), id, 5);
    await triggersDone(db());
    // The new tag is a create, then the release is published.
    expect(all.slice(3).map((r) => [r.event, r.ref]).sort()).toEqual([['create', 'refs/tags/v1.0'], ['release', 'refs/tags/v1.0']]);
    expect(JSON.parse(all.find((r) => r.event === 'release')!.event_payload)).toMatchObject({ action: 'published', release: { tag_name: 'v1.0' } });
  });

  it('runs and jobs send workflow_run and workflow_job webhooks', async () => {
    const { id, local } = await newRepo('hooks', { 'README.md': 'x' });
    const hook = await s.request(`api/v1/repos/${alice.username}/hooks/hooks`, {
      method: 'POST', auth: as(alice),
      json: { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['workflow_run', 'workflow_job'], active: true },
    });
    expect(hook.status).toBe(201);
    await local.push({ '.gitea/workflows/w.yml': 'on: push\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n' });
    const [run] = await waitRuns(db(), id, 1);
    await triggersDone(db());
    const [job] = await jobsOf(db(), run!.id);
    await finishJob(db(), job!.id, 'success');
    await jobResultReported(withDb(deps, db()), job!.id);
    const tasks = async () => db().selectFrom('hook_task').select(['event_type', 'payload_content']).orderBy('id').execute();
    await eventually(async () => (await tasks()).length >= 4, 5000, 'deliveries');
    const got = (await tasks()).map((t) => {
      const p = JSON.parse(t.payload_content);
      return [t.event_type, p.action, (p.workflow_run ?? p.workflow_job).status, (p.workflow_run ?? p.workflow_job).conclusion];
    });
    expect(got).toEqual([
      ['workflow_run', 'requested', 'queued', ''], ['workflow_job', 'queued', 'queued', ''],
      ['workflow_job', 'completed', 'completed', 'success'], ['workflow_run', 'completed', 'completed', 'success'],
    ]);
    const runPayload = JSON.parse((await tasks())[0]!.payload_content);
    expect(runPayload.workflow_run).toMatchObject({ id: run!.id, run_number: 1, head_sha: run!.commit_sha, event: 'push', display_title: 'change' });
    expect(runPayload.repository.full_name).toBe('alice/hooks');
    expect(runPayload.workflow).toMatchObject({ id: 'w.yml', name: 'w.yml', path: '.gitea/workflows/w.yml', state: 'active' });
    const jobPayload = JSON.parse((await tasks())[2]!.payload_content);
    expect(jobPayload.workflow_job).toMatchObject({ id: job!.id, run_id: run!.id, name: 'a', labels: ['x'], head_sha: run!.commit_sha });
  });

  it('schedules are recorded from the default branch and started when due', async () => {
    const wf = "on:\n  schedule:\n    - cron: '0 3 * * *'\n    - cron: '*/5 * * * *'\njobs:\n  nightly: {runs-on: x, steps: [{run: a}]}\n";
    const { id, local } = await newRepo('nightly', { '.gitea/workflows/nightly.yml': wf });
    await triggersDone(db());
    const schedules = await db().selectFrom('action_schedule').selectAll().where('repo_id', '=', id).execute();
    expect(schedules.map((x) => [x.workflow_id, x.ref, x.event])).toEqual([['nightly.yml', 'refs/heads/main', 'schedule']]);
    const specs = await db().selectFrom('action_schedule_spec').selectAll().where('repo_id', '=', id).orderBy('id').execute();
    expect(specs.map((x) => x.spec)).toEqual(['0 3 * * *', '*/5 * * * *']);
    expect(specs.every((x) => x.next_unix > Date.now() / 1000)).toBe(true);
    expect(await runsOf(db(), id)).toEqual([]);

    await db().updateTable('action_schedule_spec').set({ next_unix: 1 }).where('id', '=', specs[1]!.id).execute();
    expect(await startScheduleTasks(withDb(deps, db()))).toBe('1 scheduled run(s) started');
    const [run] = await runsOf(db(), id);
    expect(run).toMatchObject({ event: 'schedule', workflow_id: 'nightly.yml', schedule_id: schedules[0]!.id, status: 'waiting' });
    const moved = await db().selectFrom('action_schedule_spec').selectAll().where('id', '=', specs[1]!.id).executeTakeFirstOrThrow();
    expect(moved.next_unix).toBeGreaterThan(Date.now() / 1000);
    expect(await startScheduleTasks(withDb(deps, db()))).toBe('0 scheduled run(s) started');

    // The schedule goes when the workflow leaves the default branch.
    await local.push({ '.gitea/workflows/nightly.yml': null }, 'no more nightly');
    await triggersDone(db());
    expect(await db().selectFrom('action_schedule').selectAll().where('repo_id', '=', id).execute()).toEqual([]);
  });

  it('cancel_abandoned_jobs, stop_zombie_tasks and cleanup_actions', async () => {
    const { id } = await newRepo('stale', { '.gitea/workflows/w.yml': 'on: push\njobs:\n  a: {runs-on: nobody, steps: [{run: a}]}\n' });
    const [run] = await waitRuns(db(), id, 1);
    await triggersDone(db());
    expect(await cron('cancel_abandoned_jobs')).toMatch(/^0 abandoned/);
    await db().updateTable('action_run_job').set({ updated_unix: 1000 }).where('run_id', '=', run!.id).execute();
    expect(await cron('cancel_abandoned_jobs')).toBe('1 abandoned job(s) cancelled');
    expect((await runsOf(db(), id))[0]!.status).toBe('cancelled');
    expect(await cron('stop_zombie_tasks')).toBe('0 zombie task(s) stopped');
    expect(await cron('stop_endless_tasks')).toBe('0 endless task(s) stopped');
    expect(await cron('cleanup_actions')).toMatch(/^logs of \d+ task\(s\), \d+ artifact\(s\) and \d+ abandoned upload\(s\) removed$/);
    expect(await cron('start_schedule_tasks')).toMatch(/scheduled run\(s\) started/);
  });
});
