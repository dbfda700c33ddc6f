import { beforeAll, describe, expect, it } from 'vitest';
import { getRepoById } from '../../src/models/repo';
import { getUserById } from '../../src/models/user';
import { dispatchWorkflow, jobResultReported, jobStarted, type ActionsDeps } from '../../src/services/actions/runs';
import { engineServer, finishJob, jobsOf, runsOf, waitRuns } from './engine-helpers';
import { withDb } from '../../src/hearth';

// A job's own `concurrency:` (jobs.<id>.concurrency): evaluated when the job could start, with
// the matrix and needs; a later job of the group replaces an earlier one that has not started,
// waits while one runs (or cancels it with cancel-in-progress), and starts when it ends. And
// strategy.max-parallel, the other limit on when a job may start.

describe('job-level concurrency', () => {
  const { db, deps: depsOf, newRepo, alice } = engineServer();
  let deps: ActionsDeps;
  beforeAll(() => { deps = depsOf(); });
  const statuses = async (runId: number) => (await jobsOf(db(), runId)).map((j) => j.status);
  /** A runner takes the job. */
  async function start(jobId: number): Promise<void> {
    await db().updateTable('action_run_job').set({ status: 'running', started_unix: Math.floor(Date.now() / 1000) }).where('id', '=', jobId).execute();
    await jobStarted(withDb(deps, db()), jobId);
  }

  it('waits while a job of its group runs, replaces a pending one, and starts when the running one ends', async () => {
    const wf = 'on: push\njobs:\n  build: {runs-on: x, steps: [{run: b}]}\n'
      + '  deploy:\n    runs-on: x\n    concurrency: deploy-${{ github.ref }}\n    steps: [{run: d}]\n';
    const { id, local } = await newRepo('deploys', { '.gitea/workflows/w.yml': wf });
    const [first] = await waitRuns(db(), id, 1);
    const [, deploy1] = await jobsOf(db(), first!.id);
    expect(deploy1).toMatchObject({ status: 'waiting', concurrency_group: 'deploy-refs/heads/main', concurrency_cancel: 0 });
    await start(deploy1!.id);

    await local.push({ x: '1' }, 'second');
    const [, second] = await waitRuns(db(), id, 2);
    // The job without a group starts; the deploy job waits for the running one.
    expect(await statuses(second!.id)).toEqual(['waiting', 'blocked']);
    expect((await jobsOf(db(), second!.id))[1]!.concurrency_group).toBe('deploy-refs/heads/main');

    await local.push({ y: '1' }, 'third');
    const [, , third] = await waitRuns(db(), id, 3);
    expect(await statuses(third!.id)).toEqual(['waiting', 'blocked']);
    expect(await statuses(second!.id)).toEqual(['waiting', 'cancelled']);
    expect(await statuses(first!.id)).toEqual(['waiting', 'running']);

    await finishJob(db(), deploy1!.id, 'success');
    await jobResultReported(withDb(deps, db()), deploy1!.id);
    expect(await statuses(third!.id)).toEqual(['waiting', 'waiting']);
  });

  it('cancel-in-progress cancels the running job of the group', async () => {
    const wf = 'on: push\njobs:\n  deploy:\n    runs-on: x\n    concurrency:\n      group: prod\n      cancel-in-progress: true\n    steps: [{run: d}]\n';
    const { id, local } = await newRepo('prod', { '.gitea/workflows/w.yml': wf });
    const [first] = await waitRuns(db(), id, 1);
    const [deploy1] = await jobsOf(db(), first!.id);
    await start(deploy1!.id);
    await local.push({ x: '1' }, 'second');
    const [, second] = await waitRuns(db(), id, 2);
    expect(await statuses(second!.id)).toEqual(['waiting']);
    expect(await statuses(first!.id)).toEqual(['cancelled']);
    expect((await runsOf(db(), id))[0]!.status).toBe('cancelled');
  });

  it('strategy.max-parallel lets that many combinations wait or run at once', async () => {
    const wf = 'on: push\njobs:\n  t:\n    runs-on: x\n    strategy:\n      max-parallel: ${{ vars.N || 2 }}\n      matrix: {n: [1, 2, 3, 4]}\n    steps: [{run: t}]\n'
      + '  u: {runs-on: x, strategy: {matrix: {n: [1, 2]}}, steps: [{run: u}]}\n';
    const { id } = await newRepo('parallel', { '.gitea/workflows/w.yml': wf });
    const [run] = await waitRuns(db(), id, 1);
    const jobs = await jobsOf(db(), run!.id);
    expect(jobs.map((j) => [j.job_id, j.max_parallel])).toEqual([['t', 2], ['t', 2], ['t', 2], ['t', 2], ['u', 0], ['u', 0]]);
    expect(await statuses(run!.id)).toEqual(['waiting', 'waiting', 'blocked', 'blocked', 'waiting', 'waiting']);
    await start(jobs[0]!.id);
    expect(await statuses(run!.id)).toEqual(['running', 'waiting', 'blocked', 'blocked', 'waiting', 'waiting']);
    await finishJob(db(), jobs[0]!.id, 'success');
    await jobResultReported(withDb(deps, db()), jobs[0]!.id);
    expect(await statuses(run!.id)).toEqual(['success', 'waiting', 'waiting', 'blocked', 'waiting', 'waiting']);
  });

  it('is evaluated with the matrix and after its needs; a group that cannot be evaluated fails the job', async () => {
    const wf = 'on: push\njobs:\n  a: {runs-on: x, steps: [{run: a}]}\n'
      + '  b:\n    needs: a\n    runs-on: x\n    strategy: {matrix: {env: [one, two]}}\n    concurrency: b-${{ matrix.env }}-${{ needs.a.result }}\n    steps: [{run: b}]\n'
      + '  c:\n    runs-on: x\n    concurrency: ${{ fromJSON(\'{nope\') }}\n    steps: [{run: c}]\n';
    const { id } = await newRepo('matrix', { '.gitea/workflows/w.yml': wf });
    const [run] = await waitRuns(db(), id, 1);
    const jobs = await jobsOf(db(), run!.id);
    expect(jobs.map((j) => [j.job_id, j.status, j.concurrency_group])).toEqual([
      ['a', 'waiting', ''], ['b', 'blocked', ''], ['b', 'blocked', ''], ['c', 'failure', ''],
    ]);
    await finishJob(db(), jobs[0]!.id, 'success');
    await jobResultReported(withDb(deps, db()), jobs[0]!.id);
    expect((await jobsOf(db(), run!.id)).slice(1, 3).map((j) => [j.status, j.concurrency_group])).toEqual([
      ['waiting', 'b-one-success'], ['waiting', 'b-two-success'],
    ]);
  });
  it('shares its group with workflow-level groups: a run waits while a job of its group runs, a job while a run of it runs', async () => {
    const job = 'on: push\njobs:\n  deploy:\n    runs-on: x\n    concurrency: prod\n    steps: [{run: d}]\n';
    const run = 'on: workflow_dispatch\nconcurrency: prod\njobs:\n  all: {runs-on: x, steps: [{run: a}]}\n';
    const { id, local } = await newRepo('shared-group', { '.gitea/workflows/job.yml': job, '.gitea/workflows/run.yml': run });
    const [pushed] = await waitRuns(db(), id, 1);
    const [deploy] = await jobsOf(db(), pushed!.id);
    await start(deploy!.id);
    const repo = (await getRepoById(db(), id))!;
    const doer = (await getUserById(db(), alice().id))!;
    await dispatchWorkflow(withDb(deps, db()), repo, doer, 'run.yml', 'main', {});
    const [, dispatched] = await waitRuns(db(), id, 2);
    expect(await statuses(dispatched!.id)).toEqual(['blocked']);
    await finishJob(db(), deploy!.id, 'success');
    await jobResultReported(withDb(deps, db()), deploy!.id);
    expect(await statuses(dispatched!.id)).toEqual(['waiting']);

    // The other way round: the dispatched run runs, so a job of the group waits until it ends.
    const [all] = await jobsOf(db(), dispatched!.id);
    await start(all!.id);
    await local.push({ x: '1' }, 'second');
    const third = (await waitRuns(db(), id, 3))[2]!;
    expect(await statuses(third.id)).toEqual(['blocked']);
    await finishJob(db(), all!.id, 'success');
    await jobResultReported(withDb(deps, db()), all!.id);
    expect(await statuses(third.id)).toEqual(['waiting']);
  });
});
