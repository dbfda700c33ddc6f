import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { checkFormFile, storeFormFile, type FormFile } from './attachment-upload';
import { commentTarget } from './attachments';
import { createComment } from './comments';
import { canWrite, issueCtx, readableIssue } from './issue-access';
import { editIssue } from './issue-edit';
import type { CommentView } from './issue-views';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// The comment form's "Close with comment" / "Reopen with comment" (Gitea's NewComment with a
// status), and its attached file: the file is checked and the state changed first, so a
// refusal (a file type not allowed, an open dependency keeping an issue open, a reader who
// may not close) leaves no comment behind; then the comment, then its file.

export type CommentState = 'close' | 'reopen' | undefined;

/** A comment's files are its poster's with write on the unit (the attachment service's rule). */
async function checkFileRights(db: DB, access: RepoAccess, doer: User, index: number): Promise<void> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  if (!canWrite(ctx, issue.is_pull)) throw new ForbiddenError('user should have permission to edit comment');
}

export async function commentWithState(
  h: Hearth, access: RepoAccess, doer: User, index: number, input: { body: string; state: CommentState; file?: FormFile },
): Promise<CommentView | null> {
  const { body, state, file } = input;
  if (file && !body.trim()) throw new InvalidError('Write a comment for the file.', 'body');
  if (!body.trim() && !state) throw new InvalidError('Write a comment first.', 'body');
  if (file) {
    checkFormFile(h.config, file);
    await checkFileRights(h.db, access, doer, index);
  }
  if (state) await editIssue(h.db, access, doer, index, { state: state === 'close' ? 'closed' : 'open' });
  if (!body.trim()) return null;
  const made = await createComment(h.db, access, doer, index, body);
  if (file) await storeFormFile(h, await commentTarget(h.db, access, doer, made.comment.id, true), doer, file);
  return made;
}
