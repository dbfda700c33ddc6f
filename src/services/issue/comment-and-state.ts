import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { createComment } from './comments';
import { editIssue } from './issue-edit';
import type { CommentView } from './issue-views';
import type { RepoAccess } from '../repo/repos';

// The comment form's "Close with comment" / "Reopen with comment" (Gitea's NewComment with a
// status): the state changes first, so a refusal (an open dependency keeps an issue open, or
// a reader may not close) leaves no comment behind; then the comment, if there is one.

export type CommentState = 'close' | 'reopen' | undefined;

export async function commentWithState(
  db: DB, access: RepoAccess, doer: User, index: number, body: string, state: CommentState,
): Promise<CommentView | null> {
  if (!body.trim() && !state) throw new InvalidError('Write a comment first.', 'body');
  if (state) await editIssue(db, access, doer, index, { state: state === 'close' ? 'closed' : 'open' });
  return body.trim() ? createComment(db, access, doer, index, body) : null;
}
