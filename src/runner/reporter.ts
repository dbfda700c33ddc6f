// Reports a running task as act_runner does: log rows are buffered and uploaded in order every
// second (the server acknowledges how many it has; only the rest is sent again), the task state
// with its steps goes with UpdateTask, and a CANCELLED state in the answer cancels the job.

import type { Masker } from './masker';
import type { LogRow, ReportSink, StepResult, TaskState } from './types';

const FLUSH_MS = 1000;

export class Reporter {
  private readonly pending: LogRow[] = [];
  private acked = 0;
  private readonly state: TaskState;
  private readonly outputs = new Map<string, string>();
  private readonly sentOutputs = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private cancelHandler: (() => void) | null = null;
  private closed = false;

  constructor(private readonly sink: ReportSink, taskId: number, stepCount: number, private readonly masker: Masker) {
    this.state = {
      id: taskId,
      result: null,
      startedMs: Date.now(),
      stoppedMs: null,
      steps: Array.from({ length: stepCount }, (_, id) => ({
        id, result: null, startedMs: null, stoppedMs: null, logIndex: 0, logLength: 0,
      })),
    };
  }

  /** Rows so far (acknowledged + pending): the index the next row gets. */
  get rowCount(): number {
    return this.acked + this.pending.length;
  }

  start(onCancel: () => void): void {
    this.cancelHandler = onCancel;
    this.timer = setInterval(() => { void this.flush(false); }, FLUSH_MS);
    this.timer.unref();
  }

  log(text: string): void {
    const now = Date.now();
    for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
      this.pending.push({ timeMs: now, content: this.masker.mask(line.replace(/\r/g, '')) });
    }
  }

  stepStarted(index: number): void {
    const s = this.state.steps[index];
    if (!s) return;
    s.startedMs = Date.now();
    s.logIndex = this.rowCount;
  }

  stepFinished(index: number, result: StepResult): void {
    const s = this.state.steps[index];
    if (!s) return;
    if (s.startedMs === null) {
      s.startedMs = Date.now();
      s.logIndex = this.rowCount;
    }
    s.stoppedMs = Date.now();
    s.logLength = this.rowCount - s.logIndex;
    s.result = result;
  }

  setOutput(key: string, value: string): void {
    this.outputs.set(key, value);
  }

  /** Stops the timer, uploads the remaining rows with no_more and the final state. */
  async finish(result: StepResult): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.state.result = result;
    this.state.stoppedMs = Date.now();
    for (const s of this.state.steps) {
      if (s.result === null) s.result = result === 'success' ? 'skipped' : result === 'failure' ? 'skipped' : result;
    }
    this.closed = true;
    // the end must arrive: retry a few times with a pause, as act_runner's reporter does
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await this.flush(true, true);
        if (this.pending.length === 0) return;
      } catch {
        /* try again */
      }
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }

  /** One upload of logs then state; serialized so rows leave in order. */
  flush(noMore: boolean, throwOnError = false): Promise<void> {
    const run = this.chain.then(() => this.flushOnce(noMore));
    this.chain = run.catch(() => undefined);
    return throwOnError ? run : run.catch(() => undefined);
  }

  private async flushOnce(noMore: boolean): Promise<void> {
    if (this.closed && !noMore) return;
    const rows = this.pending.slice();
    if (rows.length > 0 || noMore) {
      const ack = await this.sink.updateLog(this.state.id, this.acked, rows, noMore);
      const taken = Math.max(0, Math.min(rows.length, ack - this.acked));
      this.pending.splice(0, taken);
      this.acked += taken;
      if (noMore && this.pending.length > 0) throw new Error(`log not fully acknowledged: ${ack}/${this.rowCount}`);
    }
    const unsent = Object.fromEntries([...this.outputs].filter(([k]) => !this.sentOutputs.has(k)));
    const answer = await this.sink.updateTask(structuredClone(this.state), unsent);
    for (const k of answer.sentOutputs) this.sentOutputs.add(k);
    if (answer.cancelled && !this.closed) this.cancelHandler?.();
  }
}
