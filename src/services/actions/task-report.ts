import type { DB } from '../../db/connect';
import type { ActionRunner, ActionTask } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import * as m from '../../models/actions-tasks';
import { retireIfEphemeral } from './runner-session';
import { RESULTS, stopTask, type FinalResult } from './tasks';
import type { Hearth } from '../../hearth';

// What a runner reports about its task (Gitea's UpdateTask and UpdateLog): step states,
// outputs, the final result, and log rows appended at their index.

/** Times are unix seconds; result 0 is unspecified (still going). */
export type StepReport = { id: number; result: number; startedAt?: number; stoppedAt?: number; logIndex: number; logLength: number };
export type TaskReport = { id: number; result: number; startedAt?: number; stoppedAt?: number; steps: StepReport[] };
export type LogRowIn = { timeMs: number; content: string };

async function ownTask(db: DB, runner: ActionRunner, taskId: number): Promise<ActionTask> {
  const task = await m.getTask(db, taskId);
  if (!task) throw new NotFoundError('task not found');
  if (task.runner_id !== runner.id) throw new ForbiddenError('invalid runner for task');
  return task;
}

const resultOf = (n: number): FinalResult | null => (n >= 1 && n <= 4 ? RESULTS[n] as FinalResult : null);

async function updateSteps(db: DB, taskId: number, steps: StepReport[]): Promise<void> {
  const known = await m.stepsOfTask(db, taskId);
  for (const s of steps) {
    const row = known.find((k) => k.idx === s.id);
    if (!row) continue;
    const result = resultOf(s.result);
    const status = result ?? (s.startedAt ? 'running' : row.status);
    await m.updateStep(db, taskId, s.id, {
      status, log_index: s.logIndex, log_length: s.logLength,
      started_unix: s.startedAt ?? row.started_unix, stopped_unix: result ? (s.stoppedAt ?? nowUnix()) : row.stopped_unix,
    });
  }
}

/** Gitea's limits: output keys up to 255 bytes, values up to 1 MiB; others are dropped. */
function acceptedOutputs(outputs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(outputs)
    .filter(([k, v]) => Buffer.byteLength(k) <= 255 && Buffer.byteLength(v) <= 1024 * 1024));
}

/** Applies a runner's report; answers the task's status now and every output key stored. */
export async function updateTaskState(
  h: Hearth, runner: ActionRunner, state: TaskReport, outputs: Record<string, string>,
): Promise<{ task: ActionTask; sentOutputs: string[] }> {
  const task = await ownTask(h.db, runner, state.id);
  const sentOutputs = await m.addOutputs(h.db, task.id, acceptedOutputs(outputs));
  const result = resultOf(state.result);
  if (result) await retireIfEphemeral(h.db, runner);
  // A task stopped here (cancelled, timed out) keeps its result: the runner learns it from the answer.
  if (task.status !== 'running') return { task, sentOutputs };
  await updateSteps(h.db, task.id, state.steps);
  if (result) {
    await stopTask(h, task.id, result, state.stoppedAt ?? nowUnix());
  } else {
    await m.touchTask(h.db, task.id, nowUnix());
  }
  return { task: (await m.getTask(h.db, task.id)) ?? task, sentOutputs };
}

/**
 * Appends the rows the server does not have yet (the runner resends from the acknowledged
 * index); answers the new length. Rows beyond a gap are not taken, as Gitea.
 */
export async function updateTaskLog(
  db: DB, runner: ActionRunner, taskId: number, index: number, rows: LogRowIn[],
): Promise<number> {
  const task = await ownTask(db, runner, taskId);
  const ack = task.log_length;
  if (!rows.length || index > ack || index + rows.length <= ack) return ack;
  const fresh = rows.slice(ack - index);
  await m.appendLogRows(db, task.id, ack, fresh, nowUnix());
  return ack + fresh.length;
}
