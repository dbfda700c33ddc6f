// The runner's side of Gitea's runner protocol (connect-RPC under /api/actions, binary protobuf),
// with the generated client: Ping, Register (registration token), then Declare, FetchTask,
// UpdateTask and UpdateLog authenticated by the x-runner-uuid / x-runner-token headers.

import type { Client, Interceptor } from '@connectrpc/connect';
import {
  createClient, createConnectTransport, PingService, Result, RunnerService, timestampFromMs, type Runner, type Task,
} from '../lib/runner-protocol';
import { HEARTH_VERSION } from '../lib/version';
import type { LogRow, ReportSink, RunnerTask, StepResult, TaskState } from './types';

export const RUNNER_VERSION = `hearth-${HEARTH_VERSION}`;

export interface RunnerCredentials {
  uuid: string;
  token: string;
}

function transport(instance: string, creds: RunnerCredentials | null) {
  const auth: Interceptor = (next) => async (req) => {
    req.header.set('x-runner-version', RUNNER_VERSION);
    if (creds) {
      req.header.set('x-runner-uuid', creds.uuid);
      req.header.set('x-runner-token', creds.token);
    }
    return next(req);
  };
  return createConnectTransport({
    baseUrl: `${instance.replace(/\/+$/, '')}/api/actions`,
    httpVersion: '1.1',
    useBinaryFormat: true,
    interceptors: [auth],
    defaultTimeoutMs: 30_000,
  });
}

/** Checks the instance answers the protocol, then registers with a registration token. */
export async function registerRunner(
  instance: string, token: string, name: string, labels: string[], ephemeral = false,
): Promise<Runner> {
  const t = transport(instance, null);
  await createClient(PingService, t).ping({ data: name });
  const res = await createClient(RunnerService, t).register({ name, token, version: RUNNER_VERSION, labels, ephemeral });
  if (!res.runner) throw new Error('the instance answered Register without a runner');
  return res.runner;
}

const RESULTS: Record<StepResult, Result> = {
  success: Result.SUCCESS, failure: Result.FAILURE, cancelled: Result.CANCELLED, skipped: Result.SKIPPED,
};
const FROM_RESULT: Record<number, StepResult | 'unspecified'> = {
  [Result.SUCCESS]: 'success', [Result.FAILURE]: 'failure', [Result.CANCELLED]: 'cancelled', [Result.SKIPPED]: 'skipped',
};

const ts = (ms: number | null) => (ms === null ? undefined : timestampFromMs(ms));

export class RunnerClient implements ReportSink {
  private readonly rpc: Client<typeof RunnerService>;

  constructor(instance: string, creds: RunnerCredentials) {
    this.rpc = createClient(RunnerService, transport(instance, creds));
  }

  async declare(labels: string[]): Promise<Runner | undefined> {
    return (await this.rpc.declare({ version: RUNNER_VERSION, labels })).runner;
  }

  /** The next task for this runner, if any, and the tasks version to send next time. */
  async fetchTask(tasksVersion: bigint, signal?: AbortSignal): Promise<{ task: RunnerTask | null; version: bigint }> {
    const res = await this.rpc.fetchTask({ tasksVersion }, { signal });
    return { task: res.task ? fromTask(res.task) : null, version: res.tasksVersion };
  }

  async updateLog(taskId: number, index: number, rows: LogRow[], noMore: boolean): Promise<number> {
    const res = await this.rpc.updateLog({
      taskId: BigInt(taskId),
      index: BigInt(index),
      rows: rows.map((r) => ({ time: timestampFromMs(r.timeMs), content: r.content })),
      noMore,
    });
    return Number(res.ackIndex);
  }

  async updateTask(state: TaskState, outputs: Record<string, string>): Promise<{ cancelled: boolean; sentOutputs: string[] }> {
    const res = await this.rpc.updateTask({
      state: {
        id: BigInt(state.id),
        result: state.result ? RESULTS[state.result] : Result.UNSPECIFIED,
        startedAt: ts(state.startedMs),
        stoppedAt: ts(state.stoppedMs),
        steps: state.steps.map((s) => ({
          id: BigInt(s.id),
          result: s.result ? RESULTS[s.result] : Result.UNSPECIFIED,
          startedAt: ts(s.startedMs),
          stoppedAt: ts(s.stoppedMs),
          logIndex: BigInt(s.logIndex),
          logLength: BigInt(s.logLength),
        })),
      },
      outputs,
    });
    return { cancelled: res.state?.result === Result.CANCELLED, sentOutputs: res.sentOutputs };
  }
}

function fromTask(t: Task): RunnerTask {
  const needs: RunnerTask['needs'] = {};
  for (const [id, n] of Object.entries(t.needs)) needs[id] = { outputs: { ...n.outputs }, result: FROM_RESULT[n.result] ?? 'unspecified' };
  return {
    id: Number(t.id),
    workflowPayload: Buffer.from(t.workflowPayload ?? new Uint8Array()).toString('utf8'),
    context: (t.context ?? {}) as Record<string, unknown>,
    secrets: { ...t.secrets },
    vars: { ...t.vars },
    needs,
  };
}
