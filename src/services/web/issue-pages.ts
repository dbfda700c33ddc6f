import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import type { PullView } from '../../convert/pull';
import { REVIEW_TYPE } from '../../models/review';
import { listIssueComments } from '../issue/comments';
import { issueCtx, readableIssue } from '../issue/issue-access';
import { listRepoIssues } from '../issue/issue-list';
import type { CommentView, IssueView } from '../issue/issue-views';
import { renderMarkup, renderStoredMarkup, type StoredText } from '../markdown';
import { listPullReviewsWithTeams } from '../pull/pull-review-requests';
import { pullView, pullViews } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import type { TeamReviewView } from '../pull/review-teams';
import type { Hearth } from '../../hearth';

// What the issue and pull request pages show, gathered with the API's own services so a page
// shows exactly what the API would answer the same visitor (same permission checks, same 404s).
// Markdown is rendered here: the renderer escapes raw HTML, so its output is trusted markup.

export const PAGE_SIZE = 20;
/** Reviews of one pull request shown on its page; more than this is not a conversation. */
const MAX_REVIEWS = 500;

export type ListState = 'open' | 'closed' | 'all';
export type ListQuery = {
  /** Both kinds the visitor reads when not given (a milestone's page). */
  kind?: 'issues' | 'pulls'; state: ListState; page: number; labelIds: number[]; milestoneId?: number; keyword?: string;
  /** User names: the author, the assignee (an unknown name lists nothing). */
  poster?: string; assignee?: string;
  /** Gitea's sort names (oldest, recentupdate, mostcomment...); newest first otherwise. */
  sort?: string;
};
export type ListRow = { view: IssueView; pull?: PullView };
export type ListPage = { rows: ListRow[]; total: number; hasMore: boolean };

/** A row with its markdown rendered to HTML. */
export type Rendered<T> = { view: T; html: string };

export type ReviewEntry = Rendered<TeamReviewView> & { verdict: string };
export type PullPage = { kind: 'pull'; pull: PullView; body: string; comments: Rendered<CommentView>[]; reviews: ReviewEntry[] };
/** The index names the other kind: the page redirects there, as Gitea. */
export type Moved = { kind: 'moved'; to: 'issues' | 'pulls' };

/** Issue references (#N) resolve against this repository, as in Gitea's comment mode. */
export function renderText(h: Hearth, viewer: User | null, access: RepoAccess, text: string): Promise<string> {
  if (!text.trim()) return Promise.resolve('');
  const context = `${access.owner.name}/${access.repo.name}`;
  return renderMarkup(h, viewer, { text, mode: 'comment', context, filePath: '', wiki: false });
}

/** Each row's text, rendered once per edit (cached by the row's id and update time). */
async function renderAll<T>(
  h: Hearth, viewer: User | null, access: RepoAccess, rows: T[], text: (t: T) => string, stored: (t: T) => StoredText,
): Promise<Rendered<T>[]> {
  const out: Rendered<T>[] = [];
  const context = `${access.owner.name}/${access.repo.name}`;
  for (const view of rows) {
    const body = text(view);
    const html = body.trim() ? await renderStoredMarkup(h, viewer, stored(view), { text: body, mode: 'comment', context, filePath: '', wiki: false }) : '';
    out.push({ view, html });
  }
  return out;
}

/** `/issues` and `/pulls` (and a milestone's issues): one page of the listing; pulls carry their branches. */
export async function issueListPage(h: Hearth, access: RepoAccess, doer: User | null, q: ListQuery): Promise<ListPage> {
  const page = { offset: (q.page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  const { views, total } = await listRepoIssues(h.db, access, doer, {
    type: q.kind, state: q.state, q: q.keyword, page, labelIds: q.labelIds, milestoneIds: q.milestoneId ? [q.milestoneId] : undefined,
    created_by: q.poster, assigned_by: q.assignee, sort: q.sort,
  }).catch((err: unknown) => {
    // A filter naming nobody: nothing matches (the API's 404 is about its parameter).
    if (err instanceof NotFoundError && (q.poster || q.assignee)) return { views: [], total: 0 };
    throw err;
  });
  const pulls = q.kind === 'pulls' ? await pullViews(h, access, views.map((v) => v.issue), doer) : [];
  const pullOf = new Map(pulls.map((p) => [p.issue.issue.id, p]));
  const rows = views.map((view) => ({ view, pull: pullOf.get(view.issue.id) }));
  return { rows, total, hasMore: page.offset + views.length < total };
}

const VERDICTS: Record<number, string> = {
  [REVIEW_TYPE.pending]: 'started a review', [REVIEW_TYPE.approve]: 'approved these changes',
  [REVIEW_TYPE.comment]: 'reviewed', [REVIEW_TYPE.reject]: 'requested changes', [REVIEW_TYPE.request]: 'was asked to review',
};

/** `/pulls/{index}`: the pull request, its comments and reviews; an issue is elsewhere. */
export async function pullPage(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<PullPage | Moved> {
  const issue = await readableIssue(h.db, await issueCtx(h.db, access, doer), index);
  if (!issue.is_pull) return { kind: 'moved', to: 'issues' };
  const [pull, comments, reviews] = await Promise.all([
    pullView(h, access, issue, doer),
    listIssueComments(h.db, access, doer, index, {}),
    listPullReviewsWithTeams(h, access, doer, index, { offset: 0, limit: MAX_REVIEWS }),
  ]);
  const rendered = await renderAll(h, doer, access, reviews.views, (r) => r.review.content, (r) => ({ kind: 'review', id: r.review.id, updatedUnix: r.review.updated_unix }));
  return {
    kind: 'pull', pull, body: await renderText(h, doer, access, issue.content),
    comments: await renderAll(h, doer, access, comments.views, (c) => c.comment.content, (c) => ({ kind: 'comment', id: c.comment.id, updatedUnix: c.comment.updated_unix })),
    reviews: rendered.map((r) => ({ ...r, verdict: VERDICTS[r.view.review.type] ?? 'reviewed' })),
  };
}
