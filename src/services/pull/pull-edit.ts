import type { User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import { revParse } from '../../git/repo';
import { ConflictError, ForbiddenError, NotFoundError, PreconditionFailedError } from '../../lib/errors';
import { getIssueById } from '../../models/issue';
import { findOpenPull, updatePull } from '../../models/pull';
import { canWrite } from '../issue/issue-access';
import { editIssue, type EditIssueInput } from '../issue/issue-edit';
import { replaceIssueLabels } from '../issue/issue-labels';
import { listRepoIssues } from '../issue/issue-list';
import { dirOfRepo, refreshPull } from './pull-git';
import { loadPull, pullView, pullViews } from './pull-views';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

export type EditPullInput = EditIssueInput & { base?: string; labels?: number[]; allow_maintainer_edit?: boolean };

async function changeBase(h: Hearth, access: RepoAccess, index: number, doer: User, base: string): Promise<void> {
  const { ctx, pr } = await loadPull(h, access, doer, index, false);
  if (pr.base_branch === base) return;
  if (!canWrite(ctx, true)) throw new ForbiddenError('only writers may change the base branch');
  if (pr.has_merged) throw new PreconditionFailedError('cannot change base of a merged pull request');
  if (!(await revParse(await dirOfRepo(h, access.repo), `refs/heads/${base}`))) throw new NotFoundError(`base branch does not exist [name: ${base}]`);
  if (await findOpenPull(h.db, pr.head_repo_id, pr.head_branch, pr.base_repo_id, base)) {
    throw new ConflictError('pull request already exists for these targets');
  }
  await updatePull(h.db, pr.id, { base_branch: base, status: 'checking' });
}

/** PATCH /repos/{owner}/{repo}/pulls/{index}: the issue fields, then base, labels and maintainer edits. */
export async function editPull(h: Hearth, access: RepoAccess, doer: User, index: number, input: EditPullInput): Promise<PullView> {
  const { ctx, pr } = await loadPull(h, access, doer, index, false);
  if (input.state === 'open' && pr.has_merged) throw new PreconditionFailedError('cannot change state of this pull request, it was already merged');
  if (input.state === 'open') {
    const other = await findOpenPull(h.db, pr.head_repo_id, pr.head_branch, pr.base_repo_id, input.base ?? pr.base_branch);
    if (other && other.id !== pr.id) throw new ConflictError('a pull request for these branches is already open');
  }
  if (input.base !== undefined) await changeBase(h, access, index, doer, input.base);
  await editIssue(h.db, access, doer, index, input);
  if (input.labels && canWrite(ctx, true)) await replaceIssueLabels(h.db, access, doer, index, input.labels);
  if (input.allow_maintainer_edit !== undefined) {
    const headAuthor = (await getIssueById(h.db, pr.issue_id))?.poster_id === doer.id;
    if (!headAuthor && !canWrite(ctx, true)) throw new ForbiddenError('only the poster may allow maintainer edits');
    await updatePull(h.db, pr.id, { allow_maintainer_edit: input.allow_maintainer_edit ? 1 : 0 });
  }
  const fresh = await loadPull(h, access, doer, index, false);
  await refreshPull(h, fresh.pr);
  return pullView(h, access, (await getIssueById(h.db, pr.issue_id))!, doer);
}

export type PullListQuery = {
  state?: string; sort?: string; milestone?: number; labels?: number[]; poster?: string; baseBranch?: string;
  page: { offset: number; limit: number };
};

/** GET /repos/{owner}/{repo}/pulls (the issue listing restricted to pulls). */
export async function listPulls(h: Hearth, access: RepoAccess, doer: User | null, q: PullListQuery): Promise<{ views: PullView[]; total: number }> {
  const { views, total } = await listRepoIssues(h.db, access, doer, {
    type: 'pulls', state: q.state ?? 'open', page: q.page, created_by: q.poster, sort: q.sort,
    labelIds: q.labels, baseBranch: q.baseBranch, milestones: q.milestone ? String(q.milestone) : undefined,
  });
  return { views: await pullViews(h, access, views.map((v) => v.issue), doer), total };
}
