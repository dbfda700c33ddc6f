import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { issueScreen, type IssueScreen } from '../../services/web/issue-screen';
import { queryString } from '../query';
import { textBlock, type ThreadView } from './comment-view';
import { csrfInput, field, formAlert, markdownField, submitButton, type FieldErrors } from './forms';
import { repoOf, unitsOf } from './guards';
import { plural, stateSpan, userLink } from './issue-pages-html';
import { issueSidebar } from './issue-sidebar';
import { pageColour, repoHeader, repoLink, sendPage, webUrl, when } from './layout';
import { timelineHtml } from './timeline';

// GET /{owner}/{repo}/issues/{index}: the issue page. The title, the opening post and the
// timeline, the comment form, and the sidebar; `?edit=title|issue|<comment id>` opens that
// form in place and `?quote=issue|<comment id>` fills the comment form with a quote, so the
// page needs no script. Forms that fail come back here (422) with their values and errors.

/** A form of this page posted back: which, its values, its errors. */
export type IssueForm = { which: 'comment' | 'title' | 'edit' | 'side'; key?: string; values: Record<string, string>; errors: FieldErrors };

/** A positive whole number from the path, else the page does not exist. */
export function indexParam(req: Request, name = 'index'): number {
  const value = String(req.params[name] ?? '');
  const n = /^\d{1,15}$/.test(value) ? Number(value) : 0;
  if (n < 1) throw new NotFoundError();
  return n;
}

/** Markdown quote of a text, for the comment form. */
const quoted = (text: string) => `${text.split('\n').map((l) => `> ${l}`).join('\n')}\n\n`;

function quoteOf(s: IssueScreen, key: string | undefined): string {
  if (!key) return '';
  if (key === 'issue') return quoted(s.view.issue.content);
  const e = s.thread.entries.find((x) => String(x.t.comment.id) === key);
  return e ? quoted(e.t.comment.content) : '';
}

function heading(v: ThreadView, s: IssueScreen, form?: IssueForm): SafeHtml {
  const { issue } = s.view;
  if (s.rights.edit && (v.editing === 'title' || form?.which === 'title')) {
    return html`<form class="title-edit" method="post" action="${repoLink(v.config, v.access, `issues/${issue.index}/title`)}">${v.csrf}
${field({ name: 'title', label: 'Title', value: form?.values.title ?? issue.title, required: true, autofocus: true }, form?.errors ?? {})}
${submitButton('Save')} <a class="button" href="${v.page}">Cancel</a></form>`;
  }
  const edit = s.rights.edit ? html` <a class="small" href="${v.page}?edit=title">Edit title</a>` : '';
  return html`<h1>${issue.title} <span class="meta">#${issue.index}</span>${edit}</h1>`;
}

function summary(v: ThreadView, s: IssueScreen): SafeHtml {
  const { issue } = s.view;
  const pinned = issue.pin_order ? html` · <span class="badge">Pinned</span>` : '';
  const locked = issue.is_locked ? html` · <span class="badge">Locked</span>` : '';
  return html`<p class="meta">${stateSpan(issue)} ${userLink(v.config, s.view.poster)} opened this issue ${when(issue.created_unix)} · ${plural(issue.num_comments, 'comment')}${pinned}${locked}</p>`;
}

function openingPost(v: ThreadView, s: IssueScreen): SafeHtml {
  const { issue } = s.view;
  return textBlock(v, {
    anchor: `issue-${issue.id}`, key: 'issue', who: s.view.poster, what: 'opened', at: issue.created_unix, edited: false,
    html: s.body, raw: issue.content, digest: s.bodyDigest, assets: s.view.assets, reactions: s.thread.issueReactions,
    mayEdit: s.rights.edit, target: `issues/${issue.index}`, editAction: `issues/${issue.index}/content`,
    editHidden: { version: String(issue.content_version) },
  });
}

