import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { deleteRef, updateRef } from '../../git/commit';
import { git } from '../../git/exec';
import { mergeStyle } from '../../git/merge-styles';
import { isAncestor, refTarget } from '../../git/refs';
import { repoDir, zeroId } from '../../git/repo';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { getRepoById } from '../../models/repo';
import { ACCESS } from '../permissions';
import { checkBranchProtection } from './branch-protection';
import { commitUnderLock, signatures } from './contents-commit';
import { dirOfRepo } from './contents-paths';
import { refsMoved } from './refs-moved';
import { accessOf, unitModeOf, type RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

// POST /repos/{owner}/{repo}/merge-upstream (Gitea's MergeUpstream): brings the parent's branch
// into a fork's branch, fast-forward when the fork has nothing of its own, else a merge commit.

export type MergeUpstreamInput = { branch: string; ffOnly: boolean };
export type MergeUpstreamType = 'up-to-date' | 'fast-forward' | 'merge';

/** Where the parent's tip is fetched to; one sync per fork at a time (the refs lock), so one name does. */
const UPSTREAM_REF = 'refs/hearth/merge-upstream';

const branchMissing = (repoId: number, name: string) => new NotFoundError(`branch does not exist [repo_id: ${repoId} name: ${name}]`);

type Upstream = { access: RepoAccess; dir: string; branch: string };

/**
 * The parent and the branch to take from it: the same name when the parent has it, else the
 * parent's default branch (as Gitea, after GitHub). Unlike Gitea, a caller who can no longer
 * read the parent's code gets nothing from it.
 */
async function upstreamOf(h: Hearth, fork: RepoAccess, doer: User, branch: string): Promise<Upstream> {
  const parent = fork.repo.is_fork && fork.repo.fork_id ? await getRepoById(h.db, fork.repo.fork_id) : undefined;
  if (!parent) throw new BadRequestError('repo is not a fork');
  const access = await accessOf(h.db, parent, doer);
  if (access.mode === ACCESS.none || (await unitModeOf(h.db, access, doer, 'repo.code')) < ACCESS.read) {
    throw new NotFoundError(`repository does not exist [id: ${parent.id}]`);
  }
  const dir = repoDir(h.config.repository.root, access.owner.name, parent.name);
  if (await refTarget(dir, `refs/heads/${branch}`)) return { access, dir, branch };
  if (await refTarget(dir, `refs/heads/${parent.default_branch}`)) return { access, dir, branch: parent.default_branch };
  throw branchMissing(parent.id, parent.default_branch);
}

/**
 * Syncs `branch` of the fork `access` from its parent. Answers Gitea's merge_type: 'up-to-date'
 * (nothing new upstream), 'fast-forward' or 'merge'.
 */
export async function mergeUpstream(
  h: Hearth, access: RepoAccess, doer: User, input: MergeUpstreamInput,
): Promise<MergeUpstreamType> {
  if (!access.repo.is_fork || !access.repo.fork_id) throw new BadRequestError('repo is not a fork');
  const dir = dirOfRepo(h.config, access);
  // The fork's branch first, as Gitea: a missing one is 404 whatever the parent holds.
  if (!(await refTarget(dir, `refs/heads/${input.branch}`))) throw branchMissing(access.repo.id, input.branch);
  const upstream = await upstreamOf(h, access, doer, input.branch);
  return commitUnderLock(h, access, () => syncBranch(h, access, doer, dir, upstream, input));
}

async function syncBranch(
  h: Hearth, access: RepoAccess, doer: User, dir: string, up: Upstream, input: MergeUpstreamInput,
): Promise<MergeUpstreamType> {
  const ref = `refs/heads/${input.branch}`;
  const ours = await refTarget(dir, ref);
  if (!ours) throw branchMissing(access.repo.id, input.branch);
  // A named ref keeps exactly the fetched tip (and its objects) while it is looked at.
  await git(['fetch', '--no-tags', '--quiet', '--no-write-fetch-head', up.dir, `+refs/heads/${up.branch}:${UPSTREAM_REF}`], { gitDir: dir });
  try {
    const theirs = await refTarget(dir, UPSTREAM_REF);
    if (!theirs) throw branchMissing(up.access.repo.id, up.branch);
    if (await isAncestor(dir, theirs, ours)) return 'up-to-date';
    if (await isAncestor(dir, ours, theirs)) {
      await land(h.db, access, doer, dir, ref, ours, theirs);
      return 'fast-forward';
    }
    if (input.ffOnly) throw new BadRequestError('fast-forward merge not possible: branch has diverged');
    const { committer } = signatures(h.config, doer, { dates: { committer: new Date() } });
    const built = await mergeStyle({ dir, base: ours, head: theirs, committer, author: committer, message: 'merge upstream' });
    if (!built.ok) throw new ConflictError(`merge failed because of conflict [${built.conflicts.join(', ')}]`);
    await land(h.db, access, doer, dir, ref, ours, built.commit);
    return 'merge';
  } finally {
    await deleteRef(dir, UPSTREAM_REF).catch(() => undefined);
  }
}

/**
 * Moves the fork's branch as a push by the caller would: protected-branch rules first (Gitea
 * pushes through its hooks), then a compare-and-swap, then the one "refs moved" path.
 */
async function land(db: DB, access: RepoAccess, doer: User, dir: string, ref: string, oldId: string, newId: string): Promise<void> {
  const update = { ref, oldId, newId };
  const refusal = await checkBranchProtection(db, access, doer, { dir, env: {} }, [update]);
  if (refusal) throw new ForbiddenError(refusal);
  if (!(await updateRef(dir, ref, newId, oldId, zeroId(access.repo.object_format_name)))) {
    throw new ConflictError(`branch ${ref.slice('refs/heads/'.length)} was updated meanwhile, try again`);
  }
  await refsMoved(db, access.repo, doer, dir, [update], 'pull-update');
}
