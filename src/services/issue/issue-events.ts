import type { Insertable } from 'kysely';
import type { DB } from '../../db/connect';
import type { Comment, CommentTable, Issue } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { insertComment } from '../../models/comment';
import { updateIssueRow } from '../../models/issue';

// Event comments: every change to an issue leaves a typed row in the comment table (Gitea's
// CommentType numbers) for the timeline; each also touches the issue's update time, as Gitea.

type EventFields = Omit<Insertable<CommentTable>, 'issue_id' | 'poster_id' | 'type' | 'created_unix' | 'updated_unix'>;

export async function recordEvent(
  db: DB, issue: Pick<Issue, 'id'>, doerId: number, type: number, now: number, fields: EventFields = {},
): Promise<Comment> {
  const comment = await insertComment(db, {
    ...fields, issue_id: issue.id, poster_id: doerId, type, created_unix: now, updated_unix: now,
  });
  await updateIssueRow(db, issue.id, { updated_unix: now });
  return comment;
}

export const labelEvent = (db: DB, issue: Pick<Issue, 'id'>, doerId: number, labelId: number, added: boolean, now: number) =>
  recordEvent(db, issue, doerId, COMMENT_TYPE.label, now, { label_id: labelId, content: added ? '1' : '' });

export const milestoneEvent = (db: DB, issue: Pick<Issue, 'id'>, doerId: number, from: number | null, to: number | null, now: number) =>
  recordEvent(db, issue, doerId, COMMENT_TYPE.milestone, now, { old_milestone_id: from ?? 0, milestone_id: to ?? 0 });

export const assigneeEvent = (db: DB, issue: Pick<Issue, 'id'>, doerId: number, assigneeId: number, removed: boolean, now: number) =>
  recordEvent(db, issue, doerId, COMMENT_TYPE.assignees, now, { assignee_id: assigneeId, removed_assignee: removed ? 1 : 0 });

export const titleEvent = (db: DB, issue: Pick<Issue, 'id'>, doerId: number, oldTitle: string, newTitle: string, now: number) =>
  recordEvent(db, issue, doerId, COMMENT_TYPE.changeTitle, now, { old_title: oldTitle, new_title: newTitle });

export const refEvent = (db: DB, issue: Pick<Issue, 'id'>, doerId: number, oldRef: string, newRef: string, now: number) =>
  recordEvent(db, issue, doerId, COMMENT_TYPE.changeIssueRef, now, { meta: JSON.stringify({ old_ref: oldRef, new_ref: newRef }) });

const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

/** Gitea's deadline comments: the day, and for a change `new|old`. */
export function deadlineEvent(db: DB, issue: Pick<Issue, 'id'>, doerId: number, from: number, to: number, now: number) {
  if (!from && to) return recordEvent(db, issue, doerId, COMMENT_TYPE.addedDeadline, now, { content: day(to) });
  if (from && !to) return recordEvent(db, issue, doerId, COMMENT_TYPE.removedDeadline, now, { content: day(from) });
  return recordEvent(db, issue, doerId, COMMENT_TYPE.modifiedDeadline, now, { content: `${day(to)}|${day(from)}` });
}
