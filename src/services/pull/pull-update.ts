import type { PullRequest, Repository, User } from '../../db/schema';
import { updateRef } from '../../git/commit';
import { gitRun } from '../../git/exec';
import { mergeStyle, rebaseStyle } from '../../git/merge-styles';
import { revParse, zeroId } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { getRepoById } from '../../models/repo';
import { commitUnderLock } from '../repo/contents-commit';
import { dirOfRepo } from './pull-git';
import { loadPull } from './pull-views';
import { ACCESS } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import { accessOf, type RepoAccess } from '../repo/repos';
import { refsMoved } from '../repo/refs-moved';
import { signMerge } from '../signing/sign-rules';
import type { Hearth } from '../../hearth';

// POST .../pulls/{index}/update: brings the base into the head branch (a merge commit, or the
// head rebased onto the base), written in the head repository and moved with compare-and-swap.

export type UpdateStyle = 'merge' | 'rebase';

export async function updatePullBranch(h: Hearth, access: RepoAccess, doer: User, index: number, style: UpdateStyle): Promise<void> {
  const { issue, pr } = await loadPull(h, access, doer, index);
  if (pr.has_merged || issue.is_closed) throw new InvalidError('the pull request is closed or merged', 'index');
  if (style === 'rebase' && !settingsOf(access.repo).allow_rebase_update) throw new ForbiddenError('rebase updates are not allowed');
  const headRepo = await getRepoById(h.db, pr.head_repo_id);
  if (!headRepo) throw new NotFoundError('head repository does not exist');
  const head = headRepo.id === access.repo.id ? access : await accessOf(h.db, headRepo, doer);
  const maintainer = pr.allow_maintainer_edit === 1 && access.mode >= ACCESS.write;
  if (head.mode < ACCESS.write && !maintainer) throw new ForbiddenError('user may not push to the head branch');
  if (pr.commits_behind === 0) return;
  // A push to the head branch: queued with the repository's other ref writers, then followed.
  await commitUnderLock(h, head, () => rewriteHead(h, access, headRepo, doer, pr, style));
}

async function rewriteHead(h: Hearth, access: RepoAccess, headRepo: Repository, doer: User, pr: PullRequest, style: UpdateStyle): Promise<void> {
  const baseDir = await dirOfRepo(h, access.repo);
  const headDir = await dirOfRepo(h, headRepo);
  const baseSha = await revParse(baseDir, `refs/heads/${pr.base_branch}`);
  const headSha = await revParse(headDir, `refs/heads/${pr.head_branch}`);
  if (!baseSha || !headSha) throw new NotFoundError('branch does not exist');
  // A fork needs the base's objects before it can build on them.
  if (headDir !== baseDir) await gitRun(['fetch', '--no-tags', '--quiet', baseDir, `refs/heads/${pr.base_branch}`], { gitDir: headDir });
  const committer = { name: doer.full_name || doer.name, email: doer.email || `${doer.lower_name}@noreply.localhost`, date: new Date() };
  const message = `Merge branch '${pr.base_branch}' into ${pr.head_branch}\n`;
  // As Gitea, whose update merges the base into the head as a reversed pull request: merge rules.
  const signer = await signMerge(h, doer, pr, headDir, headSha, baseSha);
  const built = style === 'rebase'
    ? await rebaseStyle({ dir: headDir, base: baseSha, head: headSha, committer, author: committer, message, signer })
    : await mergeStyle({ dir: headDir, base: headSha, head: baseSha, committer, author: committer, message, signer });
  if (!built.ok) throw new ConflictError('merge failed because of conflict');
  if (!(await updateRef(headDir, `refs/heads/${pr.head_branch}`, built.commit, headSha, zeroId(headSha.length === 64 ? 'sha256' : 'sha1')))) {
    throw new ConflictError('the head branch moved during the update, try again');
  }
  await refsMoved(h.db, headRepo, doer, headDir, [{ ref: `refs/heads/${pr.head_branch}`, oldId: headSha, newId: built.commit }], 'pull-update');
}
