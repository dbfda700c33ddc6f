import type { DB } from '../../db/connect';
import type { Label, Milestone, User } from '../../db/schema';
import { canWrite, issueCtx } from '../issue/issue-access';
import { listRepoMilestones } from '../issue/milestones';
import type { RepoAccess } from '../repo/repos';
import { labelsPage } from './issue-pages-meta';

// What the issue list's filter form and bulk form choose from: the labels the repository's
// issues may carry, its milestones (open first), and whether the viewer may act on many issues.

export type ListFilters = { labels: Label[]; milestones: Milestone[]; writer: boolean };

/** Milestones offered in the filter: a repository with more filters by typing the URL. */
const MAX_MILESTONES = 100;

export async function issueListFilters(db: DB, access: RepoAccess, doer: User | null): Promise<ListFilters> {
  const ctx = await issueCtx(db, access, doer);
  const [labels, open, closed] = await Promise.all([
    labelsPage(db, access),
    listRepoMilestones(db, ctx, { state: 'open', offset: 0, limit: MAX_MILESTONES }),
    listRepoMilestones(db, ctx, { state: 'closed', offset: 0, limit: MAX_MILESTONES }),
  ]);
  return {
    labels: [...labels.repo, ...labels.org],
    milestones: [...open.milestones, ...closed.milestones],
    writer: !!doer && canWrite(ctx, false) && !access.repo.is_archived,
  };
}
