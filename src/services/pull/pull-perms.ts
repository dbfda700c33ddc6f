import type { DB } from '../../db/connect';
import { canWrite } from '../issue/issue-access';
import type { RepoAccess } from '../repo/repos';
import { mayChangeRequests } from './pull-review-requests';
import { mayComment, mayResolve } from './pull-threads';
import type { LoadedPull } from './pull-views';

// What the visitor of a pull request page may do, from the same predicates the services check
// when the forms post: the pages show a form only to those whose post would be taken.

export type PullPerms = {
  /** Comment on lines, reply, start and finish a review. */
  comment: boolean;
  /** Approve or request changes: anyone who reviews but the pull request's author. */
  verdict: boolean;
  /** Writes pull requests here: labels, milestone, assignees, merging (with the merge box's own checks). */
  write: boolean;
  /** Its author or a writer: close, reopen, draft. */
  edit: boolean;
  requestReviews: boolean;
  resolve: boolean;
};

export async function pullPerms(db: DB, access: RepoAccess, loaded: LoadedPull): Promise<PullPerms> {
  const doer = loaded.ctx.doer;
  const open = !access.repo.is_archived;
  if (!doer || !open) return { comment: false, verdict: false, write: false, edit: false, requestReviews: false, resolve: false };
  const write = canWrite(loaded.ctx, true);
  const comment = mayComment(loaded);
  return {
    comment, verdict: comment && doer.id !== loaded.issue.poster_id, write, edit: write || doer.id === loaded.issue.poster_id,
    requestReviews: await mayChangeRequests(db, access, loaded, doer), resolve: await mayResolve(db, access, loaded),
  };
}
