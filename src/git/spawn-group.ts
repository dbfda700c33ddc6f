import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * Spawns git in a process group of its own, stopped as a whole (SIGKILL) when `signal` aborts or
 * `stopAfterMs` passes. Killing git alone left the helpers it had started running: a fetch's
 * git-remote-https blocked on a stalled remote, a gc's repack, an alias's command. They ran on
 * beside the node that took the job over and kept git's pipes open, so nothing saw git end.
 * The abort is not reported as an 'error' event (unlike spawn's own `signal`): callers read
 * `signal.aborted` or `timedOut()` when the child closes.
 */
export function spawnGitGroup(
  args: string[], options: Omit<SpawnOptions, 'signal' | 'detached' | 'timeout'>, signal?: AbortSignal, stopAfterMs = 0,
): ChildProcess & { timedOut: () => boolean } {
  const child = spawn('git', args, { ...options, detached: true });
  let timedOut = false;
  let ended = false;
  const stop = () => {
    if (ended || !child.pid) return;
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* the group is gone already */ }
  };
  const timer = stopAfterMs > 0 ? setTimeout(() => { timedOut = true; stop(); }, stopAfterMs) : null;
  signal?.addEventListener('abort', stop, { once: true });
  // The group is only killed while git lives: once its pid is reaped the number may be reused.
  child.once('exit', () => {
    ended = true;
    if (timer) clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  });
  if (signal?.aborted) stop();
  return Object.assign(child, { timedOut: () => timedOut });
}
