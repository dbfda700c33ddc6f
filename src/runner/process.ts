// Runs one step's process in its own process group, so cancelling or timing out kills everything
// the step started (`sleep`, servers in the background), not just the shell.

import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  timedOut: boolean;
  cancelled: boolean;
  error?: string;
}

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
  onLine: (line: string, stream: 'stdout' | 'stderr') => void;
}

const KILL_GRACE_MS = 3000;
/** After the main process exits, how long its output may still arrive (background children may hold the pipe). */
const DRAIN_MS = 300;

/** Process groups started by steps, killed at the end of the job (GitHub's "orphan processes"). */
export class ProcessGroups {
  private readonly pids = new Set<number>();
  add(pid: number): void { this.pids.add(pid); }
  killAll(): void {
    for (const pid of this.pids) killGroup(pid, 'SIGKILL');
    this.pids.clear();
  }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

export function runProcess(command: string, args: string[], opts: ProcessOptions, groups: ProcessGroups): Promise<ProcessResult> {
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (why: 'timeout' | 'cancel') => {
      if (why === 'timeout') timedOut = true;
      else cancelled = true;
      if (!child.pid) return;
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const onAbort = () => stop('cancel');
    opts.signal.addEventListener('abort', onAbort);
    const timer = opts.timeoutMs ? setTimeout(() => stop('timeout'), opts.timeoutMs) : null;
    if (child.pid) groups.add(child.pid);
    const flushers = [lines(child.stdout, (l) => opts.onLine(l, 'stdout')), lines(child.stderr, (l) => opts.onLine(l, 'stderr'))];
    const finish = (code: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
      flushers.forEach((f) => f());
      resolve({ code, timedOut, cancelled, error });
    };
    child.on('error', (err) => finish(null, err.message));
    child.on('close', (code) => finish(code));
    child.on('exit', (code) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, DRAIN_MS).unref();
    });
    if (opts.signal.aborted) stop('cancel');
  });
}

/** Calls onLine per complete line; the returned function emits the last partial line. */
function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): () => void {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  return () => {
    if (buf.length) onLine(buf);
    buf = '';
  };
}
