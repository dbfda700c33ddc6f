import type { Request, Response } from 'express';
import { issueHtmlUrl } from '../../convert/issue';
import type { Issue } from '../../db/schema';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { formFileMaxBytes, type FormFile } from '../../services/issue/attachment-upload';
import { commentWithState } from '../../services/issue/comment-and-state';
import { deleteComment, editComment, getComment } from '../../services/issue/comments';
import { editIssue } from '../../services/issue/issue-edit';
import { setIssueSubscription } from '../../services/issue/issue-subscriptions';
import { toggleCommentTask, toggleIssueTask } from '../../services/issue/issue-tasks';
import {
  addReaction, commentReactionTarget, issueReactionTarget, removeReaction, type ReactionTarget,
} from '../../services/issue/reactions';
import { getIssue } from '../../services/issue/issues';
import { confirmPage, csrfInput, formAction, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf } from './guards';
import { indexParam, renderIssue, type IssueForm } from './issue-view-pages';
import { repoLink, sendPage, webUrl } from './layout';
import type { Multipart } from './table';

// The forms of the issue page that change its conversation: comment (with "Close with
// comment"), title, body, a comment's edit and delete, reactions, task ticks and the viewer's
// subscription. Each parses the form, calls the API's service, and answers 303 back to the
// page and anchor; a refused form comes back as the page with its values and errors (422).

type Body = Record<string, unknown>;
export const bodyOf = (req: Request): Body => (req.body ?? {}) as Body;
/** One text field of the form ('' when absent; the first when repeated). */
export function text(req: Request, name: string): string {
  const v = bodyOf(req)[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : '';
}
/** Every value of a repeated field, without empty ones. */
export function texts(req: Request, name: string): string[] {
  const v = bodyOf(req)[name];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x !== '');
}

