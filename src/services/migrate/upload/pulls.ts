import type { DB } from '../../../db/connect';
import type { Issue } from '../../../db/schema';
import { gitRun } from '../../../git/exec';
import { refTarget } from '../../../git/refs';
import { COMMENT_TYPE } from '../../../lib/comment-type';
import { insertComment } from '../../../models/comment';
import { insertPull } from '../../../models/pull';
import { insertReview, insertReviewComment, REVIEW_TYPE } from '../../../models/review';
import type { SourcePull, SourceReview } from '../downloader';
import { unix, type ImportContext } from './context';
import { addCounts, fetchExtras, primeAuthors, writePage, type Fetched, type RowCounts } from './issue-rows';

// Pull requests (Gitea's GetPullRequests / CreatePullRequests / CreateReviews): an issue row with
// is_pull, a pull_request row with the branches and the merge record, the head commit kept as
// refs/pull/N/head, and the submitted reviews.

type FetchedPull = Fetched<SourcePull> & { reviews: SourceReview[] };

const TYPE_OF_STATE: Record<string, number> = {
  APPROVED: REVIEW_TYPE.approve, REQUEST_CHANGES: REVIEW_TYPE.reject, COMMENT: REVIEW_TYPE.comment,
};

export type PullCounts = RowCounts & { reviews: number; missingHeads: number };

/** A pull request from another repository keeps the branch name Gitea gives it: `owner/branch`. */
const headBranch = (pull: SourcePull): string => (pull.head?.fork ? `${pull.head.fork}/${pull.head.ref ?? ''}` : pull.head?.ref ?? '');

async function writePullRows(ctx: ImportContext, trx: DB, issue: Issue, f: FetchedPull, counts: PullCounts): Promise<void> {
  const p = f.item;
  const merged = !!p.merged;
  await insertPull(trx, {
    issue_id: issue.id, index: issue.index, head_repo_id: ctx.repo.id, base_repo_id: ctx.repo.id,
    head_branch: headBranch(p), base_branch: p.base?.ref ?? ctx.repo.default_branch,
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
    await writeLineComments(ctx, trx, issue, review.id, r);
    counts.reviews++;
  }
}

/** A review's line comments; their authors as the review's (the rows keep no original author). */
async function writeLineComments(ctx: ImportContext, trx: DB, issue: Issue, reviewId: number, r: SourceReview): Promise<void> {
  for (const c of r.comments ?? []) {
    const created = unix(c.created_at) || unix(r.submitted_at) || issue.created_unix;
    await insertReviewComment(trx, {
      review_id: reviewId, issue_id: issue.id, poster_id: ctx.authors.of(c.user).poster_id, path: c.path, line: c.line,
      diff_hunk: c.diff_hunk ?? '', commit_id: c.commit_id ?? r.commit_id ?? '', content: c.body ?? '',
      created_unix: created, updated_unix: unix(c.updated_at) || created,
    });
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
  for await (const page of ctx.source.getPullRequests()) {
    const fetched: FetchedPull[] = [];
    for (const item of page) fetched.push({ ...(await fetchExtras(ctx, item)), reviews: await ctx.source.getReviews(item) });
    await primeAuthors(ctx, fetched, fetched.flatMap((f) => [f.item.merged_by, ...f.reviews.flatMap((r) => [r.user, ...(r.comments ?? []).map((c) => c.user)])]));
    const extra = { reviews: 0 } as PullCounts;
    const counts = await writePage(ctx, fetched, true, (trx, issue, f) => writePullRows(ctx, trx, issue, f as FetchedPull, extra));
    addCounts(total, counts);
    total.reviews += extra.reviews;
    for (const f of fetched) await keepHeadRef(ctx, f.item, total);
    ctx.log.info({ repo: ctx.repo.id, pulls: total.items, comments: total.comments, reviews: total.reviews }, 'migration: pull requests imported');
  }
  return total;
}
