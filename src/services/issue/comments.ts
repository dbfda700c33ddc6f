import type { DB } from '../../db/connect';
import { lockRow } from '../../db/dialect';
import type { Comment, User } from '../../db/schema';
import { COMMENT_TYPE, CONTENT_COMMENT_TYPES } from '../../lib/comment-type';
import { parseRfc3339 } from '../../lib/dates';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  countComments, deleteCommentRow, getCommentById, listComments, refreshNumComments, updateCommentContent,
} from '../../models/comment';
import { getIssueById } from '../../models/issue';
import { isBlockedBy } from '../../models/blocking';
import { ACCESS } from '../permissions';
import { canRead, canWrite, issueCtx, readableIssue, readableKind, type IssueCtx } from './issue-access';
import { recordEvent } from './issue-events';
import { commentViews, type CommentView } from './issue-views';
import { addCrossReferences } from './issue-references';
import type { RepoAccess } from '../repo/repos';
import { emit } from '../events/bus';

// Plain comments on issues and pulls (type 0). Event comments share the table but are the
// timeline's; here they are invisible (listing) or untouchable (204, as Gitea).

export type CommentRange = { since?: string; before?: string };

function timeParam(field: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError(`[${field}]: invalid time, expected RFC 3339`, field);
  return unix;
}

const range = (r: CommentRange) => ({ updatedSince: timeParam('since', r.since), updatedBefore: timeParam('before', r.before) });

/** GET .../issues/{index}/comments: all of them, oldest first. */
export async function listIssueComments(
  db: DB, access: RepoAccess, doer: User | null, index: number, r: CommentRange,
): Promise<{ views: CommentView[]; total: number }> {
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  const q = { issueId: issue.id, type: COMMENT_TYPE.comment, ...range(r) };
  const [comments, total] = await Promise.all([listComments(db, q), countComments(db, q)]);
  return { views: await commentViews(db, comments, access), total };
}

/** GET .../issues/comments: the repository's comments on the kinds the caller reads. */
export async function listRepoComments(
  db: DB, access: RepoAccess, doer: User | null, r: CommentRange, page: { offset: number; limit: number },
): Promise<{ views: CommentView[]; total: number }> {
  const isPull = readableKind(await issueCtx(db, access, doer), undefined);
  const q = { repoId: access.repo.id, type: COMMENT_TYPE.comment, isPull, ...range(r) };
  const [comments, total] = await Promise.all([listComments(db, q, page), countComments(db, q)]);
  return { views: await commentViews(db, comments, access), total };
}

/** POST .../issues/{index}/comments: a locked issue takes comments from writers only. */
export async function createComment(db: DB, access: RepoAccess, doer: User, index: number, body: string): Promise<CommentView> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  if (issue.is_locked && !canWrite(ctx, issue.is_pull) && !doer.is_admin) {
    throw new ForbiddenError('this issue is locked: only collaborators may comment');
  }
  if (!body.trim()) throw new InvalidError('[body]: Required', 'body');
  // Gitea's CreateIssueComment: one blocked by the issue's poster or the repository's owner may
  // not comment, unless they administer the repository.
  if (access.mode < ACCESS.admin && (await isBlockedBy(db, doer.id, [issue.poster_id, access.repo.owner_id]))) {
    throw new ForbiddenError('user is blocked by the issue poster or the repository owner');
  }
  const comment = await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'issue', issue.id);
    const c = await recordEvent(trx, issue, doer.id, COMMENT_TYPE.comment, nowUnix(), { content: body });
    await refreshNumComments(trx, issue.id);
    return c;
  });
  await emit(db, 'comment.created', { repo: access.repo, doer, issue, comment });
  await addCrossReferences(db, access, doer, issue, body, comment.id);
  const [view] = await commentViews(db, [comment], access);
  return view!;
}

/** `{id}` among the repository's comments, on a kind the caller reads; else 404. */
async function commentOf(db: DB, ctx: IssueCtx, id: number): Promise<{ comment: Comment; isPull: number }> {
  const comment = Number.isSafeInteger(id) ? await getCommentById(db, id) : undefined;
  const issue = comment ? await getIssueById(db, comment.issue_id) : undefined;
  if (!comment || !issue || issue.repo_id !== ctx.repo.id || !canRead(ctx, issue.is_pull)) {
    throw new NotFoundError(`comment does not exist [id: ${id}]`);
  }
  return { comment, isPull: issue.is_pull };
}

/** GET .../issues/comments/{id}: null (204) for an event comment, as Gitea. */
export async function getComment(db: DB, access: RepoAccess, doer: User | null, id: number): Promise<CommentView | null> {
  const { comment } = await commentOf(db, await issueCtx(db, access, doer), id);
  if (comment.type !== COMMENT_TYPE.comment) return null;
  const [view] = await commentViews(db, [comment], access);
  return view!;
}

async function ownComment(db: DB, access: RepoAccess, doer: User, id: number): Promise<Comment> {
  const ctx = await issueCtx(db, access, doer);
  const { comment, isPull } = await commentOf(db, ctx, id);
  if (comment.poster_id !== doer.id && !canWrite(ctx, isPull)) {
    throw new ForbiddenError('only the poster or a writer may change this comment');
  }
  return comment;
}

/** PATCH .../issues/comments/{id}: the poster or a writer; null (204) for kinds without a body. */
export async function editComment(db: DB, access: RepoAccess, doer: User, id: number, body: string): Promise<CommentView | null> {
  const comment = await ownComment(db, access, doer, id);
  if (!CONTENT_COMMENT_TYPES.includes(comment.type)) return null;
  const changed = body !== comment.content;
  if (changed) await updateCommentContent(db, comment.id, body, nowUnix());
  const fresh = (await getCommentById(db, comment.id))!;
  if (changed) await emitCommentChange(db, access, doer, fresh, 'comment.edited', comment.content);
  const [view] = await commentViews(db, [fresh], access);
  return view!;
}

/** DELETE .../issues/comments/{id}: the poster or a writer; event comments are left alone. */
export async function deleteComment(db: DB, access: RepoAccess, doer: User, id: number): Promise<void> {
  const comment = await ownComment(db, access, doer, id);
  if (comment.type !== COMMENT_TYPE.comment) return;
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'issue', comment.issue_id);
    await deleteCommentRow(trx, comment.id);
    await refreshNumComments(trx, comment.issue_id);
  });
  await emitCommentChange(db, access, doer, comment, 'comment.deleted', comment.content);
}

async function emitCommentChange(db: DB, access: RepoAccess, doer: User, comment: Comment, name: 'comment.edited' | 'comment.deleted', from: string): Promise<void> {
  const issue = await getIssueById(db, comment.issue_id);
  if (!issue) return;
  if (name === 'comment.edited') await emit(db, name, { repo: access.repo, doer, issue, comment, from });
  else await emit(db, name, { repo: access.repo, doer, issue, comment });
}