/** 303 to an issue or pull request page (and an anchor on it). */
export function backTo(req: Request, res: Response, issue: Pick<Issue, 'index' | 'is_pull'>, anchor = ''): void {
  const access = repoOf(req);
  res.redirect(303, `${issueHtmlUrl(req.ctx.config, access.owner, access.repo, issue)}${anchor ? `#${anchor}` : ''}`);
}

const doer = (req: Request) => req.ctx.doer!;

/** The form's file (multipart `attachment`), when one was chosen. */
export function formFile(req: Request): FormFile | undefined {
  const f = ((req.files ?? []) as Express.Multer.File[])[0];
  return f && f.size ? { buffer: f.buffer, originalName: f.originalname } : undefined;
}

/** The multipart forms' file field and limit ([attachment] max_size, capped: it is held in memory). */
export const attachmentUpload: Multipart = { field: 'attachment', limits: (req: Request) => ({ fileSize: formFileMaxBytes(req.ctx.config), files: 1 }) };

/** Runs `action`; a validation refusal re-renders the issue page with the form's state. */
async function orPage(req: Request, res: Response, index: number, form: Omit<IssueForm, 'errors'>, action: () => Promise<void>, fields: Record<string, string> = {}): Promise<boolean> {
  const errors = await formAction(action, fields).catch((err: unknown) => {
    if (err instanceof ConflictError) return { '': err.message } as FieldErrors;
    throw err;
  });
  if (!errors) return true;
  await renderIssue(req, res, index, { ...form, errors });
  return false;
}

/** POST .../issues/{index}/comments: a comment, a state change, or both. */
export async function postComment(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  const content = text(req, 'content');
  const status = text(req, 'status');
  const state = status === 'close' || status === 'reopen' ? status : undefined;
  let anchor = '';
  let issue: Pick<Issue, 'index' | 'is_pull'> = { index, is_pull: 0 };
  const done = await orPage(req, res, index, { which: 'comment', values: { content } }, async () => {
    const made = await commentWithState(req.ctx.h, repoOf(req), doer(req), index, { body: content, state, file: formFile(req) });
    if (made) [anchor, issue] = [`issuecomment-${made.comment.id}`, made.issue];
  }, { body: 'content' });
  if (done) backTo(req, res, issue, anchor);
}

/** POST .../issues/{index}/title */
export async function postTitle(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  const title = text(req, 'title').trim();
  let issue: Pick<Issue, 'index' | 'is_pull'> = { index, is_pull: 0 };
  const done = await orPage(req, res, index, { which: 'title', values: { title } }, async () => {
    if (!title) throw new InvalidError('Enter a title.', 'title');
    issue = (await editIssue(req.ctx.db, repoOf(req), doer(req), index, { title })).issue;
  });
  if (done) backTo(req, res, issue);
}

/** POST .../issues/{index}/content: the opening post, against the version the form showed. */
export async function postBody(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  const [content, version] = [text(req, 'content'), text(req, 'version')];
  let issue: Pick<Issue, 'id' | 'index' | 'is_pull'> = { id: 0, index, is_pull: 0 };
  const done = await orPage(req, res, index, { which: 'edit', key: 'issue', values: { content, version } }, async () => {
    const v = /^\d+$/.test(version) ? Number(version) : undefined;
    issue = (await editIssue(req.ctx.db, repoOf(req), doer(req), index, { body: content, content_version: v })).issue;
  });
  if (done) backTo(req, res, issue, `issue-${issue.id}`);
}

const commentId = (req: Request) => indexParam(req, 'id');

/** The comment (404 when hidden) and the issue it belongs to. */
async function commentOf(req: Request) {
  const view = await getComment(req.ctx.db, repoOf(req), req.ctx.doer, commentId(req));
  if (!view) throw new NotFoundError();
  return view;
}

/** A comment's edit form alone: where a pull request's comment comes back with its errors. */
function commentEditPage(req: Request, res: Response, id: number, content: string, errors: FieldErrors): void {
  const action = repoLink(req.ctx.config, repoOf(req), `comments/${id}`);
  sendPage(req, res, {
    status: 422, title: 'Edit comment',
    body: html`<h1>Edit comment</h1><form method="post" action="${action}">${formAlert(errors[''])}${csrfInput(req, res)}
${markdownField({ name: 'content', label: 'Comment', value: content, previewUrl: webUrl(req.ctx.config, '-/markdown') }, errors)}${submitButton('Save')}</form>`,
  });
}

/** POST .../comments/{id}: its poster or a writer. */
export async function postCommentEdit(req: Request, res: Response): Promise<void> {
  const view = await commentOf(req);
  const content = text(req, 'content');
  const id = view.comment.id;
  const errors = await formAction(async () => {
    await editComment(req.ctx.db, repoOf(req), doer(req), id, content);
  }, { body: 'content' });
  if (!errors) return backTo(req, res, view.issue, `issuecomment-${id}`);
  if (view.issue.is_pull) return commentEditPage(req, res, id, content, errors);
  await renderIssue(req, res, view.issue.index, { which: 'edit', key: String(id), values: { content }, errors });
}

/** GET .../comments/{id}/delete: what deleting does, before it is done. */
export async function deleteCommentPage(req: Request, res: Response): Promise<void> {
  const view = await commentOf(req);
  const back = `${issueHtmlUrl(req.ctx.config, repoOf(req).owner, repoOf(req).repo, view.issue)}#issuecomment-${view.comment.id}`;
  confirmPage(req, res, {
    title: 'Delete comment', message: 'The comment and its files are deleted for good.',
    action: repoLink(req.ctx.config, repoOf(req), `comments/${view.comment.id}/delete`), button: 'Delete comment', cancel: back,
  });
}

/** POST .../comments/{id}/delete */
export async function postCommentDelete(req: Request, res: Response): Promise<void> {
  const view = await commentOf(req);
  await deleteComment(req.ctx.db, repoOf(req), doer(req), view.comment.id);
  backTo(req, res, view.issue);
}

async function react(req: Request, res: Response, t: ReactionTarget, anchor: string): Promise<void> {
  const [add, remove] = [text(req, 'react'), text(req, 'unreact')];
  if (add) await addReaction(req.ctx.h, t, doer(req), add);
  else if (remove) await removeReaction(req.ctx.db, t, doer(req), remove);
  backTo(req, res, t.issue, anchor);
}

/** POST .../issues/{index}/reactions: `react` or `unreact` names the reaction. */
export async function postIssueReaction(req: Request, res: Response): Promise<void> {
  const t = await issueReactionTarget(req.ctx.db, repoOf(req), req.ctx.doer, indexParam(req));
  await react(req, res, t, `issue-${t.issue.id}`);
}

/** POST .../comments/{id}/reactions */
export async function postCommentReaction(req: Request, res: Response): Promise<void> {
  const t = await commentReactionTarget(req.ctx.db, repoOf(req), req.ctx.doer, commentId(req));
  await react(req, res, t, `issuecomment-${t.key.commentId}`);
}

/** `task=<n>-on|off` and the text's digest. */
function toggleOf(req: Request) {
  const m = /^(\d{1,6})-(on|off)$/.exec(text(req, 'task'));
  return { task: m ? Number(m[1]) : -1, checked: m?.[2] === 'on', digest: text(req, 'digest') };
}

/** POST .../issues/{index}/tasks: ticks a task of the opening post. */
export async function postIssueTask(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  await toggleIssueTask(req.ctx.db, repoOf(req), doer(req), index, toggleOf(req));
  const { issue } = await getIssue(req.ctx.db, repoOf(req), req.ctx.doer, index);
  backTo(req, res, issue, `issue-${issue.id}`);
}

/** POST .../comments/{id}/tasks */
export async function postCommentTask(req: Request, res: Response): Promise<void> {
  const view = await commentOf(req);
  await toggleCommentTask(req.ctx.db, repoOf(req), doer(req), view.comment.id, toggleOf(req));
  backTo(req, res, view.issue, `issuecomment-${view.comment.id}`);
}

/** POST .../issues/{index}/watch: `watch=1` subscribes, `0` unsubscribes. */
export async function postWatch(req: Request, res: Response): Promise<void> {
  const index = indexParam(req);
  const me = doer(req);
  await setIssueSubscription(req.ctx.db, repoOf(req), me, index, me.name, text(req, 'watch') === '1');
  const { issue } = await getIssue(req.ctx.db, repoOf(req), me, index);
  backTo(req, res, issue);
}
