import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf, type Dialect } from '../db/dialect';
import type { Database, Issue, User } from '../db/schema';
import { visibleRepoIds } from './repo-search';
import { likeContaining } from '../lib/like';
import { COUNTED_COMMENT_TYPES } from '../lib/comment-type';
import { REVIEW_TYPE } from './review';

// Issue listing and search as SQL: every filter of Gitea's IssuesOptions that hearth keeps.

/** The repositories searched across: those the viewer may see, narrowed by owner or team. */
export type RepoScope = {
  viewer: User | null;
  publicOnly: boolean;
  ownerId?: number;
  teamId?: number;
};

export type IssueFilter = {
  repoId?: number;
  /** Issues of these repositories only (the dashboard's "in your repositories"). */
  repoIds?: number[];
  scope?: RepoScope;
  isClosed?: boolean;
  isPull?: boolean;
  /** Issues carrying any of these labels. */
  labelIds?: number[];
  milestoneIds?: number[];
  keyword?: string;
  posterId?: number;
  assigneeId?: number;
  /** Lower-case user name mentioned (`@name`) in the body or a comment. */
  mentioned?: string;
  updatedSince?: number;
  updatedBefore?: number;
  /** Pull requests whose review is asked of this user (or a team of theirs) and not yet given. */
  reviewRequestedId?: number;
  /** Pull requests this user reviewed or commented on (not their own). */
  reviewedId?: number;
  /** When true, nothing matches (a filter that cannot match). */
  none?: boolean;
  /** Search: this repository's issues first. */
  priorityRepoId?: number;
  /** Pull requests into this base branch. */
  baseBranch?: string;
  /** Gitea's sort names (`oldest`, `recentupdate`, ...); anything else is newest first. */
  sort?: string;
};

type EB = ExpressionBuilder<Database & { i: Database['issue'] }, 'i'>;


/**
 * Substring match on title and body: the trigram index for three characters or more, LIKE
 * below that; a number also matches the issue number (as Gitea's database indexer).
 */
function keywordCondition(eb: EB, d: Dialect, keyword: string) {
  const parts = [];
  if ([...keyword].length >= 3) {
    parts.push(d.issueText('i.id', keyword));
  } else {
    const like = likeContaining(keyword);
    parts.push(eb.or([d.likeInsensitive('i.title', like), d.likeInsensitive('i.content', like)]));
  }
  if (/^\d+$/.test(keyword) && Number.isSafeInteger(Number(keyword))) parts.push(eb('i.index', '=', Number(keyword)));
  return eb.or(parts);
}

/** `@name` preceded by a space or bracket and not followed by a name character. */
function mentionCondition(eb: EB, d: Dialect, name: string) {
  const inText = (col: string) => d.mentions(col, name);
  return eb.or([
    inText('i.content'),
    eb.exists(eb.selectFrom('comment as mc').select('mc.id').whereRef('mc.issue_id', '=', 'i.id')
      .where('mc.type', '=', 0).where(inText('mc.content'))),
  ]);
}

const { approve: APPROVE, reject: REJECT, request: REQUEST } = REVIEW_TYPE;
const teamsOf = (eb: EB, uid: number) => eb.selectFrom('team_user').select('team_id').where('uid', '=', uid);

/**
 * Gitea's applyReviewRequestedCondition: a request to the user or one of their teams that is
 * still the latest word of that reviewer (an approval or rejection after it answers it).
 */
function reviewRequestedCondition(eb: EB, uid: number) {
  const latest = eb.selectFrom('review as lr').select((e) => e.fn.max('lr.id').as('id'))
    .where('lr.type', 'in', [APPROVE, REJECT, REQUEST]).groupBy(['lr.issue_id', 'lr.reviewer_id', 'lr.reviewer_team_id']);
  const asked = eb.selectFrom('review as rq').select('rq.issue_id').where('rq.type', '=', REQUEST)
    .where((e) => e.or([e('rq.reviewer_id', '=', uid), e('rq.reviewer_team_id', 'in', teamsOf(eb, uid))]))
    .where('rq.id', 'in', latest);
  return eb.and([eb('i.poster_id', '!=', uid), eb('i.id', 'in', asked)]);
}

/** Gitea's applyReviewedCondition: reviewed or commented by the user, who did not open it. */
function reviewedCondition(eb: EB, uid: number) {
  const reviewed = eb.selectFrom('review as rv').select('rv.issue_id').where('rv.type', '!=', REQUEST)
    .where((e) => e.or([e('rv.reviewer_id', '=', uid), e('rv.reviewer_team_id', 'in', teamsOf(eb, uid))]));
  const commented = eb.selectFrom('comment as rc').select('rc.issue_id').where('rc.poster_id', '=', uid).where('rc.type', 'in', COUNTED_COMMENT_TYPES);
  return eb.and([eb('i.poster_id', '!=', uid), eb.or([eb('i.id', 'in', reviewed), eb('i.id', 'in', commented)])]);
}

