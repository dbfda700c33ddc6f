import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ConflictError, InvalidError } from '../../lib/errors';
import { setTask, textDigest } from '../../lib/task-list';
import { editComment, getComment } from './comments';
import { issueCtx, readableIssue } from './issue-access';
import { editIssue } from './issue-edit';
import type { RepoAccess } from '../repo/repos';

// Ticking a task-list checkbox of an issue's body or of a comment: an edit of that text
// through the same edit services (and their rules: the poster or a writer), made against the
// text the page showed: `digest` names it, and a text changed since is refused (409) rather
// than ticking what is now another line.

export type TaskToggle = { task: number; checked: boolean; digest: string };

function toggled(text: string, t: TaskToggle): string {
  if (textDigest(text) !== t.digest) throw new ConflictError('The text changed since this page was loaded: reload it and tick again.');
  const next = setTask(text, t.task, t.checked);
  if (next === null) throw new InvalidError('There is no such task in this text.', 'task');
  return next;
}

/** Task `t.task` of issue `index`'s body. */
export async function toggleIssueTask(db: DB, access: RepoAccess, doer: User, index: number, t: TaskToggle): Promise<void> {
  const issue = await readableIssue(db, await issueCtx(db, access, doer), index);
  const body = toggled(issue.content, t);
  // content_version: an edit landing between this read and the write is refused too.
  await editIssue(db, access, doer, index, { body, content_version: issue.content_version });
}

/** Task `t.task` of comment `id` (its visibility and edit rules are editComment's). */
export async function toggleCommentTask(db: DB, access: RepoAccess, doer: User, id: number, t: TaskToggle): Promise<void> {
  // 404 for a comment the doer may not see, before its text is looked at.
  const view = await getComment(db, access, doer, id);
  if (!view) throw new InvalidError('This comment has no tasks.', 'task');
  await editComment(db, access, doer, id, toggled(view.comment.content, t));
}
