import { beforeAll, describe, expect, it } from 'vitest';
import { cancelRun, dispatchWorkflow, jobResultReported, jobStarted, type ActionsDeps } from '../../src/services/actions/runs';
import { getRepoById } from '../../src/models/repo';
import { getUserById } from '../../src/models/user';
import { as, ok, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { engineServer, finishJob, jobsOf, runsOf, statusesOf, triggersDone, waitRuns, type User } from './engine-helpers';
import { withDb } from '../../src/hearth';

const CI = `name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    strategy:
      matrix:
        os: [linux, mac]
    runs-on: \${{ matrix.os }}
    steps:
      - run: echo build
  test:
    needs: build
    runs-on: linux
    steps:
      - run: echo test
  notify:
    needs: test
    if: always()
    runs-on: linux
    steps:
      - run: echo done
`;

describe('the Actions engine', () => {
  const e = engineServer();
  const { db, newRepo } = e;
  let s: TestServer;
  let deps: ActionsDeps;
  let alice: User;
  beforeAll(() => { s = e.s(); deps = e.deps(); alice = e.alice(); });

  it('a pushed workflow gives a run, jobs waiting or blocked, and pending commit statuses', async () => {
    const { id } = await newRepo('ci', { '.gitea/workflows/ci.yml': CI, 'README.md': 'hi' });
    const [run] = await waitRuns(db(), id, 1);
    expect(run).toMatchObject({ workflow_id: 'ci.yml', event: 'push', ref: 'refs/heads/main', status: 'waiting', run_index: 1, title: 'initial', workflow_error: null });
    const jobs = await jobsOf(db(), run!.id);
    expect(jobs.map((j) => [j.name, j.job_id, j.status, JSON.parse(j.runs_on)])).toEqual([
      ['build (linux)', 'build', 'waiting', ['linux']], ['build (mac)', 'build', 'waiting', ['mac']],
      ['test', 'test', 'blocked', ['linux']], ['notify', 'notify', 'blocked', ['linux']],
    ]);
    expect(jobs[0]!.workflow_payload).toContain('name: build (linux)');
    await eventually(async () => (await statusesOf(db(), id, run!.commit_sha)).length === 4, 5000, 'statuses');
    expect(await statusesOf(db(), id, run!.commit_sha)).toEqual([
      { context: 'CI / build (linux) (push)', state: 'pending', description: 'Waiting to run' },
      { context: 'CI / build (mac) (push)', state: 'pending', description: 'Waiting to run' },
      { context: 'CI / test (push)', state: 'pending', description: 'Blocked by required conditions' },
      { context: 'CI / notify (push)', state: 'pending', description: 'Blocked by required conditions' },
    ]);

    // The runner reports: both builds pass, so test waits; test fails, notify still runs (always()).
    for (const j of jobs.slice(0, 2)) {
      await finishJob(db(), j.id, 'success');
      await jobResultReported(withDb(deps, db()), j.id);
    }
    let now = await jobsOf(db(), run!.id);
    expect(now.map((j) => j.status)).toEqual(['success', 'success', 'waiting', 'blocked']);
    expect((await runsOf(db(), id))[0]!.status).toBe('waiting');
    await finishJob(db(), now[2]!.id, 'failure');
    await jobResultReported(withDb(deps, db()), now[2]!.id);
    now = await jobsOf(db(), run!.id);
    expect(now.map((j) => j.status)).toEqual(['success', 'success', 'failure', 'waiting']);
    await finishJob(db(), now[3]!.id, 'success');
    await jobResultReported(withDb(deps, db()), now[3]!.id);
    const done = (await runsOf(db(), id))[0]!;
    expect(done.status).toBe('failure');
    expect(done.stopped_unix).not.toBeNull();
    const last = new Map((await statusesOf(db(), id, run!.commit_sha)).map((st) => [st.context, st]));
    expect(last.get('CI / build (linux) (push)')).toMatchObject({ state: 'success', description: expect.stringMatching(/^Successful in \d+s$/) });
    expect(last.get('CI / test (push)')).toMatchObject({ state: 'failure', description: expect.stringMatching(/^Failing after/) });
  });

  it('a failed need skips dependents without a status function; the rest of the run follows', async () => {
    const wf = 'on: push\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n  b: {runs-on: x, needs: a, steps: [{run: b}]}\n  c: {runs-on: x, needs: b, steps: [{run: c}]}\n';
    const { id } = await newRepo('skips', { '.gitea/workflows/w.yaml': wf });
    const [run] = await waitRuns(db(), id, 1);
    const jobs = await jobsOf(db(), run!.id);
    await finishJob(db(), jobs[0]!.id, 'failure');
    await jobResultReported(withDb(deps, db()), jobs[0]!.id);
    expect((await jobsOf(db(), run!.id)).map((j) => j.status)).toEqual(['failure', 'skipped', 'skipped']);
    expect((await runsOf(db(), id))[0]!.status).toBe('failure');
  });

  it('job-level if: is evaluated over github when the job has no needs', async () => {
    const wf = "on: push\njobs:\n  yes: {runs-on: x, if: \"github.ref == 'refs/heads/main'\", steps: [{run: a}]}\n  no: {runs-on: x, if: \"github.event_name == 'pull_request'\", steps: [{run: b}]}\n";
    const { id } = await newRepo('ifs', { '.github/workflows/w.yml': wf });
    const [run] = await waitRuns(db(), id, 1);
    expect((await jobsOf(db(), run!.id)).map((j) => [j.job_id, j.status])).toEqual([['yes', 'waiting'], ['no', 'skipped']]);
  });

  it('an invalid workflow file gives a failed run with the error, without failing the push', async () => {
    const { id, local } = await newRepo('broken', { 'README.md': 'x' });
    await local.push({ '.gitea/workflows/bad.yml': 'on: push\njobs:\n  a:\n    runs-on: x\n    needs: nope\n' });
    await local.push({ '.gitea/workflows/worse.yml': 'on: [push\njobs: {' });
    const runs = await waitRuns(db(), id, 3);
    const byFile = new Map(runs.map((r) => [r.workflow_id, r]));
    expect(byFile.get('bad.yml')).toMatchObject({ status: 'failure', workflow_error: 'job "a" needs job "nope", which does not exist' });
    expect(byFile.get('worse.yml')!.status).toBe('failure');
    expect(byFile.get('worse.yml')!.workflow_error).toMatch(/yaml/i);
    expect(await jobsOf(db(), byFile.get('bad.yml')!.id)).toEqual([]);
  });

  it('branch filters, disabled workflows and the actions unit decide what runs', async () => {
    const { id, local } = await newRepo('filters', { '.gitea/workflows/ci.yml': CI });
    await waitRuns(db(), id, 1);
    await local.push({ 'x.txt': '1' }, 'on a branch', 'feature');
    await db().insertInto('action_workflow_state').values({ repo_id: id, workflow_id: 'ci.yml', disabled: 1 }).execute();
    await local.push({ 'y.txt': '1' }, 'disabled');
    await triggersDone(db());
    await db().deleteFrom('action_workflow_state').where('repo_id', '=', id).execute();
    await s.request(`api/v1/repos/${alice.username}/filters`, { method: 'PATCH', auth: as(alice), json: { has_actions: false } });
    await local.push({ 'z.txt': '1' }, 'unit off');
    await s.request(`api/v1/repos/${alice.username}/filters`, { method: 'PATCH', auth: as(alice), json: { has_actions: true } });
    await local.push({ 'w.txt': '1' }, 'back on [skip ci]');
    await local.push({ 'v.txt': '1' }, 'back on');
    const runs = await waitRuns(db(), id, 2);
    await triggersDone(db());
    expect((await runsOf(db(), id)).map((r) => r.title)).toEqual(['initial', 'back on']);
    expect(runs[1]!.run_index).toBe(2);
  });

  it('cancel-in-progress cancels the earlier run of the group; cancelRun cancels the rest', async () => {
    const wf = 'on: push\nconcurrency:\n  group: g-${{ github.ref }}\n  cancel-in-progress: true\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n  b: {runs-on: x, needs: a, steps: [{run: b}]}\n';
    const { id, local } = await newRepo('conc', { '.gitea/workflows/w.yml': wf });
    const [first] = await waitRuns(db(), id, 1);
    expect(first!.concurrency_group).toBe('g-refs/heads/main');
    await local.push({ 'x': '1' }, 'second');
    const runs = await waitRuns(db(), id, 2);
    await eventually(async () => (await runsOf(db(), id))[0]!.status === 'cancelled', 5000, 'first cancelled');
    expect((await jobsOf(db(), first!.id)).map((j) => j.status)).toEqual(['cancelled', 'cancelled']);
    const latest = async () => new Map((await statusesOf(db(), id, first!.commit_sha)).map((st) => [st.context, st]));
    await eventually(async () => (await latest()).get('w.yml / b (push)')?.description === 'Has been cancelled', 5000, 'cancelled status');
    expect((await latest()).get('w.yml / a (push)')).toMatchObject({ state: 'failure', description: 'Has been cancelled' });
    await triggersDone(db());
    const second = (await runsOf(db(), id))[1]!;
    expect(second.run_index).toBe(runs[1]!.run_index);
    expect(second.status).toBe('waiting');
    const alicerow = await getUserById(db(), alice.id);
    await cancelRun(withDb(deps, db()), second.id, alicerow!);
    expect((await runsOf(db(), id))[1]!.status).toBe('cancelled');
    expect((await jobsOf(db(), second.id)).map((j) => j.status)).toEqual(['cancelled', 'cancelled']);
    await expect(cancelRun(withDb(deps, db()), 999999, null)).rejects.toThrow(/not found/);
  });

  it('without cancel-in-progress, a later run of the group waits for the running one and replaces a pending one', async () => {
    const wf = 'on: push\nconcurrency: deploy\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n';
    const { id, local } = await newRepo('queue', { '.gitea/workflows/w.yml': wf });
    const [first] = await waitRuns(db(), id, 1);
    // A runner takes the first run's job.
    const [job] = await jobsOf(db(), first!.id);
    await db().updateTable('action_run_job').set({ status: 'running', started_unix: Math.floor(Date.now() / 1000) }).where('id', '=', job!.id).execute();
    await jobStarted(withDb(deps, db()), job!.id);
    expect((await runsOf(db(), id))[0]!.status).toBe('running');
    await local.push({ 'x': '1' }, 'second');
    const [, second] = await waitRuns(db(), id, 2);
    expect(second!.status).toBe('blocked');
    expect((await jobsOf(db(), second!.id)).map((j) => j.status)).toEqual(['blocked']);
    // A third run replaces the second, still pending; the running first goes on.
    await local.push({ 'y': '1' }, 'third');
    const [, replaced, third] = await waitRuns(db(), id, 3);
    expect([replaced!.status, third!.status]).toEqual(['cancelled', 'blocked']);
    expect((await runsOf(db(), id))[0]!.status).toBe('running');
    await finishJob(db(), job!.id, 'success');
    await jobResultReported(withDb(deps, db()), job!.id);
    expect((await jobsOf(db(), third!.id)).map((j) => j.status)).toEqual(['waiting']);
    expect((await runsOf(db(), id)).map((r) => r.status)).toEqual(['success', 'cancelled', 'waiting']);
  });

  it('workflow_dispatch: inputs are checked and typed; errors are 404, 403 and 422', async () => {
    const wf = `on:
  workflow_dispatch:
    inputs:
      level: {type: choice, options: [info, debug], default: info}
      dry: {type: boolean}
      who: {required: true}
jobs:
  a:
    runs-on: x
    if: inputs.dry && inputs.level == 'debug'
    steps: [{run: 'echo \${{ inputs.who }}'}]
`;
    const { id } = await newRepo('dispatch', { '.gitea/workflows/manual.yml': wf });
    const repo = (await getRepoById(db(), id))!;
    const doer = (await getUserById(db(), alice.id))!;
    await dispatchWorkflow(withDb(deps, db()), repo, doer, 'manual.yml', 'main', { who: 'me', dry: 'true', level: 'debug' });
    const [run] = await waitRuns(db(), id, 1);
    expect(run).toMatchObject({ event: 'workflow_dispatch', ref: 'refs/heads/main', trigger_user_id: alice.id });
    // github.event.inputs keeps strings (as GitHub); the job's if: read them typed (inputs.dry is a boolean).
    expect(JSON.parse(run!.event_payload).inputs).toEqual({ level: 'debug', dry: 'true', who: 'me' });
    expect((await jobsOf(db(), run!.id))[0]!.status).toBe('waiting');
    await dispatchWorkflow(withDb(deps, db()), repo, doer, 'manual.yml', 'refs/heads/main', { who: 'me', dry: 'false', level: 'debug' });
    const [, second] = await waitRuns(db(), id, 2);
    expect((await jobsOf(db(), second!.id))[0]!.status).toBe('skipped');
    expect(second!.run_index).toBe(2);
    const fail = (inputs: Record<string, string>, wfId = 'manual.yml', ref = 'main') => dispatchWorkflow(withDb(deps, db()), repo, doer, wfId, ref, inputs);
    await expect(fail({})).rejects.toMatchObject({ status: 422, message: 'input "who" is required' });
    await expect(fail({ who: 'x', level: 'trace' })).rejects.toMatchObject({ status: 422 });
    await expect(fail({ who: 'x', dry: 'maybe' })).rejects.toMatchObject({ status: 422 });
    await expect(fail({ who: 'x' }, 'nope.yml')).rejects.toMatchObject({ status: 404 });
    await expect(fail({ who: 'x' }, 'manual.yml', 'nobranch')).rejects.toMatchObject({ status: 404 });
    await db().insertInto('action_workflow_state').values({ repo_id: id, workflow_id: 'manual.yml', disabled: 1 }).execute();
    await expect(fail({ who: 'x' })).rejects.toMatchObject({ status: 403 });
    const off = { ...deps, config: { ...deps.config, actions: { ...deps.config.actions, enabled: false } } };
    await expect(dispatchWorkflow(withDb(off, db()), repo, doer, 'manual.yml', 'main', { who: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(await runsOf(db(), id)).toHaveLength(2);
  });

  // Issue and comment events of a repository known to have no workflows queue nothing
  // (test/api/query-count.test.ts counts it); a push must make the next one look again.
  it('a workflow pushed after issue events found none is started by the next issue and comment', async () => {
    const { id, local } = await newRepo('later', { 'README.md': 'x' });
    await ok(await s.request(`api/v1/repos/${alice.username}/later/issues`, { method: 'POST', auth: as(alice), json: { title: 'Early' } }), 201);
    await triggersDone(db());
    await ok(await s.request(`api/v1/repos/${alice.username}/later/issues/1/comments`, { method: 'POST', auth: as(alice), json: { body: 'none yet' } }), 201);
    await triggersDone(db());
    expect(await runsOf(db(), id)).toEqual([]);
    await local.push({ '.gitea/workflows/triage.yml': 'on:\n  issues: {types: [opened]}\n  issue_comment:\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n' });
    await ok(await s.request(`api/v1/repos/${alice.username}/later/issues`, { method: 'POST', auth: as(alice), json: { title: 'Late' } }), 201);
    await ok(await s.request(`api/v1/repos/${alice.username}/later/issues/2/comments`, { method: 'POST', auth: as(alice), json: { body: 'now' } }), 201);
    const runs = await waitRuns(db(), id, 2);
    expect(runs.map((r) => r.event)).toEqual(['issues', 'issue_comment']);
    expect(JSON.parse(runs[0]!.event_payload)).toMatchObject({ issue: { title: 'Late' } });
  });

  it('issues and comments start the workflows of the default branch', async () => {
    const wf = 'on:\n  issues: {types: [opened]}\n  issue_comment:\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n';
    const { id } = await newRepo('issues', { '.gitea/workflows/triage.yml': wf });
    const res = await s.request(`api/v1/repos/${alice.username}/issues/issues`, { method: 'POST', auth: as(alice), json: { title: 'Bug' } });
    expect(res.status).toBe(201);
    await s.request(`api/v1/repos/${alice.username}/issues/issues/1/comments`, { method: 'POST', auth: as(alice), json: { body: 'hi' } });
    const runs = await waitRuns(db(), id, 2);
    expect(runs.map((r) => [r.event, r.ref])).toEqual([['issues', 'refs/heads/main'], ['issue_comment', 'refs/heads/main']]);
    expect(JSON.parse(runs[0]!.event_payload)).toMatchObject({ action: 'opened', issue: { title: 'Bug' } });
  });
});
