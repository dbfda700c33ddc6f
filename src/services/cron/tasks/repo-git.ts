import fs from 'node:fs';
import { repoDir, repoSize } from '../../../git/repo';
import { removeStaleLocks, STALE_LOCK_MS } from '../../../git/stale-locks';
import { listRepoLocations, type RepoLocation } from '../../../models/repo-counters';
import { updateRepo } from '../../../models/repo';
import { runGitMaintenance, splitArgs } from '../git-command';
import { parseDuration } from '../duration';
import type { CronContext } from '../types';

type GitTaskSettings = { timeout: string; args: string };

const fullName = (r: RepoLocation) => `${r.ownerName}/${r.name}`;

/** Goes through every repository in turn, stopping between two when the scheduler stops. */
async function eachRepo(ctx: CronContext, what: string, fn: (r: RepoLocation, dir: string) => Promise<string | null>) {
  const failed: string[] = [];
  const repos = await listRepoLocations(ctx.db);
  for (const r of repos) {
    if (ctx.signal.aborted) throw new Error(`cancelled before the ${what} of ${fullName(r)}`);
    const dir = repoDir(ctx.config.repository.root, r.ownerName, r.name);
    const problem = fs.existsSync(dir) ? await fn(r, dir) : 'the repository directory is missing';
    if (problem) failed.push(`${fullName(r)}: ${problem}`);
  }
  return { count: repos.length, failed };
}

const report = (count: number, failed: string[], ok: string, bad: string) =>
  (failed.length ? `${failed.length} of ${count} repositories ${bad}: ${failed.join('; ')}` : `${count} repositories ${ok}`);

/**
 * repo_health_check: `git fsck` of every repository (Gitea's GitFsckRepos). A broken repository
 * is logged and named in the result; the task itself still finishes, as Gitea's.
 */
export async function checkRepoHealth(ctx: CronContext, s: GitTaskSettings): Promise<string> {
  const timeout = parseDuration(s.timeout);
  // Dangling objects are no fault and their listing could be long: hearth never asks for it.
  const args = ['fsck', '--no-dangling', ...splitArgs(s.args)];
  const { count, failed } = await eachRepo(ctx, 'health check', async (r, dir) => {
    // Lock files an hour old are debris of a killed git: they would block their refs for good.
    const stale = removeStaleLocks(dir, Date.now() - STALE_LOCK_MS);
    if (stale.length) ctx.log.warn({ repo: fullName(r), files: stale }, 'removed stale git lock files');
    const outcome = await runGitMaintenance(dir, args, timeout, ctx.signal);
    if (outcome.ok) return null;
    ctx.log.warn({ repo: fullName(r), problem: outcome.problem }, 'repository health check failed');
    return outcome.problem;
  });
  return report(count, failed, 'checked: all healthy', 'failed the health check');
}

/** git_gc_repos: `git gc` of every repository, then its size recorded (Gitea's GitGcRepos). */
export async function gcRepos(ctx: CronContext, s: GitTaskSettings): Promise<string> {
  const timeout = parseDuration(s.timeout);
  const args = ['gc', ...splitArgs(s.args)];
  const { count, failed } = await eachRepo(ctx, 'garbage collection', async (r, dir) => {
    const outcome = await runGitMaintenance(dir, args, timeout, ctx.signal);
    if (!outcome.ok) {
      ctx.log.error({ repo: fullName(r), problem: outcome.problem }, 'repository garbage collection failed');
      return outcome.problem;
    }
    await updateRepo(ctx.db, r.id, { size: repoSize(dir) });
    return null;
  });
  return report(count, failed, 'garbage collected', 'failed garbage collection');
}
