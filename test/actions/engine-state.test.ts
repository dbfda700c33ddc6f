import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import type { ActionRun, ActionRunJob } from '../../src/db/schema';
import { getRun, insertRun, insertRunJob, jobsOfRun } from '../../src/models/actions-engine';
import { aggregateStatus, isHeld, needResult, refreshRunStatus, resolveJobs } from '../../src/services/actions/run-state';
import { tempDatabase } from '../helpers/database';

// The job state machine over a migrated temp database, without a server: needs, matrices,
// if: with needs results and outputs, continue-on-error, concurrency holds, run status.

const job = (status: string, extra: Partial<ActionRunJob> = {}) => ({ status, continue_on_error: 0, ...extra }) as ActionRunJob;

describe('run status derivation (Gitea\'s AggregateJobStatus)', () => {
  it.each([
    [['success', 'skipped'], 'success'], [['skipped', 'skipped'], 'skipped'], [['success', 'running'], 'running'],
    [['failure', 'waiting'], 'waiting'], [['failure', 'blocked'], 'failure'], [['cancelled', 'running'], 'cancelled'],
    [['success', 'blocked'], 'blocked'], [['failure', 'success'], 'failure'], [[], 'failure'],
  ])('%j -> %s', (statuses, expected) => {
    expect(aggregateStatus(statuses.map((st) => job(st)))).toBe(expected);
  });

  it('a failure with continue-on-error counts as a success', () => {
    expect(aggregateStatus([job('failure', { continue_on_error: 1 }), job('success')])).toBe('success');
    expect(needResult([job('failure', { continue_on_error: 1 })])).toBe('success');
  });

  it('a need of a matrix is done when all its combinations are', () => {
    expect(needResult([job('success'), job('running')])).toBeNull();
    expect(needResult([job('success'), job('failure')])).toBe('failure');
    expect(needResult([job('skipped'), job('skipped')])).toBe('skipped');
    expect(needResult([job('success'), job('cancelled')])).toBe('cancelled');
  });
});

