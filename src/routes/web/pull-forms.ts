import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { cancelAutoMerge, mergeOrSchedule } from '../../services/pull/pull-auto-merge';
import { setPullDraft } from '../../services/pull/pull-draft';
import { editPull } from '../../services/pull/pull-edit';
import { MERGE_DO, type MergeDo } from '../../services/pull/pull-merge';
import { cancelReviewRequests, requestReviews } from '../../services/pull/pull-review-requests';
import { updatePullBranch } from '../../services/pull/pull-update';
import { repoOf } from './guards';
import { redirectAfterPost } from './forms';
import { indexParam, renderConversation, tryForm } from './pull-pages';

// The conversation's forms: merge (or schedule it), cancel a schedule, update the branch,
// close or reopen, draft or ready, review requests. Each calls the service the API calls and
// answers 303 back to the page, or re-renders it with what the service refused.

type Body = Record<string, unknown>;
const field = (req: Request, name: string): string => {
  const v = (req.body as Body | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};
const doerOf = (req: Request): User => req.ctx.doer!;
const back = (req: Request, res: Response, index: number, anchor = '') => redirectAfterPost(req, res, `${repoPath(req)}/pulls/${index}`, anchor);
const repoPath = (req: Request) => `${encodeURIComponent(repoOf(req).owner.name)}/${encodeURIComponent(repoOf(req).repo.name)}`;

/** Runs a form; 303 to the anchor when done, else the conversation again with the refusal. */
async function run(req: Request, res: Response, key: string, anchor: string, action: (index: number) => Promise<void>): Promise<void> {
  const index = indexParam(req);
  const refused = await tryForm(() => action(index), key);
  if (!refused) return back(req, res, index, anchor);
  const values = Object.fromEntries(Object.entries((req.body ?? {}) as Body).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '_csrf'));
  await renderConversation(req, res, index, { errors: refused.errors, values }, refused.status);
}

/** A prefilled default sent back unchanged is no choice: the service writes its own default for the style. */
const edited = (value: string, prefilled: string): string | undefined => (value.trim() && value !== prefilled ? value : undefined);

/** POST /{owner}/{repo}/pulls/{index}/merge */
export const merge = (req: Request, res: Response) => run(req, res, '', 'merge', async (index) => {
  const style = field(req, 'do');
  const Do: MergeDo = (MERGE_DO as readonly string[]).includes(style) ? style as MergeDo : 'merge';
  await mergeOrSchedule(req.ctx.h, repoOf(req), doerOf(req), index, {
    Do,
    MergeTitleField: edited(field(req, 'merge_title'), field(req, 'default_title')),
    MergeMessageField: edited(field(req, 'merge_message'), field(req, 'default_message')),
    delete_branch_after_merge: field(req, 'delete_branch') === 'on',
    merge_when_checks_succeed: field(req, 'when_checks_succeed') === 'on',
    force_merge: field(req, 'force_merge') === 'on',
    head_commit_id: field(req, 'head_commit_id') || undefined,
  });
});

/** POST .../merge/cancel: the scheduled merge is called off. */
export const cancelMerge = (req: Request, res: Response) => run(req, res, '', 'merge', (index) =>
  cancelAutoMerge(req.ctx.h, repoOf(req), doerOf(req), index));

/** POST .../update: the base's new commits into the head branch (`style`: merge or rebase). */
export const update = (req: Request, res: Response) => run(req, res, '', 'merge', (index) =>
  updatePullBranch(req.ctx.h, repoOf(req), doerOf(req), index, field(req, 'style') === 'rebase' ? 'rebase' : 'merge'));

/** POST .../state: close or reopen. */
export const state = (req: Request, res: Response) => run(req, res, 'actions', '', async (index) => {
  await editPull(req.ctx.h, repoOf(req), doerOf(req), index, { state: field(req, 'state') === 'open' ? 'open' : 'closed' });
});

/** POST .../draft: mark as draft (`draft=on`) or ready for review. */
export const draft = (req: Request, res: Response) => run(req, res, 'actions', '', (index) =>
  setPullDraft(req.ctx.h, repoOf(req), doerOf(req), index, field(req, 'draft') === 'on'));

/** POST .../reviewers: `reviewer` is `user:NAME` or `team:NAME`; `action` add or remove. */
export const reviewers = (req: Request, res: Response) => run(req, res, 'reviewers', 'reviewers-title', async (index) => {
  const [kind, ...rest] = field(req, 'reviewer').split(':');
  const name = rest.join(':');
  if (!name) throw new InvalidError('Choose a user or a team to ask.', 'reviewers');
  const names = kind === 'team' ? { team_reviewers: [name] } : { reviewers: [name] };
  if (field(req, 'action') === 'remove') await cancelReviewRequests(req.ctx.h, repoOf(req), doerOf(req), index, names);
  else await requestReviews(req.ctx.h, repoOf(req), doerOf(req), index, names);
});
