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

/**
 * A stream's text up to `cap` bytes, cut at the last whole line when over (diffs shown in a
 * page). Only a cut stream stops git: one that ended is exiting by itself, and a kill would fail it.
 */
export async function readCapped(s: GitStream, cap: number, what: string): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of s.stdout as AsyncIterable<Buffer>) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  if (truncated) s.kill();
  const { code, stderr } = await s.done;
  if (code !== 0 && !truncated) throw new Error(`git ${what} failed (${code}): ${stderr.trim()}`);
  const text = Buffer.concat(chunks).toString('utf8');
  return { text: truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text, truncated };
}
