import { gitEnv } from '../../git/exec';
import { spawnGitGroup } from '../../git/spawn-group';

export type GitOutcome = { ok: true } | { ok: false; problem: string };

const KEEP_OUTPUT = 16 * 1024;

/**
 * Runs a maintenance command (fsck, gc) in a bare repository: killed after `timeoutMs` (0: no
 * limit) or when `signal` aborts. Only the tail of the output is kept, to say what went wrong.
 */
export function runGitMaintenance(dir: string, args: string[], timeoutMs: number, signal: AbortSignal): Promise<GitOutcome> {
  return new Promise((resolve) => {
    // A gc's repack and pack-objects are stopped with it (its process group).
    const child = spawnGitGroup(args, { cwd: dir, env: gitEnv({ gitDir: dir }), stdio: ['ignore', 'pipe', 'pipe'] }, signal, timeoutMs);
    let output = '';
    const keep = (b: Buffer) => { output = (output + b.toString()).slice(-KEEP_OUTPUT); };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('error', (err) => resolve({ ok: false, problem: err.message }));
    child.on('close', (code) => {
      if (code === 0) return resolve({ ok: true });
      if (signal.aborted) return resolve({ ok: false, problem: 'cancelled' });
      if (child.timedOut()) return resolve({ ok: false, problem: `git ${args[0]} did not finish within ${timeoutMs} ms` });
      resolve({ ok: false, problem: summary(output) || `git ${args[0]} exited with ${code}` });
    });
  });
}

/** The last few lines of git's output, on one line. */
function summary(output: string): string {
  return output.trim().split('\n').map((l) => l.trim()).filter(Boolean).slice(-3).join(' | ');
}

/** Gitea's ARGS keys: extra arguments, space-separated. */
export const splitArgs = (args: string): string[] => args.split(/\s+/).filter(Boolean);
