import { describe, expect, it } from 'vitest';
import { gitRun } from '../../src/git/exec';

// gitRun's `signal`: a job that lost its lease aborts it, git is killed and the call rejects with
// the signal's reason rather than waiting for git (a transfer to a stalled remote can take minutes).

describe('gitRun with a signal', () => {
  it('kills git when the signal aborts and rejects with its reason', async () => {
    const abort = new AbortController();
    const started = Date.now();
    // An alias running a shell command: a git that runs until it is killed (or 10 s pass).
    const stopped = gitRun(['-c', 'alias.wait=!sleep 10', 'wait'], { signal: abort.signal });
    setTimeout(() => abort.abort(new Error('job lease lost')), 200);
    await expect(stopped).rejects.toThrow('job lease lost');
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it('rejects at once when the signal was aborted already, and runs as before without one', async () => {
    await expect(gitRun(['version'], { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect((await gitRun(['version'], { signal: new AbortController().signal })).stdout.toString()).toMatch(/^git version/);
  });
});
