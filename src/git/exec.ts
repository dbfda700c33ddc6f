import { spawn, type SpawnOptions } from 'node:child_process';
import { InvalidError } from '../lib/errors';
import { spawnGitGroup } from './spawn-group';

export type GitResult = { code: number; stdout: Buffer; stderr: string };
export type GitOptions = {
  cwd?: string;
  /** Git directory (bare repository); sets GIT_DIR. */
  gitDir?: string;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Refuse to buffer more than this many bytes of output (default 256 MiB). */
  maxOutput?: number;
  /**
   * Kills git and the helpers it started (SIGKILL to its process group) when it aborts, and rejects
   * with the signal's reason: a job that lost its lease stops its transfer rather than running on
   * beside the other node's rerun.
   */
  signal?: AbortSignal;
};

// Never let the user's or system's git configuration or a terminal prompt change what runs.
export const BASE_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_NO_REPLACE_OBJECTS: '1',
  LC_ALL: 'C',
};

export function gitEnv(opts: Pick<GitOptions, 'gitDir' | 'env'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME ?? '/', ...BASE_ENV, ...opts.env };
  if (opts.gitDir) env.GIT_DIR = opts.gitDir;
  return env;
}

export class GitError extends Error {
  constructor(readonly args: string[], readonly code: number, readonly stderr: string) {
    super(`git ${args[0]} failed (${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
}

/** Runs git to completion, buffering its output; never throws for a non-zero exit. */
export function gitRun(args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const max = opts.maxOutput ?? 256 * 1024 * 1024;
  // A NUL cannot pass through exec; no ref or path may hold one, so the name is invalid.
  if (args.some((a) => a.includes('\0'))) return Promise.reject(new InvalidError('a name holds a NUL character'));
  return new Promise((resolve, reject) => {
    const spawnOpts: SpawnOptions = { cwd: opts.cwd, env: gitEnv(opts), stdio: ['pipe', 'pipe', 'pipe'] };
    const child = opts.signal ? spawnGitGroup(args, spawnOpts, opts.signal) : spawn('git', args, spawnOpts);
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    child.stdout!.on('data', (b: Buffer) => {
      size += b.length;
      if (size > max) child.kill('SIGKILL');
      else out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => { if (err.length < 64 * 1024) err += b.toString(); });
    child.on('error', (err) => reject(opts.signal?.aborted ? opts.signal.reason : err));
    child.on('close', (code) => {
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      if (size > max) return reject(new Error(`git ${args[0]}: output over ${max} bytes`));
      resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin!.on('error', () => { /* git may exit before reading all input */ });
    child.stdin!.end(opts.input ?? '');
  });
}

/** Runs git and returns stdout as text; throws GitError on a non-zero exit. */
export async function git(args: string[], opts: GitOptions = {}): Promise<string> {
  const r = await gitRun(args, opts);
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.toString('utf8');
}

/** As git() but returns raw bytes. */
export async function gitBytes(args: string[], opts: GitOptions = {}): Promise<Buffer> {
  const r = await gitRun(args, opts);
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout;
}
