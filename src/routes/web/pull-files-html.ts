import { createHash } from 'node:crypto';
import { html, type SafeHtml } from '../../lib/html';
import { isWip } from '../../services/pull/pull-merge';
import type { FileEntry, FilesPage } from '../../services/web/pull-files-page';
import type { Thread } from '../../services/web/pull-threads-view';
import { plural, type View } from './issue-pages-html';
import { pager } from './layout';
import { diffTable } from './pull-diff-html';
import { pullHeadHtml, pullUrl } from './pull-html';
import type { Forms } from './pull-merge-html';
import { threadHtml, type FileCtx } from './pull-thread-html';

// The "Files changed" tab: the toolbar (unified or split, whitespace, changes since your last
// review), the finish-review form, the file list with +/- counts and Viewed marks, and each
// file collapsible with its diff and threads.

export type FilesState = {
  split: boolean;
  whitespace: string;
  since: boolean;
  page: number;
  load: string[];
  /** The open comment form: the file's path and the line (`new:12`). */
  at?: { path: string; key: string };
  signedIn: boolean;
};

export const fileAnchor = (path: string): string => `diff-${createHash('sha1').update(path).digest('hex').slice(0, 12)}`;

/** The page's own URL with the state kept and `extra` changed. */
export function stateUrl(base: string, s: FilesState, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  if (s.whitespace !== 'show-all') q.set('whitespace', s.whitespace);
  if (!s.signedIn) q.set('style', s.split ? 'split' : 'unified');
  if (s.since) q.set('since', 'review');
  if (s.page > 1) q.set('page', String(s.page));
  for (const p of s.load) q.append('load', p);
  for (const [k, v] of Object.entries(extra)) if (v === undefined) q.delete(k); else q.set(k, v);
  const text = q.toString();
  return text ? `${base}?${text}` : base;
}

const WHITESPACE: Array<[string, string]> = [
  ['show-all', 'Show all changes'], ['ignore-all', 'Ignore whitespace'], ['ignore-change', 'Ignore changes in amount of whitespace'], ['ignore-eol', 'Ignore whitespace at line ends'],
];

function toolbar(base: string, page: FilesPage, s: FilesState, f: Forms): SafeHtml {
  const styles = (['unified', 'split'] as const).map((style) => {
    const on = (style === 'split') === s.split;
    return s.signedIn
      ? html`<button type="submit" name="diff_view_style" value="${style}" aria-pressed="${on ? 'true' : 'false'}">${style === 'split' ? 'Split' : 'Unified'}</button>`
      : html`<a class="button" href="${stateUrl(base, s, { style })}"${on ? html` aria-current="true"` : ''}>${style === 'split' ? 'Split' : 'Unified'}</a>`;
  });
  const styleBox = s.signedIn ? html`<form method="post" action="${f.action('files/style')}" class="inline" aria-label="Diff style">${f.csrf}${styles}</form>` : html`<span>${styles}</span>`;
  const ws = html`<form method="get" action="${base}" class="inline">${s.since ? html`<input type="hidden" name="since" value="review">` : ''}
<label for="f-whitespace">Whitespace</label> <select id="f-whitespace" name="whitespace">${WHITESPACE.map(([v, label]) => html`<option value="${v}"${v === s.whitespace ? html` selected` : ''}>${label}</option>`)}</select> <button type="submit">Apply</button></form>`;
  const since = page.lastReviewed
    ? (s.since ? html`<a href="${stateUrl(base, s, { since: undefined })}">Show all changes</a>` : html`<a href="${stateUrl(base, s, { since: 'review' })}">Changes since your last review</a>`)
    : '';
  return html`<div class="row-actions diff-bar">${styleBox} ${ws} ${since}</div>`;
}

function finishReview(page: FilesPage, f: Forms): SafeHtml | '' {
  if (!page.perms.comment) return '';
  const v = f.state.values;
  const event = v.event ?? 'COMMENT';
  const choice = (value: string, label: string) =>
    html`<label><input type="radio" name="event" value="${value}"${event === value ? html` checked` : ''}> ${label}</label>`;
  const error = f.state.errors.review;
  const pending = page.pending ? html`<p class="meta">Your review has comments waiting: they are seen once you submit it.</p>` : '';
  const discard = page.pending ? html` <a class="button" href="${f.action('files/review/discard')}">Discard review</a>` : '';
  return html`<details class="finish-review" id="finish-review"${page.pending || error ? html` open` : ''}><summary>${page.pending ? 'Finish your review' : 'Review changes'}</summary>
<form method="post" action="${f.action('files/review')}" class="stack">${f.csrf}${pending}
${error ? html`<div class="flash error" role="alert" id="review-error">${error}</div>` : ''}
<label for="f-review-body">Review summary</label><textarea id="f-review-body" name="body"${error ? html` aria-describedby="review-error"` : ''}>${v.body ?? ''}</textarea>
<fieldset class="styles"><legend>Verdict</legend>${choice('COMMENT', 'Comment')}${page.perms.verdict ? html`${choice('APPROVED', 'Approve')}${choice('REQUEST_CHANGES', 'Request changes')}` : ''}</fieldset>
<div class="row-actions"><button type="submit" class="primary">Submit review</button>${discard}</div></form></details>`;
}

