import type { DB } from '../../db/connect';
import type { Label, Milestone, User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { listScopedLabels } from '../issue/labels';
import { findMilestone, listRepoMilestones } from '../issue/milestones';
import { ORG_TYPE } from '../permissions';
import { listRepoLabels } from '../issue/repo-labels';
import type { RepoAccess } from '../repo/repos';
import { issueListPage, PAGE_SIZE, renderText, type ListPage, type ListState } from './issue-pages';
import type { Hearth } from '../../hearth';

// The labels and milestones pages: the repository's labels (and its organization's, which its
// issues may carry too) and milestones, each milestone with its issues and pull requests.

/** Labels listed on the page: a repository with more has a labelling problem, not a paging one. */
const MAX_LABELS = 1000;

export type LabelsPage = { repo: Label[]; org: Label[] };
export type MilestonesPage = { milestones: Milestone[]; total: number; hasMore: boolean };
export type MilestonePage = { milestone: Milestone; description: string; list: ListPage };

export async function labelsPage(db: DB, access: RepoAccess): Promise<LabelsPage> {
  const all = { offset: 0, limit: MAX_LABELS };
  const repo = (await listRepoLabels(db, access, undefined, all)).labels;
  const org = access.owner.type === ORG_TYPE ? (await listScopedLabels(db, { orgId: access.owner.id }, undefined, all)).labels : [];
  return { repo, org };
}

export async function milestonesPage(db: DB, access: RepoAccess, state: ListState, page: number): Promise<MilestonesPage> {
  const offset = (page - 1) * PAGE_SIZE;
  const { milestones, total } = await listRepoMilestones(db, access, { state, offset, limit: PAGE_SIZE });
  return { milestones, total, hasMore: offset + milestones.length < total };
}

/** `/milestone/{id}`: by id only, as Gitea's web route (the API also takes names). */
export async function milestonePage(
  h: Hearth, access: RepoAccess, doer: User | null, id: number, q: { state: ListState; page: number },
): Promise<MilestonePage> {
  const milestone = await findMilestone(h.db, access.repo.id, String(id));
  if (milestone.id !== id) throw new NotFoundError();
  const list = await issueListPage(h, access, doer, { ...q, labelIds: [], milestoneId: id });
  return { milestone, description: await renderText(h, doer, access, milestone.content), list };
}
