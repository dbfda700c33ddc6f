import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { gitEnv } from './exec';

export type GitStream = {
  stdout: Readable;
  /** Stops git (the client went away). */
  kill: () => void;
  /** Settles when git exits: its code and the start of stderr. */
  done: Promise<{ code: number; stderr: string }>;
};

/** Runs git with its output left as a stream, for responses too large to buffer. */
export function streamGit(dir: string, args: string[], env: Record<string, string> = {}): GitStream {
  const child = spawn('git', args, { env: gitEnv({ gitDir: dir, env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => { if (stderr.length < 16 * 1024) stderr += b.toString(); });
  const done = new Promise<{ code: number; stderr: string }>((resolve) => {
    child.on('error', (err) => resolve({ code: -1, stderr: String(err) }));
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
  return { stdout: child.stdout, kill: () => { if (child.exitCode === null) child.kill('SIGKILL'); }, done };
}
