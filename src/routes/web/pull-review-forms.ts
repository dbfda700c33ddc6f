import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { InvalidError } from '../../lib/errors';
import { applySuggestion } from '../../services/pull/pull-suggestion';
import {
  commentOnLine, discardPendingReview, editLineComment, finishReview, removeLineComment, replyToThread, resolveThread, type Verdict,
} from '../../services/pull/pull-threads';
import { setFileViewed } from '../../services/pull/pull-viewed';
import { updateAppearance } from '../../services/user/account';
import { repoOf } from './guards';
import { confirmPage, redirectAfterPost } from './forms';
import { repoLink, themeOf } from './layout';
import { fileAnchor } from './pull-files-html';
import { renderFiles } from './pull-files';
import { indexParam, tryForm } from './pull-pages';

// The files tab's forms: Viewed marks, the diff style, comments on a line or a range, replies,
// resolving, editing a pending comment, applying a suggestion, finishing or discarding a
// review. Each calls the review services and answers 303 back to the anchor it is about, or
// re-renders the page with what the service refused.

type Body = Record<string, unknown>;
const field = (req: Request, name: string): string => {
  const v = (req.body as Body | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};
const idField = (req: Request, name: string): number => {
  const n = Number(field(req, name));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};
const doerOf = (req: Request): User => req.ctx.doer!;
const filesPath = (req: Request, index: number): string => {
  const { owner, repo } = repoOf(req);
  return `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}/pulls/${index}/files`;
};
const valuesOf = (req: Request): Record<string, string> =>
  Object.fromEntries(Object.entries((req.body ?? {}) as Body).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== '_csrf'));

/** Runs a form; 303 to the anchor it names when done, else the files page with the refusal. */
async function run(req: Request, res: Response, key: string, action: (index: number) => Promise<string>, at?: { path: string; key: string }): Promise<void> {
  const index = indexParam(req);
  let anchor = '';
  const refused = await tryForm(async () => { anchor = await action(index); }, key);
  if (!refused) return redirectAfterPost(req, res, filesPath(req, index), anchor);
  await renderFiles(req, res, index, { errors: refused.errors, values: valuesOf(req) }, refused.status, at);
}

/** POST .../files/viewed: `viewed` on or off for `path` at `blob`. */
export const viewed = (req: Request, res: Response) => run(req, res, '', async (index) => {
  const path = field(req, 'path');
  await setFileViewed(req.ctx.h, repoOf(req), doerOf(req), index, { path, blob: field(req, 'blob') }, field(req, 'viewed') === 'on');
  return fileAnchor(path);
});

/** POST .../files/style: unified or split, kept as the user's diff style setting. */
export const style = (req: Request, res: Response) => run(req, res, '', async () => {
  const doer = doerOf(req);
  await updateAppearance(req.ctx.db, doer, {
    theme: `gitea-${themeOf(req.ctx.config, doer)}`, keyboard_shortcuts: !!doer.keyboard_shortcuts, diff_view_style: field(req, 'diff_view_style'),
  });
  return '';
});

/** POST .../files/comment: on `side` `line` (from `start` for a range) of `path`; `mode` single or review. */
export function comment(req: Request, res: Response): Promise<void> {
  const path = field(req, 'path');
  const side = field(req, 'side') === 'old' ? 'old' : 'new';
  const line = Number(field(req, 'line'));
  const start = field(req, 'start').trim() ? Number(field(req, 'start')) : undefined;
  const at = { path, key: `${side}:${Number.isSafeInteger(line) ? line : 0}` };
  return run(req, res, '', async (index) => {
    const mode = field(req, 'mode') === 'single' ? 'single' : 'review';
    const made = await commentOnLine(req.ctx.h, repoOf(req), doerOf(req), index, { path, side, line, start }, field(req, 'content'), mode);
    return `issuecomment-${made.id}`;
  }, at);
}

/** POST .../files/reply: to the thread holding `comment`. */
export const reply = (req: Request, res: Response) => run(req, res, '', async (index) =>
  `issuecomment-${(await replyToThread(req.ctx.h, repoOf(req), doerOf(req), index, idField(req, 'comment'), field(req, 'content'))).id}`);

/** POST .../files/resolve: `resolved` on or off for the thread holding `comment`. */
export const resolve = (req: Request, res: Response) => run(req, res, '', async (index) => {
  await resolveThread(req.ctx.h, repoOf(req), doerOf(req), index, idField(req, 'comment'), field(req, 'resolved') === 'on');
  return `issuecomment-${idField(req, 'comment')}`;
});

/** POST .../files/comment/edit and .../delete: a comment of the visitor's (or a writer's). */
export const editComment = (req: Request, res: Response) => run(req, res, '', async (index) => {
  await editLineComment(req.ctx.h, repoOf(req), doerOf(req), index, idField(req, 'comment'), field(req, 'content'));
  return `issuecomment-${idField(req, 'comment')}`;
});
export const deleteComment = (req: Request, res: Response) => run(req, res, '', async (index) => {
  await removeLineComment(req.ctx.h, repoOf(req), doerOf(req), index, idField(req, 'comment'));
  return '';
});

/** POST .../files/suggestion: the suggestion of `comment` committed to the head branch. */
export const suggestion = (req: Request, res: Response) => run(req, res, '', async (index) => {
  await applySuggestion(req.ctx.h, repoOf(req), doerOf(req), index, idField(req, 'comment'));
  return `issuecomment-${idField(req, 'comment')}`;
});

/** POST .../files/review: the pending review (or a new one) submitted with `event` and `body`; 303 to it on the conversation. */
export async function review(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  let anchor = '';
  const refused = await tryForm(async () => {
    const event = field(req, 'event') || 'COMMENT';
    if (!['COMMENT', 'APPROVED', 'REQUEST_CHANGES'].includes(event)) throw new InvalidError('Choose Comment, Approve or Request changes.', 'event');
    anchor = `issuecomment-${await finishReview(req.ctx.h, repoOf(req), doerOf(req), index, event as Verdict, field(req, 'body'))}`;
  }, 'review');
  if (!refused) return redirectAfterPost(req, res, filesPath(req, index).replace(/\/files$/, ''), anchor);
  await renderFiles(req, res, index, { errors: refused.errors, values: valuesOf(req) }, refused.status);
}

/** GET .../files/review/discard: what discarding does, before it is done. */
export function discardConfirm(req: Request, res: Response): void {
  const index = indexParam(req);
  const here = repoLink(req.ctx.config, repoOf(req), `pulls/${index}/files/review/discard`);
  confirmPage(req, res, {
    title: 'Discard your review?', message: 'Your pending review and the comments in it are deleted; no one has seen them yet.',
    action: here, button: 'Discard review', cancel: repoLink(req.ctx.config, repoOf(req), `pulls/${index}/files#finish-review`),
  });
}

/** POST .../files/review/discard */
export const discard = (req: Request, res: Response) => run(req, res, '', async (index) => {
  await discardPendingReview(req.ctx.h, repoOf(req), doerOf(req), index);
  return '';
});
