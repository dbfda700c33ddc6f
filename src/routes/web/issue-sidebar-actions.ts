import type { Request, Response } from 'express';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { addLink, removeLink, type IssueMeta, type LinkKind } from '../../services/issue/issue-dependencies';
import { setIssueDeadline } from '../../services/issue/issue-deadline';
import { editIssue } from '../../services/issue/issue-edit';
import { replaceIssueLabels } from '../../services/issue/issue-labels';
import { setIssueLock } from '../../services/issue/issue-lock';
import { pinIssue, unpinIssue } from '../../services/issue/issue-pins';
import { getIssue } from '../../services/issue/issues';
import { formAction } from './forms';
import { repoOf } from './guards';
import { backTo, text, texts } from './issue-actions';
import { indexParam, renderIssue } from './issue-view-pages';

// The sidebar's forms (issue-sidebar.ts): each posts one fact of the issue to the service the
// API's route calls, then goes back to the page; a refusal the user can fix (an unknown
// issue to depend on, a bad date) comes back as the page with the message at the sidebar.

type Change = (req: Request, index: number) => Promise<unknown>;

/** Runs one sidebar change and answers: 303 back, or the page with the refusal (422). */
function sidebar(change: Change) {
  return async (req: Request, res: Response): Promise<void> => {
    const index = indexParam(req);
    const errors = await formAction(async () => {
      try {
        await change(req, index);
      } catch (err) {
        // An existing or circular link: the user's to fix, as a message beside the form.
        if (err instanceof ConflictError) throw new InvalidError(err.message);
        throw err;
      }
    });
    if (errors) return renderIssue(req, res, index, { which: 'side', values: {}, errors: { '': Object.values(errors)[0]! } });
    backTo(req, res, (await getIssue(req.ctx.db, repoOf(req), req.ctx.doer, index)).issue);
  };
}

const ids = (values: string[]) => values.filter((v) => /^\d{1,15}$/.test(v)).map(Number);

/** POST .../issues/{index}/labels: exactly the checked labels. */
export const postLabels = sidebar((req, index) => replaceIssueLabels(req.ctx.db, repoOf(req), req.ctx.doer!, index, ids(texts(req, 'label'))));

/** POST .../issues/{index}/assignees: exactly the checked users. */
export const postAssignees = sidebar((req, index) => editIssue(req.ctx.db, repoOf(req), req.ctx.doer!, index, { assignees: texts(req, 'assignee') }));

/** POST .../issues/{index}/milestone: `0` takes it off. */
export const postMilestone = sidebar((req, index) => {
  const id = text(req, 'milestone');
  if (!/^\d{1,15}$/.test(id)) throw new InvalidError('Choose a milestone.', 'milestone');
  return editIssue(req.ctx.db, repoOf(req), req.ctx.doer!, index, { milestone: Number(id) });
});

/** POST .../issues/{index}/deadline: `date` (YYYY-MM-DD), or `remove`. */
export const postDeadline = sidebar((req, index) => {
  const date = text(req, 'remove') ? null : text(req, 'date').trim();
  if (date === '') throw new InvalidError('Choose a date, or remove the due date.', 'date');
  return setIssueDeadline(req.ctx.db, repoOf(req), req.ctx.doer!, index, date);
});

export const postLock = sidebar((req, index) => setIssueLock(req.ctx.db, repoOf(req), req.ctx.doer!, index, true, text(req, 'reason').slice(0, 100)));
export const postUnlock = sidebar((req, index) => setIssueLock(req.ctx.db, repoOf(req), req.ctx.doer!, index, false));
export const postPin = sidebar((req, index) => pinIssue(req.ctx.db, repoOf(req), req.ctx.doer!, index));
export const postUnpin = sidebar((req, index) => unpinIssue(req.ctx.db, repoOf(req), req.ctx.doer!, index));

/** `#12`, `12` or `owner/repo#12`, as people write references. */
export function parseIssueRef(value: string): IssueMeta {
  const m = /^\s*(?:([\w.-]+)\/([\w.-]+))?#?(\d{1,15})\s*$/.exec(value);
  if (!m) throw new InvalidError('Write the issue as #12 or owner/repo#12.', 'issue');
  return m[1] ? { owner: m[1], repo: m[2], index: Number(m[3]) } : { index: Number(m[3]) };
}

const linkKind = (req: Request): LinkKind => (text(req, 'kind') === 'blocks' ? 'blocks' : 'dependencies');

/** The other issue of a link not found or not linkable: said as the API's 404 says it, beside the form. */
async function linking<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof NotFoundError) throw new InvalidError('There is no such issue you may link here.', 'issue');
    throw err;
  }
}

/** POST .../issues/{index}/dependency/add and .../dependency/delete */
export const postDependencyAdd = sidebar((req, index) =>
  linking(() => addLink(req.ctx.db, repoOf(req), req.ctx.doer!, index, linkKind(req), parseIssueRef(text(req, 'issue')))));
export const postDependencyDelete = sidebar((req, index) =>
  linking(() => removeLink(req.ctx.db, repoOf(req), req.ctx.doer!, index, linkKind(req), parseIssueRef(text(req, 'issue')))));
