import { ghostUser } from '../../../convert/issue';
import type { User } from '../../../db/schema';
import { getRepoById } from '../../../models/repo';
import { getUserById } from '../../../models/user';
import { runAsActor, SYSTEM_ACTOR } from '../../audit/actor';
import { ACCESS } from '../../permissions';
import { findReposWithoutDirectory, reinitRepository, type MissingRepo } from '../../repo/missing-repos';
import { deleteRepository } from '../../repo/repo-edit';
import type { CronContext } from '../types';

const fullName = (r: MissingRepo) => `${r.ownerName}/${r.name}`;

/** Gitea's doer of a task run by the scheduler or the API: the sender of what the run emits. */
const cronDoer = (): User => ({ ...ghostUser(), id: -1, name: '(Cron)', lower_name: '(cron)' });

/**
 * Applies `fn` to every repository without a directory, in turn. One that fails is logged and
 * counted, and the others go on (as Gitea); the scheduler stopping ends the run between two.
 */
async function eachMissing(ctx: CronContext, what: string, fn: (r: MissingRepo) => Promise<void>) {
  const failed: string[] = [];
  const missing = await findReposWithoutDirectory(ctx.db, ctx.config);
  for (const r of missing) {
    if (ctx.signal.aborted) throw new Error(`cancelled before the ${what} of ${fullName(r)}`);
    try {
      await fn(r);
    } catch (err) {
      ctx.log.error({ repo: fullName(r), err }, `repository ${what} failed`);
      failed.push(`${fullName(r)}: ${(err as Error).message}`);
    }
  }
  const done = missing.length - failed.length;
  return { done, failed: failed.length ? `; ${failed.length} failed: ${failed.join('; ')}` : '' };
}

/** reinit_missing_repos (Gitea's ReinitMissingRepositories): an empty repository for each row without one. */
export async function reinitMissingRepos(ctx: CronContext): Promise<string> {
  const { done, failed } = await eachMissing(ctx, 'reinitialisation', async (r) => {
    const repo = await getRepoById(ctx.db, r.id);
    if (!repo) return; // deleted since the listing
    await reinitRepository(ctx, repo);
    ctx.log.warn({ repo: fullName(r) }, 'missing repository reinitialised empty');
  });
  return `reinitialised ${done} repositories without a directory as empty ones${failed}`;
}

/**
 * delete_missing_repos (Gitea's DeleteMissingRepositories): each row without a directory goes
 * through the ordinary deletion, as the system (audit) and Gitea's cron doer (events).
 */
export async function deleteMissingRepos(ctx: CronContext): Promise<string> {
  const doer = cronDoer();
  const { done, failed } = await eachMissing(ctx, 'deletion', async (r) => {
    const repo = await getRepoById(ctx.db, r.id);
    const owner = repo && (await getUserById(ctx.db, repo.owner_id));
    if (!repo || !owner) return;
    // A manual run starts inside the admin's request: the deletion is still the system's.
    await runAsActor(SYSTEM_ACTOR, () => deleteRepository(ctx, { repo, owner, mode: ACCESS.owner }, doer));
    ctx.log.warn({ repo: fullName(r) }, 'repository without a directory deleted');
  });
  return `deleted ${done} repositories without a directory${failed}`;
}
