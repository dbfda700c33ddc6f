import type { Config } from '../../config/schema';
import { html, type SafeHtml } from '../../lib/html';
import type { PullPerms } from '../../services/pull/pull-perms';
import type { Thread, ThreadComment } from '../../services/web/pull-threads-view';
import { commentBlock, userLink } from './issue-pages-html';
import type { Forms } from './pull-merge-html';

// A review thread on the files page: its comments (the visitor's pending ones editable), a
// suggestion's "Apply", a reply and resolve/unresolve, and the form that starts a thread on a
// line. Every form posts without the script and comes back to the thread's anchor.

export type FileCtx = {
  config: Config;
  path: string;
  /** The file's anchor on the page; its lines are `{anchor}-L{n}` and `{anchor}-R{n}`. */
  anchor: string;
  perms: PullPerms;
  doerId: number;
  /** The visitor has a review in progress (new comments join it). */
  pending: boolean;
  forms: Forms;
  placed: Map<string, Thread[]>;
  /** The line whose comment form is open (`new:12`), from the page state. */
  at: string | undefined;
  lineUrl: (side: 'old' | 'new', n: number) => string;
  /** The page itself, where a cancelled form goes back to. */
  here: string;
};

const hidden = (name: string, value: string | number): SafeHtml => html`<input type="hidden" name="${name}" value="${String(value)}">`;

function commentActions(f: FileCtx, t: Thread, c: ThreadComment): SafeHtml | '' {
  const id = c.comment.id;
  const apply = c.suggestion !== null && f.perms.write && !t.pending && !t.resolver
    ? html`<form method="post" action="${f.forms.action('files/suggestion')}" class="inline">${f.forms.csrf}${hidden('comment', id)}<button type="submit">Apply suggestion</button></form>` : '';
  const own = t.pending && c.comment.poster_id === f.doerId
    ? html`<details class="edit"><summary>Edit</summary><form method="post" action="${f.forms.action('files/comment/edit')}" class="stack">${f.forms.csrf}${hidden('comment', id)}
<label for="edit-${id}">Comment</label><textarea id="edit-${id}" name="content" required>${c.comment.content}</textarea><button type="submit">Save</button></form>
<form method="post" action="${f.forms.action('files/comment/delete')}" class="inline">${f.forms.csrf}${hidden('comment', id)}<button type="submit" class="danger">Delete comment</button></form></details>` : '';
  return apply || own ? html`<div class="row-actions">${apply}${own}</div>` : '';
}

function commentHtml(f: FileCtx, t: Thread, c: ThreadComment): SafeHtml {
  const what = t.pending ? html`commented <span class="badge">Pending</span>` : 'commented';
  return html`${commentBlock(f.config, { id: `issuecomment-${c.comment.id}`, who: userLink(f.config, c.poster), what, at: c.comment.created_unix, body: c.html })}${commentActions(f, t, c)}`;
}

function threadForms(f: FileCtx, t: Thread): SafeHtml | '' {
  if (t.pending) return '';
  const id = t.head.id;
  const reply = f.perms.comment
    ? html`<details class="reply"><summary>Reply</summary><form method="post" action="${f.forms.action('files/reply')}" class="stack">${f.forms.csrf}${hidden('comment', id)}
<label for="reply-${id}">Reply</label><textarea id="reply-${id}" name="content" required></textarea><button type="submit">Reply</button></form></details>` : '';
  const resolve = f.perms.resolve
    ? html`<form method="post" action="${f.forms.action('files/resolve')}" class="inline">${f.forms.csrf}${hidden('comment', id)}${hidden('resolved', t.resolver ? 'off' : 'on')}<button type="submit">${t.resolver ? 'Unresolve conversation' : 'Resolve conversation'}</button></form>` : '';
  return html`<div class="row-actions">${reply}${resolve}</div>`;
}

/** A thread; resolved ones start folded, outdated ones say so. */
export function threadHtml(f: FileCtx, t: Thread, outdated = false): SafeHtml {
  const lines = t.start ? `lines ${t.start}–${t.line}` : `line ${t.line}`;
  const notes = [
    outdated ? html` <span class="badge">Outdated</span>` : '',
    t.resolver ? html` · resolved by ${userLink(f.config, t.resolver)}` : '',
  ];
  return html`<details class="thread" id="thread-${String(t.head.id)}"${t.resolver ? '' : html` open`}><summary><code>${t.head.path}</code> ${t.side === 'old' ? 'old ' : ''}${lines}${notes}</summary>
${t.comments.map((c) => commentHtml(f, t, c))}${threadForms(f, t)}</details>`;
}

/** The form under a line: one comment now, or into the visitor's review. */
export function commentForm(f: FileCtx, key: string): SafeHtml {
  const [side, n] = key.split(':') as ['old' | 'new', string];
  const v = f.forms.state.values;
  const err = f.forms.state.errors;
  const error = err.content ?? err.line ?? err.start ?? err.path ?? err[''];
  return html`<form method="post" action="${f.forms.action('files/comment')}" class="stack line-comment" id="comment-form">${f.forms.csrf}
${hidden('path', f.path)}${hidden('side', side)}${hidden('line', n)}
${error ? html`<div class="flash error" role="alert" id="comment-error">${error}</div>` : ''}
<label for="f-content">Comment on ${side === 'old' ? 'old ' : ''}line ${n}</label>
<textarea id="f-content" name="content" required${error ? html` aria-describedby="comment-error"` : ''}>${v.content ?? ''}</textarea>
<label for="f-start">From line (for a range, optional)</label><input id="f-start" name="start" inputmode="numeric" pattern="[0-9]*" value="${v.start ?? ''}">
<div class="row-actions">${f.pending ? '' : html`<button type="submit" name="mode" value="single">Add single comment</button>`}
<button type="submit" name="mode" value="review" class="primary">${f.pending ? 'Add review comment' : 'Start a review'}</button>
<a class="button" href="${f.here}">Cancel</a></div></form>`;
}