/** Repositories in scope whose issues (or pulls) unit is on: a missing switch means on. */
function scopeRepos(db: DB, scope: RepoScope, unit: 'has_issues' | 'has_pull_requests') {
  let repos = visibleRepoIds(db, scope.viewer, scope.publicOnly)
    .where(dialectOf(db).jsonFlag('r.settings', unit, true));
  if (scope.ownerId !== undefined) repos = repos.where('r.owner_id', '=', scope.ownerId);
  if (scope.teamId !== undefined) {
    const teamId = scope.teamId;
    repos = repos.where((eb) => eb.or([
      eb.exists(eb.selectFrom('team').select('team.id').where('team.id', '=', teamId).where('team.includes_all_repositories', '=', 1)),
      eb('r.id', 'in', eb.selectFrom('team_repo').select('team_repo.repo_id').where('team_repo.team_id', '=', teamId)),
    ]));
  }
  return repos;
}

function filtered(db: DB, f: IssueFilter) {
  let q = db.selectFrom('issue as i');
  if (f.none) q = q.where(sql<SqlBool>`1 = 0`);
  if (f.repoId !== undefined) q = q.where('i.repo_id', '=', f.repoId);
  if (f.repoIds) q = f.repoIds.length ? q.where('i.repo_id', 'in', f.repoIds) : q.where(sql<SqlBool>`1 = 0`);
  if (f.scope) {
    const scope = f.scope;
    q = q.where((eb) => eb.or([
      eb.and([eb('i.is_pull', '=', 0), eb('i.repo_id', 'in', scopeRepos(db, scope, 'has_issues'))]),
      eb.and([eb('i.is_pull', '=', 1), eb('i.repo_id', 'in', scopeRepos(db, scope, 'has_pull_requests'))]),
    ]));
  }
  if (f.isClosed !== undefined) q = q.where('i.is_closed', '=', f.isClosed ? 1 : 0);
  if (f.isPull !== undefined) q = q.where('i.is_pull', '=', f.isPull ? 1 : 0);
  if (f.labelIds?.length) {
    const ids = f.labelIds;
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_label as il').select('il.id')
      .whereRef('il.issue_id', '=', 'i.id').where('il.label_id', 'in', ids)));
  }
  if (f.milestoneIds?.length) q = q.where('i.milestone_id', 'in', f.milestoneIds);
  if (f.keyword) {
    const kw = f.keyword;
    q = q.where((eb) => keywordCondition(eb as unknown as EB, dialectOf(db), kw));
  }
  if (f.posterId !== undefined) q = q.where('i.poster_id', '=', f.posterId);
  if (f.assigneeId !== undefined) {
    const uid = f.assigneeId;
    q = q.where('i.id', 'in', (eb) => eb.selectFrom('issue_assignee').select('issue_id').where('assignee_id', '=', uid));
  }
  if (f.mentioned) {
    const name = f.mentioned;
    q = q.where((eb) => mentionCondition(eb as unknown as EB, dialectOf(db), name));
  }
  if (f.reviewRequestedId !== undefined) {
    const uid = f.reviewRequestedId;
    q = q.where((eb) => reviewRequestedCondition(eb as unknown as EB, uid));
  }
  if (f.reviewedId !== undefined) {
    const uid = f.reviewedId;
    q = q.where((eb) => reviewedCondition(eb as unknown as EB, uid));
  }
  if (f.updatedSince !== undefined) q = q.where('i.updated_unix', '>=', f.updatedSince);
  if (f.updatedBefore !== undefined) q = q.where('i.updated_unix', '<=', f.updatedBefore);
  if (f.baseBranch !== undefined) {
    const branch = f.baseBranch;
    q = q.where('i.id', 'in', (eb) => eb.selectFrom('pull_request').select('issue_id').where('base_branch', '=', branch));
  }
  return q;
}

type SortKey = ['i.created_unix' | 'i.updated_unix' | 'i.closed_unix' | 'i.num_comments', 'asc' | 'desc'];

/** Gitea's applySorts: each order ends on creation time and id. */
const SORTS: Record<string, SortKey[]> = {
  oldest: [['i.created_unix', 'asc']],
  recentupdate: [['i.updated_unix', 'desc']],
  leastupdate: [['i.updated_unix', 'asc']],
  recentclose: [['i.closed_unix', 'desc']],
  mostcomment: [['i.num_comments', 'desc']],
  leastcomment: [['i.num_comments', 'asc']],
};

/** Newest first (Gitea's default), the priority repository's first when asked. */
export async function findIssues(db: DB, f: IssueFilter, page: { offset: number; limit: number }): Promise<Issue[]> {
  let q = filtered(db, f).selectAll('i');
  if (f.priorityRepoId) q = q.orderBy(sql`CASE WHEN i.repo_id = ${f.priorityRepoId} THEN 0 ELSE 1 END`);
  const keys = SORTS[f.sort ?? ''] ?? [];
  for (const [col, dir] of keys) q = q.orderBy(col, dir);
  const tail = f.sort === 'oldest' || f.sort === 'leastupdate' ? 'asc' : 'desc';
  if (f.sort !== 'oldest') q = q.orderBy('i.created_unix', tail);
  return q.orderBy('i.id', tail).limit(page.limit).offset(page.offset).execute();
}

export async function countIssues(db: DB, f: IssueFilter): Promise<number> {
  const row = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
