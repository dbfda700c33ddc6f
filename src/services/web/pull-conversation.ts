import type { Review, Team, User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import { pendingReviewOf } from '../../models/review-thread';
import { mergeBox, type MergeBox } from '../pull/pull-merge-box';
import { pullPerms, type PullPerms } from '../pull/pull-perms';
import { teamReviewerCandidates } from '../pull/pull-review-requests';
import { listReviewers } from '../pull/pulls';
import { loadPull } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import { REVIEW_TYPE } from '../../models/review';
import { pullPage, type Moved, type PullPage, type ReviewEntry } from './issue-pages';
import type { Hearth } from '../../hearth';

// The conversation tab of a pull request: the page the API's html_url points at, with the
// merge box, what the visitor may do, and who may be asked for a review.

export type ConversationPage = PullPage & {
  box: MergeBox;
  perms: PullPerms;
  /** Users and teams a review may be asked of (for those who may ask). */
  candidates: { users: User[]; teams: Team[] };
  /** The visitor's own pending review, if they started one. */
  pending: Review | undefined;
  /** Submitted reviews, for the timeline (pending ones are finished on the files tab, requests are the sidebar's). */
  submitted: ReviewEntry[];
  /** Each reviewer's latest verdict, for the sidebar. */
  verdicts: ReviewEntry[];
};

/** `owner:branch` when the head is another repository's, as Gitea shows a fork's head. */
export function headLabelOf(p: PullView): string {
  const fork = p.pr.head_repo_id !== p.base.repo.id;
  return fork && p.head ? `${p.head.owner.name}:${p.pr.head_branch}` : p.pr.head_branch;
}

export async function conversationPage(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<ConversationPage | Moved> {
  const page = await pullPage(h, access, doer, index);
  if (page.kind === 'moved') return page;
  const loaded = await loadPull(h, access, doer, index, false);
  const perms = await pullPerms(h.db, access, loaded);
  const [box, users, teams, pending] = await Promise.all([
    mergeBox(h, access, loaded, headLabelOf(page.pull)),
    perms.requestReviews ? listReviewers(h.db, access) : Promise.resolve([]),
    perms.requestReviews ? teamReviewerCandidates(h.db, access) : Promise.resolve([]),
    doer ? pendingReviewOf(h.db, loaded.issue.id, doer.id) : Promise.resolve(undefined),
  ]);
  const submitted = page.reviews.filter((r) => r.view.review.type !== REVIEW_TYPE.pending && r.view.review.type !== REVIEW_TYPE.request);
  const latest = new Map(submitted.filter((r) => r.view.review.reviewer_id).map((r) => [r.view.review.reviewer_id, r]));
  return {
    ...page, box, perms, candidates: { users: users.filter((u) => u.id !== loaded.issue.poster_id), teams }, pending,
    submitted, verdicts: [...latest.values()],
  };
}
