import type { DB } from '../../db/connect';
import type { Issue, Reaction, User } from '../../db/schema';
import { ForbiddenError, InternalError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import { getCommentById } from '../../models/comment';
import { getIssueById, getIssueByIndex } from '../../models/issue';
import {
  countReactions, deleteReaction, findReaction, insertReaction, listReactions, reactionsOfIssue, type ReactionKey,
} from '../../models/reaction';
import { usersByIds } from '../../models/user-lookup';
import { assertIssuesOrPulls, canRead, canWrite, issueCtx, type IssueCtx } from './issue-access';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// Reactions on issues and comments, as Gitea's issue_reaction.go: only the reactions the
// instance allows ([ui] reactions), 200 with the existing one when it is given twice, and no
// change on a locked issue without write access.

/** What the reactions belong to, with the caller's issue permissions. */
export type ReactionTarget = { ctx: IssueCtx; issue: Issue; key: ReactionKey; blockers: number[] };

const validIndex = (n: number) => Number.isSafeInteger(n) && n > 0;

export async function issueReactionTarget(db: DB, access: RepoAccess, doer: User | null, index: number): Promise<ReactionTarget> {
  const ctx = await issueCtx(db, access, doer);
  assertIssuesOrPulls(ctx);
  const issue = validIndex(index) ? await getIssueByIndex(db, access.repo.id, index) : undefined;
  if (!issue) throw new NotFoundError(`issue does not exist [repo_id: ${access.repo.id}, index: ${index}]`);
  return { ctx, issue, key: { issueId: issue.id, commentId: 0 }, blockers: [issue.poster_id, access.repo.owner_id] };
}

export async function commentReactionTarget(db: DB, access: RepoAccess, doer: User | null, id: number): Promise<ReactionTarget> {
  const ctx = await issueCtx(db, access, doer);
  assertIssuesOrPulls(ctx);
  const comment = validIndex(id) ? await getCommentById(db, id) : undefined;
  const issue = comment ? await getIssueById(db, comment.issue_id) : undefined;
  if (!comment || !issue || issue.repo_id !== access.repo.id) throw new NotFoundError(`comment does not exist [id: ${id}]`);
  return {
    ctx, issue, key: { issueId: issue.id, commentId: comment.id },
    blockers: [issue.poster_id, access.repo.owner_id, comment.poster_id],
  };
}

export type ReactionWithUser = { reaction: Reaction; user: User | undefined };

/** The reactions, oldest first; `page` only when the caller asked for one (Gitea lists all otherwise). */
export async function listTargetReactions(
  db: DB, t: ReactionTarget, page?: { offset: number; limit: number },
): Promise<{ items: ReactionWithUser[]; total: number }> {
  if (!canRead(t.ctx, t.issue.is_pull)) throw new ForbiddenError('no permission to get reactions');
  const [reactions, total] = await Promise.all([listReactions(db, t.key, page), countReactions(db, t.key)]);
  const users = new Map((await usersByIds(db, [...new Set(reactions.map((r) => r.user_id))])).map((u) => [u.id, u]));
  return { items: reactions.map((reaction) => ({ reaction, user: users.get(reaction.user_id) })), total };
}

function assertMayChange(t: ReactionTarget): void {
  // Reacting needs the issue (or pull) readable: 404 otherwise, as Gitea checks for comments.
  if (!canRead(t.ctx, t.issue.is_pull)) throw new NotFoundError();
  if (t.issue.is_locked && !canWrite(t.ctx, t.issue.is_pull)) throw new ForbiddenError('no permission to change reaction');
}

/** Adds the reaction; `created` is false when the caller had given it already (200, not 201). */
export async function addReaction(
  h: Hearth, t: ReactionTarget, doer: User, content: string,
): Promise<{ reaction: Reaction; created: boolean }> {
  assertMayChange(t);
  if (!h.config.ui.reactions.includes(content)) throw new ForbiddenError(`'${content}' is not an allowed reaction`);
  if (!doer.is_admin && (await isBlockedBy(h.db, doer.id, t.blockers))) throw new ForbiddenError('user is blocked');
  const inserted = await insertReaction(h.db, t.key, doer.id, content, nowUnix());
  if (inserted) return { reaction: inserted, created: true };
  const existing = await findReaction(h.db, t.key, doer.id, content);
  if (!existing) throw new InternalError('reaction vanished while being added');
  return { reaction: existing, created: false };
}

/** Removes the caller's reaction; removing one that is not there is no error. */
export async function removeReaction(db: DB, t: ReactionTarget, doer: User, content: string): Promise<void> {
  assertMayChange(t);
  await deleteReaction(db, t.key, doer.id, content);
}

/** One reaction's tally on one target: who gave it (names, oldest first) and whether the viewer did. */
export type ReactionTally = { content: string; users: string[]; count: number; mine: boolean };

/**
 * The reactions of an issue and all its comments as tallies per target (comment id, 0 for the
 * issue), for a page that shows them all: the caller has read the issue already.
 */
export async function issueReactionTallies(db: DB, issue: Issue, viewer: User | null): Promise<Map<number, ReactionTally[]>> {
  const rows = await reactionsOfIssue(db, issue.id);
  const names = new Map((await usersByIds(db, [...new Set(rows.map((r) => r.user_id))])).map((u) => [u.id, u.name]));
  const out = new Map<number, Map<string, ReactionTally>>();
  for (const r of rows) {
    const byContent = out.get(r.comment_id) ?? new Map<string, ReactionTally>();
    out.set(r.comment_id, byContent);
    const tally = byContent.get(r.type) ?? { content: r.type, users: [], count: 0, mine: false };
    byContent.set(r.type, tally);
    tally.count++;
    // Migrated reactions keep their original author's name.
    tally.users.push(r.original_author || names.get(r.user_id) || 'Ghost');
    if (viewer && r.user_id === viewer.id && !r.original_author) tally.mine = true;
  }
  return new Map([...out].map(([id, m]) => [id, [...m.values()]]));
}
