import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRun } from '../../src/git/exec';
import { isAlive } from '../../src/lib/local-process';
import { runGitMaintenance } from '../../src/services/cron/git-command';
import { eventually } from '../helpers/wait';

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

  // git's own children (a fetch's remote helper, a gc's repack; here an alias's shell) go with it:
  // killed alone, git left them running, holding its pipes, beside the node that took the job over.
  // isAlive: a zombie left for a reaper counts as gone.
  /** An alias whose shell writes its pid, then waits 30 s as git's child. */
  function helperAlias(): { args: string[]; pid: () => number | null } {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-git-group-')), 'pid');
    return {
      args: ['-c', `alias.wait=!echo $$ > ${file}; exec sleep 30`, 'wait'],
      pid: () => (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() ? Number(fs.readFileSync(file, 'utf8')) : null),
    };
  }

  it('stops the processes git started too', async () => {
    const helper = helperAlias();
    const abort = new AbortController();
    const stopped = gitRun(helper.args, { signal: abort.signal });
    await eventually(async () => helper.pid() !== null, 10_000, 'the helper started');
    const pid = helper.pid()!;
    expect(isAlive(pid)).toBe(true);
    abort.abort(new Error('job lease lost'));
    await expect(stopped).rejects.toThrow('job lease lost');
    await eventually(async () => !isAlive(pid), 5_000, 'the helper stopped');
  }, 20_000);

  it('a maintenance command past its time limit is stopped with its children', async () => {
    const helper = helperAlias();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-git-group-'));
    const outcome = runGitMaintenance(dir, helper.args, 1_500, new AbortController().signal);
    await eventually(async () => helper.pid() !== null, 10_000, 'the helper started');
    const pid = helper.pid()!;
    expect(await outcome).toEqual({ ok: false, problem: 'git -c did not finish within 1500 ms' });
    await eventually(async () => !isAlive(pid), 5_000, 'the helper stopped');
  }, 20_000);
});
