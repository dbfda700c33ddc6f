import type { DB } from '../../../db/connect';
import type { Issue } from '../../../db/schema';
import { gitRun } from '../../../git/exec';
import { refTarget } from '../../../git/refs';
import { COMMENT_TYPE } from '../../../lib/comment-type';
import { insertComment } from '../../../models/comment';
import { insertPull } from '../../../models/pull';
import { insertReview, REVIEW_TYPE } from '../../../models/review';
import { unix, type ImportContext, type SourceUser } from './context';
import { addCounts, fetchExtras, primeAuthors, writePage, type Fetched, type RowCounts, type SourceIssue } from './issue-rows';

// Pull requests (Gitea's GetPullRequests / CreatePullRequests / CreateReviews): an issue row with
// is_pull, a pull_request row with the branches and the merge record, the head commit kept as
// refs/pull/N/head, and the submitted reviews.

type Branch = { ref?: string; sha?: string; repo_id?: number; repo?: { id?: number; full_name?: string } | null };
type SourcePull = SourceIssue & {
  merged?: boolean; merged_at?: string | null; merge_commit_sha?: string | null; merged_by?: SourceUser;
  merge_base?: string; head?: Branch; base?: Branch;
};
type SourceReview = {
  id: number; user: SourceUser; state: string; body?: string; commit_id?: string; stale?: boolean; dismissed?: boolean;
  official?: boolean; submitted_at?: string; updated_at?: string;
};
type FetchedPull = Fetched<SourcePull> & { reviews: SourceReview[] };

const TYPE_OF_STATE: Record<string, number> = {
  APPROVED: REVIEW_TYPE.approve, REQUEST_CHANGES: REVIEW_TYPE.reject, COMMENT: REVIEW_TYPE.comment,
};

export type PullCounts = RowCounts & { reviews: number; missingHeads: number };

// Gogs and old Gitea have no reviews.
const fetchReviews = (ctx: ImportContext, number: number) => ctx.client.allOrNone<SourceReview>(`/pulls/${number}/reviews`);

/** A pull request from another repository keeps the branch name Gitea gives it: `owner/branch`. */
function headBranch(ctx: ImportContext, pull: SourcePull): string {
  const ref = pull.head?.ref ?? '';
  const full = pull.head?.repo?.full_name;
  const own = `${ctx.client.sourceOwner}/${ctx.client.sourceRepo}`.toLowerCase();
  return full && full.toLowerCase() !== own ? `${full.split('/')[0]}/${ref}` : ref;
}

async function writePullRows(ctx: ImportContext, trx: DB, issue: Issue, f: FetchedPull, counts: PullCounts): Promise<void> {
  const p = f.item;
  const merged = !!p.merged;
  await insertPull(trx, {
    issue_id: issue.id, index: issue.index, head_repo_id: ctx.repo.id, base_repo_id: ctx.repo.id,
    head_branch: headBranch(ctx, p), base_branch: p.base?.ref ?? ctx.repo.default_branch,
    head_commit_id: p.head?.sha ?? '', merge_base: p.merge_base ?? '',
    has_merged: merged ? 1 : 0, merged_commit_id: merged ? p.merge_commit_sha ?? '' : '',
    merged_unix: merged ? unix(p.merged_at) || issue.closed_unix : 0,
    merged_by: merged ? ctx.authors.of(p.merged_by ?? p.user).poster_id : 0,
  });
  for (const r of f.reviews) {
    const type = TYPE_OF_STATE[r.state];
    if (type === undefined) continue; // pending and requested reviews are not migrated (as Gitea)
    const a = ctx.authors.of(r.user);
    const created = unix(r.submitted_at) || issue.created_unix;
    const review = await insertReview(trx, {
      type, reviewer_id: a.poster_id, issue_id: issue.id, content: r.body ?? '', commit_id: r.commit_id ?? '',
      official: r.official ? 1 : 0, stale: r.stale ? 1 : 0, dismissed: r.dismissed ? 1 : 0,
      created_unix: created, updated_unix: unix(r.updated_at) || created,
      original_author: a.original_author, original_author_id: a.original_author_id,
    });
    // The timeline entry a submitted review has (counted among the comments, as Gitea).
    await insertComment(trx, {
      type: COMMENT_TYPE.review, issue_id: issue.id, content: r.body ?? '', meta: JSON.stringify({ review_id: review.id }),
      created_unix: created, updated_unix: created, ...a,
    });
    counts.reviews++;
  }
}

/**
 * refs/pull/N/head: a mirror clone of the source has it already; else the head commit is pointed
 * at when the clone holds it. A head commit the clone lacks is only reported (no fetch).
 */
async function keepHeadRef(ctx: ImportContext, p: SourcePull, counts: PullCounts): Promise<void> {
  if (!ctx.gitDir) return;
  const ref = `refs/pull/${p.number}/head`;
  if (await refTarget(ctx.gitDir, ref)) return;
  const sha = /^[0-9a-f]{40,64}$/.test(p.head?.sha ?? '') ? p.head!.sha! : '';
  const has = sha !== '' && (await gitRun(['cat-file', '-e', `${sha}^{commit}`], { gitDir: ctx.gitDir })).code === 0;
  if (has) {
    await gitRun(['update-ref', ref, sha], { gitDir: ctx.gitDir });
    return;
  }
  counts.missingHeads++;
  ctx.log.warn({ repo: ctx.repo.id, number: p.number, sha }, 'migration: head commit of a pull request is not in the clone; its ref is left out');
}

export async function importPulls(ctx: ImportContext): Promise<PullCounts> {
  const total: PullCounts = { items: 0, comments: 0, reactions: 0, skipped: 0, reviews: 0, missingHeads: 0 };
  for await (const page of ctx.client.pages<SourcePull>('/pulls', { state: 'all' })) {
    const fetched: FetchedPull[] = [];
    for (const item of page) fetched.push({ ...(await fetchExtras(ctx, item)), reviews: await fetchReviews(ctx, item.number) });
    await primeAuthors(ctx, fetched, fetched.flatMap((f) => [f.item.merged_by, ...f.reviews.map((r) => r.user)]));
    const extra = { reviews: 0 } as PullCounts;
    const counts = await writePage(ctx, fetched, true, (trx, issue, f) => writePullRows(ctx, trx, issue, f as FetchedPull, extra));
    addCounts(total, counts);
    total.reviews += extra.reviews;
    for (const f of fetched) await keepHeadRef(ctx, f.item, total);
    ctx.log.info({ repo: ctx.repo.id, pulls: total.items, comments: total.comments, reviews: total.reviews }, 'migration: pull requests imported');
  }
  return total;
}
