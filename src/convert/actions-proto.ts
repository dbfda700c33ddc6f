import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ActionRunner, ActionTask } from '../db/schema';
import {
  create, Result, RunnerSchema, RunnerStatus, TaskSchema, TaskStateSchema, timestampFromDate,
  type Runner, type Task, type TaskState,
} from '../lib/runner-protocol';
import type { TaskReport } from '../services/actions/task-report';
import type { TaskPayload } from '../services/actions/task-payload';

// Rows and service results as runner.v1 messages, and runner reports as plain data.

const RESULT_OF: Record<string, Result> = {
  success: Result.SUCCESS, failure: Result.FAILURE, cancelled: Result.CANCELLED, skipped: Result.SKIPPED,
};

export const resultOf = (status: string): Result => RESULT_OF[status] ?? Result.UNSPECIFIED;

function labelsOf(runner: ActionRunner): string[] {
  try {
    return (JSON.parse(runner.labels) as unknown[]).map(String);
  } catch {
    return [];
  }
}

/** The runner as Register and Declare answer it; the token only when it was just made. */
export function runnerMessage(runner: ActionRunner, token = ''): Runner {
  return create(RunnerSchema, {
    id: BigInt(runner.id), uuid: runner.uuid, token, name: runner.name, status: RunnerStatus.IDLE,
    version: runner.version, labels: labelsOf(runner), ephemeral: !!runner.ephemeral,
  });
}

export function taskMessage(p: TaskPayload): Task {
  const needs: NonNullable<MessageInitShape<typeof TaskSchema>['needs']> = {};
  for (const [id, n] of Object.entries(p.needs)) needs[id] = { outputs: n.outputs, result: resultOf(n.result) };
  return create(TaskSchema, {
    id: BigInt(p.id),
    workflowPayload: new TextEncoder().encode(p.workflowPayload),
    // Struct holds JSON only: undefined values and the like are dropped by the round trip.
    context: JSON.parse(JSON.stringify(p.context)) as Task['context'],
    secrets: p.secrets, vars: p.vars, needs,
  });
}

export function taskStateMessage(task: ActionTask): TaskState {
  return create(TaskStateSchema, { id: BigInt(task.id), result: resultOf(task.status) });
}

const seconds = (t: { seconds: bigint } | undefined) => (t && t.seconds > 0n ? Number(t.seconds) : undefined);

export function taskReportOf(state: TaskState | undefined): TaskReport {
  return {
    id: Number(state?.id ?? 0n), result: state?.result ?? Result.UNSPECIFIED,
    startedAt: seconds(state?.startedAt), stoppedAt: seconds(state?.stoppedAt),
    steps: (state?.steps ?? []).map((s) => ({
      id: Number(s.id), result: s.result, startedAt: seconds(s.startedAt), stoppedAt: seconds(s.stoppedAt),
      logIndex: Number(s.logIndex), logLength: Number(s.logLength),
    })),
  };
}

/** A time as a protobuf Timestamp (for the client side: tests and the runner). */
export const timestampOf = (ms: number) => timestampFromDate(new Date(ms));