function viewedForm(e: FileEntry, f: Forms, doerId: number): SafeHtml | '' {
  if (!doerId) return '';
  return html`<form method="post" action="${f.action('files/viewed')}" class="inline viewed">${f.csrf}<input type="hidden" name="path" value="${e.file.filename}"><input type="hidden" name="blob" value="${e.file.blob}"><input type="hidden" name="viewed" value="${e.viewed ? 'off' : 'on'}">
<button type="submit" aria-pressed="${e.viewed ? 'true' : 'false'}" aria-label="Viewed: ${e.file.filename}"><span aria-hidden="true">${e.viewed ? '☑' : '☐'}</span> Viewed</button></form>`;
}

const counts = (e: FileEntry) => html`<span class="meta">${e.file.status}${e.file.previous ? html` from <code>${e.file.previous}</code>` : ''} <span class="plus">+${String(e.file.additions)}</span> <span class="minus">−${String(e.file.deletions)}</span></span>`;

function fileHtml(v: View, page: FilesPage, e: FileEntry, s: FilesState, f: Forms, base: string, doerId: number): SafeHtml {
  const anchor = fileAnchor(e.file.filename);
  const ctx: FileCtx = {
    config: v.config, path: e.file.filename, anchor, perms: page.perms, doerId, pending: !!page.pending, forms: f, placed: e.placed,
    at: s.at?.path === e.file.filename ? s.at.key : undefined,
    lineUrl: (side, n) => stateUrl(base, s, { path: e.file.filename, line: `${side}:${n}` }), here: `${stateUrl(base, s)}#${anchor}`,
  };
  let body: SafeHtml;
  if (!e.diff) body = html`<p class="meta">This diff is too large to show here: see the <a href="${pullUrl(v, page.pull)}.diff">raw diff</a>.</p>`;
  else if (e.big) body = html`<p class="meta">Large diffs are not shown at first. <a href="${stateUrl(base, { ...s, load: [...s.load, e.file.filename] })}#${anchor}">Load diff</a></p>`;
  else body = diffTable(ctx, e.diff, s.split);
  const outdated = e.outdated.length ? html`<p class="meta"><strong>Outdated conversations</strong></p>${e.outdated.map((t) => threadHtml(ctx, t, true))}` : '';
  return html`<section class="file" id="${anchor}" aria-label="${e.file.filename}"><div class="file-bar">${viewedForm(e, f, doerId)}</div>
<details${e.viewed || e.big ? '' : html` open`}><summary><code>${e.file.filename}</code> ${counts(e)}</summary>${body}${outdated}</details></section>`;
}

function fileList(page: FilesPage): SafeHtml {
  const row = (e: FileEntry) => html`<li><a href="#${fileAnchor(e.file.filename)}">${e.file.filename}</a> ${counts(e)}${e.viewed ? html` <span class="badge">Viewed</span>` : ''}</li>`;
  return html`<details class="file-list"><summary>${plural(page.total, 'changed file')} · ${String(page.viewedCount)} / ${String(page.files.length)} viewed</summary><ul class="list">${page.files.map(row)}</ul></details>`;
}

function elsewhere(v: View, page: FilesPage, f: Forms, doerId: number): SafeHtml | '' {
  if (!page.elsewhere.length) return '';
  const ctx = (t: Thread): FileCtx => ({
    config: v.config, path: t.head.path, anchor: fileAnchor(t.head.path), perms: page.perms, doerId, pending: !!page.pending, forms: f,
    placed: new Map(), at: undefined, lineUrl: () => '', here: pullUrl(v, page.pull),
  });
  return html`<section aria-labelledby="elsewhere-title"><h2 id="elsewhere-title">Conversations on files not shown</h2>${page.elsewhere.map((t) => threadHtml(ctx(t), t, true))}</section>`;
}

/** A refusal no form on the page shows: one of the page's own, or a comment on a file it does not list. */
function pageAlert(page: FilesPage, s: FilesState, f: Forms): SafeHtml | '' {
  const e = f.state.errors;
  const lost = s.at && !page.files.some((x) => x.file.filename === s.at!.path) ? (e.path ?? e.line ?? e.start ?? e.content) : undefined;
  const message = e[''] ?? lost;
  return message ? html`<div class="flash error" role="alert">${message}</div>` : '';
}

export function filesHtml(v: View, page: FilesPage, s: FilesState, f: Forms, doerId: number): SafeHtml {
  const base = `${pullUrl(v, page.pull)}/files`;
  const { pr } = page.pull;
  return html`${pullHeadHtml(v, page.pull, 'files', isWip(page.pull.issue.issue.title))}
${toolbar(base, page, s, f)}
<p class="meta">${plural(page.total, 'changed file')} with <span class="plus">${String(pr.additions)} additions</span> and <span class="minus">${String(pr.deletions)} deletions</span> · <span id="viewed-count">${String(page.viewedCount)} / ${String(page.files.length)} viewed</span> · <a href="${pullUrl(v, page.pull)}.diff">.diff</a> · <a href="${pullUrl(v, page.pull)}.patch">.patch</a></p>
${pageAlert(page, s, f)}
${finishReview(page, f)}
${page.truncated ? html`<p class="meta">Some diffs are too large to show: see the <a href="${pullUrl(v, page.pull)}.diff">raw diff</a>.</p>` : ''}
${fileList(page)}
${page.files.map((e) => fileHtml(v, page, e, s, f, base, doerId))}
${elsewhere(v, page, f, doerId)}
${pager(base, s.page, page.hasMore, s.whitespace !== 'show-all' ? { whitespace: s.whitespace } : {})}`;
}
