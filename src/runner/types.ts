// What the executor works on and reports, independent of the wire protocol: the client turns the
// protobuf Task into a RunnerTask and the executor's reports back into UpdateTask/UpdateLog calls.

export type StepResult = 'success' | 'failure' | 'cancelled' | 'skipped';

export interface TaskNeed {
  outputs: Record<string, string>;
  result: StepResult | 'unspecified';
}

/** One task as the runner receives it (runner.v1.Task). */
export interface RunnerTask {
  id: number;
  /** The single-job workflow YAML. */
  workflowPayload: string;
  /** The `github` context (Gitea's task context struct). */
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, TaskNeed>;
}

export interface StepState {
  id: number;
  result: StepResult | null;
  startedMs: number | null;
  stoppedMs: number | null;
  logIndex: number;
  logLength: number;
}

export interface TaskState {
  id: number;
  result: StepResult | null;
  startedMs: number;
  stoppedMs: number | null;
  steps: StepState[];
}

export interface LogRow {
  timeMs: number;
  content: string;
}

/** Where the reporter sends what the executor produced (the protocol client, or a test double). */
export interface ReportSink {
  /** Uploads rows starting at `index`; answers the server's ack index (rows it has). */
  updateLog(taskId: number, index: number, rows: LogRow[], noMore: boolean): Promise<number>;
  /** Sends the task state; answers whether the server cancelled the task, and which outputs it took. */
  updateTask(state: TaskState, outputs: Record<string, string>): Promise<{ cancelled: boolean; sentOutputs: string[] }>;
}
