import type { DB } from '../../db/connect';
import type { Issue, Repository, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { findActionRefs, findIssueRefs, type IssueRef } from '../../lib/issue-refs';
import { nowUnix } from '../../lib/time';
import { insertComment, referenceMetas } from '../../models/comment';
import { getIssueByIndex } from '../../models/issue';
import { getRepoByOwnerAndName } from '../../models/repo';
import { getUserByName } from '../../models/user';
import { canRead, canWrite, issueCtx } from './issue-access';
import { accessOf, type RepoAccess } from '../repo/repos';

// Cross references (Gitea's issue_xref.go): an issue or comment mentioning `#N` leaves an
// event on issue N pointing back (issue_ref / pull_ref / comment_ref), when the author can
// read N. Only pull requests close or reopen through keywords: a pull request's own text
// marks its reference "closes" or "reopens" (what its merge will do); every other carries "none".

async function refRepo(db: DB, here: Repository, ref: IssueRef): Promise<Repository | undefined> {
  if (!ref.owner || !ref.repo) return here;
  const owner = await getUserByName(db, ref.owner);
  return owner ? getRepoByOwnerAndName(db, owner.id, ref.repo) : undefined;
}

const sameRef = (a: IssueRef, b: IssueRef) =>
  a.index === b.index && (a.owner ?? '').toLowerCase() === (b.owner ?? '').toLowerCase() && (a.repo ?? '').toLowerCase() === (b.repo ?? '').toLowerCase();

/**
 * Gitea's verifyReferencedIssue: a keyword counts when the author could change the target
 * themselves (its poster, or a writer), or it is in this repository (the merger decides then).
 */
function refAction(from: Issue, commentId: number, text: string, ref: IssueRef, sameRepo: boolean, mayChange: boolean): string {
  if (!from.is_pull || commentId) return 'none';
  const keyword = findActionRefs(text).find((a) => sameRef(a, ref));
  if (!keyword || (!sameRepo && !mayChange)) return 'none';
  return keyword.action === 'close' ? 'closes' : 'reopens';
}

async function alreadyReferenced(db: DB, target: number, from: number, commentId: number): Promise<boolean> {
  return (await referenceMetas(db, target, from)).some((meta) => {
    try { return Number((JSON.parse(meta || '{}') as { ref_comment_id?: number }).ref_comment_id ?? 0) === commentId; } catch { return false; }
  });
}

/** Records the references `text` (of `from`, or of its comment `commentId`) makes. */
export async function addCrossReferences(
  db: DB, access: RepoAccess, doer: User, from: Issue, text: string, commentId = 0,
): Promise<void> {
  const type = commentId ? COMMENT_TYPE.commentRef : from.is_pull ? COMMENT_TYPE.pullRef : COMMENT_TYPE.issueRef;
  for (const ref of findIssueRefs(text)) {
    const repo = await refRepo(db, access.repo, ref);
    const target = repo ? await getIssueByIndex(db, repo.id, ref.index) : undefined;
    if (!repo || !target || target.id === from.id) continue;
    const sameRepo = repo.id === access.repo.id;
    const ctx = await issueCtx(db, sameRepo ? access : await accessOf(db, repo, doer), doer);
    if (!canRead(ctx, target.is_pull) || (await alreadyReferenced(db, target.id, from.id, commentId))) continue;
    const action = refAction(from, commentId, text, ref, sameRepo, target.poster_id === doer.id || canWrite(ctx, target.is_pull));
    const now = nowUnix();
    await insertComment(db, {
      issue_id: target.id, poster_id: doer.id, type, ref_issue_id: from.id, created_unix: now, updated_unix: now,
      meta: JSON.stringify({ ref_repo_id: from.repo_id, ref_comment_id: commentId, ref_is_pull: !!from.is_pull, ref_action: action }),
    });
  }
}
