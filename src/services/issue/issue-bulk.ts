import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { AppError, InvalidError } from '../../lib/errors';
import { usableLabelsByIds } from '../../models/issue-label';
import { assertWriter, issueCtx } from './issue-access';
import { editIssue } from './issue-edit';
import { addIssueLabels, labelSourceOf, removeIssueLabelById } from './issue-labels';
import type { RepoAccess } from '../repo/repos';

// Changing many issues at once (Gitea's issue list actions: /issues/status and
// /issues/labels): close, reopen, or put a label on or take it off the chosen issues. Only a
// writer of the kind may: a reader's request changes nothing. Each issue changes through the
// same service as one at a time, in its own transaction; one that refuses (an open dependency
// keeps an issue open) is reported and the others go ahead.

/** More than this in one request is not a selection from a page. */
export const MAX_BULK = 100;

export type BulkAction =
  | { kind: 'close' } | { kind: 'reopen' }
  | { kind: 'label'; labelId: number } | { kind: 'unlabel'; labelId: number };

export type BulkResult = { changed: number[]; refused: { index: number; message: string }[] };

function checkIndexes(indexes: number[]): number[] {
  const unique = [...new Set(indexes)];
  if (!unique.length) throw new InvalidError('Choose at least one issue.', 'issue_ids');
  if (unique.length > MAX_BULK) throw new InvalidError(`Choose at most ${MAX_BULK} issues at once.`, 'issue_ids');
  if (unique.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new InvalidError('An issue number is not valid.', 'issue_ids');
  return unique;
}

async function applyOne(db: DB, access: RepoAccess, doer: User, index: number, action: BulkAction): Promise<void> {
  if (action.kind === 'close' || action.kind === 'reopen') {
    await editIssue(db, access, doer, index, { state: action.kind === 'close' ? 'closed' : 'open' });
  } else if (action.kind === 'label') {
    await addIssueLabels(db, access, doer, index, [action.labelId]);
  } else {
    await removeIssueLabelById(db, access, doer, index, action.labelId);
  }
}

/** `kind`: the list the selection was made on (issues or pull requests), whose writers may act. */
export async function bulkUpdateIssues(
  db: DB, access: RepoAccess, doer: User, kind: 'issues' | 'pulls', indexes: number[], action: BulkAction,
): Promise<BulkResult> {
  assertWriter(await issueCtx(db, access, doer), kind === 'pulls');
  const chosen = checkIndexes(indexes);
  if ((action.kind === 'label' || action.kind === 'unlabel')) {
    const [label] = Number.isSafeInteger(action.labelId) ? await usableLabelsByIds(db, labelSourceOf(access), [action.labelId]) : [];
    if (!label) throw new InvalidError('Choose a label of this repository.', 'label');
  }
  const out: BulkResult = { changed: [], refused: [] };
  for (const index of chosen) {
    try {
      await applyOne(db, access, doer, index, action);
      out.changed.push(index);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      out.refused.push({ index, message: err.message });
    }
  }
  return out;
}
