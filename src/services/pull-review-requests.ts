import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { InvalidError, NotFoundError } from '../lib/errors';
import { nowUnix } from '../lib/time';
import { deleteReviewRequest, insertReview, REVIEW_TYPE, reviewRequests } from '../models/review';
import { usersByNames } from '../models/user-lookup';
import { assertWriter } from './issue-access';
import { loadPull } from './pull-views';
import { ACCESS, accessMode } from './permissions';
import type { ReviewView } from './pull-reviews';
import type { RepoAccess } from './repos';

// POST/DELETE .../pulls/{index}/requested_reviewers: review requests are review rows of type
// REQUEST_REVIEW (as Gitea). Team requests are accepted and ignored: teams are not stored here.

async function reviewersByName(db: DB, access: RepoAccess, posterId: number, names: string[]): Promise<User[]> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  const users = await usersByNames(db, wanted);
  const missing = wanted.find((n) => !users.some((u) => u.lower_name === n));
  if (missing) throw new NotFoundError(`user does not exist [name: ${missing}]`);
  for (const u of users) {
    if (u.id === posterId) throw new InvalidError('poster of pr can\'t be reviewer', 'reviewers');
    if ((await accessMode(db, u, access.repo, access.owner)) < ACCESS.read) throw new InvalidError(`reviewer ${u.name} cannot read the repository`, 'reviewers');
  }
  return users;
}

export async function requestReviews(db: DB, config: Config, access: RepoAccess, doer: User, index: number, names: string[]): Promise<ReviewView[]> {
  const loaded = await loadPull(db, config, access, doer, index, false);
  assertWriter(loaded.ctx, true);
  const users = await reviewersByName(db, access, loaded.issue.poster_id, names);
  const existing = new Set((await reviewRequests(db, [loaded.issue.id])).map((r) => r.reviewer_id));
  const now = nowUnix();
  const out: ReviewView[] = [];
  for (const u of users) {
    if (existing.has(u.id)) continue;
    const review = await insertReview(db, {
      type: REVIEW_TYPE.request, reviewer_id: u.id, issue_id: loaded.issue.id, commit_id: loaded.pr.head_commit_id, created_unix: now, updated_unix: now,
    });
    out.push({ review, reviewer: u, comments: [], loaded });
  }
  return out;
}

export async function cancelReviewRequests(db: DB, config: Config, access: RepoAccess, doer: User, index: number, names: string[]): Promise<void> {
  const loaded = await loadPull(db, config, access, doer, index, false);
  assertWriter(loaded.ctx, true);
  for (const u of await reviewersByName(db, access, loaded.issue.poster_id, names)) await deleteReviewRequest(db, loaded.issue.id, u.id);
}