describe('the job state machine', () => {
  let t: Awaited<ReturnType<typeof tempDatabase>>;
  let db: DB;
  let repoId: number;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    t = await tempDatabase();
    db = t.db;
    const user = await db.insertInto('user').values({ lower_name: 'u', name: 'u', email: 'u@x', created_unix: now, updated_unix: now } as never)
      .returning('id').executeTakeFirstOrThrow();
    const repo = await db.insertInto('repository').values({
      owner_id: user.id, owner_name: 'u', lower_name: 'r', name: 'r', default_branch: 'main', created_unix: now, updated_unix: now,
    } as never).returning('id').executeTakeFirstOrThrow();
    repoId = repo.id;
  });
  afterAll(async () => { await t.close(); });

  let index = 0;
  async function run(jobs: { id: string; needs?: string[]; if?: string; matrix?: object; coe?: boolean }[], group: string | null = null, cancel = false): Promise<ActionRun> {
    const r = await insertRun(db, {
      repo_id: repoId, run_index: ++index, workflow_id: 'w.yml', status: 'blocked', schedule_id: null, concurrency_group: group,
      concurrency_cancel: cancel ? 1 : 0, workflow_error: null, started_unix: null, stopped_unix: null, created_unix: now, updated_unix: now,
    });
    for (const j of jobs) {
      await insertRunJob(db, {
        run_id: r.id, repo_id: repoId, job_id: j.id, name: j.id, needs: JSON.stringify(j.needs ?? []), if_expr: j.if ?? null,
        matrix: j.matrix ? JSON.stringify(j.matrix) : null, timeout_minutes: null, continue_on_error: j.coe ? 1 : 0, task_id: null,
        status: 'blocked', started_unix: null, stopped_unix: null, created_unix: now, updated_unix: now,
      });
    }
    return r;
  }
  const ctx = { github: { ref: 'refs/heads/main', event_name: 'push' }, vars: {}, inputs: {} };
  const statuses = async (r: ActionRun) => (await jobsOfRun(db, r.id)).map((j) => `${j.job_id}:${j.status}`);
  const finish = async (r: ActionRun, jobId: string, status: string, outputs: Record<string, string> = {}) => {
    for (const j of (await jobsOfRun(db, r.id)).filter((x) => x.job_id === jobId)) {
      let taskId: number | null = null;
      if (Object.keys(outputs).length) {
        const task = await db.insertInto('action_task').values({
          job_id: j.id, status, repo_id: repoId, token_hash: null, started_unix: now, stopped_unix: now, created_unix: now, updated_unix: now,
        }).returning('id').executeTakeFirstOrThrow();
        taskId = task.id;
        for (const [k, v] of Object.entries(outputs)) await db.insertInto('action_task_output').values({ task_id: taskId, output_key: k, output_value: v }).execute();
      }
      await db.updateTable('action_run_job').set({ status, task_id: taskId, started_unix: now, stopped_unix: now }).where('id', '=', j.id).execute();
    }
  };

  it('releases jobs as their needs finish, evaluating if: over needs results and outputs', async () => {
    const r = await run([
      { id: 'build', matrix: { os: 'linux' } }, { id: 'build', matrix: { os: 'mac' } },
      { id: 'deploy', needs: ['build'], if: "needs.build.outputs.ship == 'yes'" },
      { id: 'nodeploy', needs: ['build'], if: "needs.build.outputs.ship == 'no'" },
      { id: 'report', needs: ['deploy', 'nodeploy'], if: 'always()' },
      { id: 'matrixed', if: "matrix.os == 'mac'", matrix: { os: 'linux' } },
    ]);
    expect((await resolveJobs(db, r, ctx)).map((j) => j.job_id)).toEqual(['build', 'build', 'matrixed']);
    expect(await statuses(r)).toEqual(['build:waiting', 'build:waiting', 'deploy:blocked', 'nodeploy:blocked', 'report:blocked', 'matrixed:skipped']);
    await finish(r, 'build', 'success', { ship: 'yes' });
    await resolveJobs(db, r, ctx);
    // deploy waits; nodeploy is skipped; report (always()) waits for deploy still.
    expect(await statuses(r)).toEqual(['build:success', 'build:success', 'deploy:waiting', 'nodeploy:skipped', 'report:blocked', 'matrixed:skipped']);
    await finish(r, 'deploy', 'failure');
    await resolveJobs(db, r, ctx);
    expect(await statuses(r)).toEqual(['build:success', 'build:success', 'deploy:failure', 'nodeploy:skipped', 'report:waiting', 'matrixed:skipped']);
    expect((await refreshRunStatus(db, (await getRun(db, r.id))!)).after.status).toBe('waiting');
    await finish(r, 'report', 'success');
    const { after } = await refreshRunStatus(db, (await getRun(db, r.id))!);
    expect(after.status).toBe('failure');
    expect(after.stopped_unix).not.toBeNull();
  });

  it('continue-on-error lets dependents run; failure() runs only after a failure', async () => {
    const r = await run([
      { id: 'flaky', coe: true }, { id: 'next', needs: ['flaky'] }, { id: 'onfail', needs: ['flaky'], if: 'failure()' },
    ]);
    await resolveJobs(db, r, ctx);
    await finish(r, 'flaky', 'failure');
    await resolveJobs(db, r, ctx);
    expect(await statuses(r)).toEqual(['flaky:failure', 'next:waiting', 'onfail:skipped']);
  });

  it('a run behind an unfinished run of its group is held; cancel-in-progress groups are not', async () => {
    const first = await run([{ id: 'a' }], 'deploy');
    await resolveJobs(db, first, ctx);
    const second = await run([{ id: 'a' }], 'deploy');
    expect(await isHeld(db, second)).toBe(true);
    await refreshRunStatus(db, (await getRun(db, first.id))!);
    expect(await isHeld(db, second)).toBe(true);
    expect(await resolveJobs(db, second, ctx)).toEqual([]);
    await finish(first, 'a', 'success');
    await refreshRunStatus(db, (await getRun(db, first.id))!);
    expect(await isHeld(db, second)).toBe(false);
    await resolveJobs(db, second, ctx);
    expect(await statuses(second)).toEqual(['a:waiting']);
    const third = await run([{ id: 'a' }], 'deploy', true);
    expect(await isHeld(db, third)).toBe(false);
  });
});