function commentForm(req: Request, v: ThreadView, s: IssueScreen, form?: IssueForm): SafeHtml {
  const { issue } = s.view;
  if (!v.doer) {
    return html`<p class="note" id="new-comment"><a href="${webUrl(v.config, `user/login?redirect_to=${encodeURIComponent(req.originalUrl)}`)}">Sign in</a> to join this conversation.</p>`;
  }
  if (!s.rights.comment) return html`<p class="note" id="new-comment">This conversation is locked: only collaborators can comment.</p>`;
  const errors = form?.which === 'comment' ? form.errors : {};
  const value = form?.which === 'comment' ? form.values.content : quoteOf(s, queryString(req, 'quote'));
  const state = s.rights.edit
    ? html`<button type="submit" name="status" value="${issue.is_closed ? 'reopen' : 'close'}">${issue.is_closed ? 'Reopen with comment' : 'Close with comment'}</button> `
    : '';
  const file = s.rights.write && v.config.attachment.enabled ? fileField(errors) : '';
  return html`<form class="comment-form" id="new-comment" method="post" action="${repoLink(v.config, v.access, `issues/${issue.index}/comments`)}" enctype="multipart/form-data">
<h2 class="vh">Add a comment</h2>${formAlert(errors[''])}${v.csrf}
${markdownField({ name: 'content', label: 'Comment', value, previewUrl: webUrl(v.config, '-/markdown'), context: `${v.access.owner.name}/${v.access.repo.name}` }, errors)}
${file}<div class="buttons">${state}${submitButton('Comment')}</div></form>`;
}

/** The file input of the comment and new issue forms (multipart `attachment`). */
export function fileField(errors: FieldErrors): SafeHtml {
  const error = errors.attachment;
  return html`<div class="field${error ? ' invalid' : ''}"><label for="f-attachment">Attach a file</label>
<input type="file" id="f-attachment" name="attachment"${error ? html` aria-invalid="true" aria-describedby="f-attachment-error"` : ''}>
${error ? html`<p class="error" id="f-attachment-error">${error}</p>` : ''}</div>`;
}

/** Renders the issue page, or its re-render with a form's values and errors (422). */
export async function renderIssue(req: Request, res: Response, index: number, form?: IssueForm): Promise<void> {
  const { config, doer } = req.ctx;
  const access = repoOf(req);
  const s = await issueScreen(req.ctx.h, access, doer, index);
  if ('kind' in s) {
    res.redirect(302, repoLink(config, access, `pulls/${index}`));
    return;
  }
  if (!unitsOf(res).has('repo.issues')) throw new NotFoundError();
  const page = repoLink(config, access, `issues/${index}`);
  const v: ThreadView = {
    config, access, colour: (hex) => pageColour(res, hex), csrf: doer ? csrfInput(req, res) : html``, doer, page,
    editing: form?.which === 'edit' ? form.key ?? '' : queryString(req, 'edit') ?? '',
    reacting: queryString(req, 'react'),
    reactions: config.ui.reactions, mayReact: s.rights.react, mayComment: s.rights.comment,
    form: form?.which === 'edit' ? { values: form.values, errors: form.errors } : undefined,
  };
  const body = html`${repoHeader(config, access, unitsOf(res), 'issues')}
<div class="issue-head">${heading(v, s, form)}${summary(v, s)}</div>${form?.which === 'side' ? formAlert(form.errors['']) : ''}
<div class="issue-layout"><div class="issue-main">${openingPost(v, s)}
${timelineHtml(v, s.thread)}
${commentForm(req, v, s, form)}</div>
${issueSidebar(v, s)}</div>`;
  sendPage(req, res, { title: `${s.view.issue.title} #${index}`, body, status: form ? 422 : 200 });
}

/** GET /{owner}/{repo}/issues/{index} */
export const issuePage = (req: Request, res: Response): Promise<void> => renderIssue(req, res, indexParam(req));
