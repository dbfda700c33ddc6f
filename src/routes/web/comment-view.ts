import type { Attachment, User } from '../../db/schema';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { ReactionTally } from '../../services/issue/reactions';
import { markdownField, submitButton, type FieldErrors } from './forms';
import type { View } from './issue-pages-html';
import { repoLink, webUrl, when } from './layout';

// One text of a conversation (an issue's opening post, a comment, a review's body) as its page
// shows it: who and when, a menu (quote reply, edit, delete), the rendered text with its task
// checkboxes as buttons for those who may tick them, its files, and its reactions as a form of
// buttons. `?edit=<id>` renders the edit form in its place, so editing needs no script.

/** What every text of one page shares: its repository view, the form token and the viewer. */
export type ThreadView = View & {
  csrf: SafeHtml; doer: User | null;
  /** The page's own URL (no query): menus link back to it with `?edit=` and `?quote=`. */
  page: string;
  /** The `?edit=` of the request: the text whose form is open. */
  editing: string;
  /** The `?react=` of the request: the text whose reaction picker is open (one at a time: 8 buttons per text would weigh the page). */
  reacting?: string;
  /** The reactions the instance allows ([ui] reactions). */
  reactions: readonly string[];
  /** The viewer may react (signed in; a locked conversation takes writers only). */
  mayReact: boolean;
  /** The viewer may comment (the quote reply link goes to the comment form). */
  mayComment: boolean;
  /** An edit form posted back with errors: its values and messages. */
  form?: { values: Record<string, string>; errors: FieldErrors };
};

/** A text of the page: its anchor, and the paths its forms post to. */
export type TextBlock = {
  /** The anchor html_url points at (`issue-5`, `issuecomment-12`). */
  anchor: string;
  /** `?edit=` and `?quote=` value: `issue` for the opening post, else the comment id. */
  key: string;
  who: User | undefined; what: string | SafeHtml; at: number; edited: boolean;
  html: string; raw: string; digest: string; assets: Attachment[]; reactions: ReactionTally[];
  mayEdit: boolean;
  /** Under the repository: `issues/5` or `comments/12`; its forms add `/reactions`, `/tasks`... */
  target: string;
  /** The edit form posts here (`issues/5/content` or `comments/12`), with these hidden fields. */
  editAction: string; editHidden?: Record<string, string>;
  /** Delete's confirmation page (comments only). */
  deletePath?: string;
};

const EMOJI: Record<string, string> = {
  '+1': '👍', '-1': '👎', laugh: '😄', hooray: '🎉', confused: '😕', heart: '❤️', rocket: '🚀', eyes: '👀',
};
export const reactionGlyph = (content: string): string => EMOJI[content] ?? `:${content}:`;

export const personLink = (v: View, u: User | undefined): SafeHtml =>
  (u ? html`<a class="user" href="${webUrl(v.config, encodePath(u.name))}">${u.name}</a>` : html`<span class="user">Ghost</span>`);

const DECODE: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': '\'' };
const plain = (s: string) => s.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => DECODE[e]!).replace(/\s+/g, ' ').trim();

/**
 * The renderer's disabled task checkboxes, in order, as buttons of the text's task form: each
 * posts its number and the state it sets; its name is its item's text.
 */
function taskButtons(rendered: string, formId: string): string {
  let n = 0;
  return rendered.replace(/<input type="checkbox" disabled( checked)? \/>(.*?)(?=<\/li>|<ul|<ol|<p>|$)/gs, (_m, checked: string | undefined, rest: string) => {
    const on = !!checked;
    const name = plain(rest).slice(0, 80) || `Task ${n + 1}`;
    const button = html`<button type="submit" class="task" form="${formId}" name="task" value="${n}-${on ? 'off' : 'on'}" role="checkbox" aria-checked="${on ? 'true' : 'false'}" aria-label="${name}">${on ? '☑' : '☐'}</button>`;
    n++;
    return `${button.value}${rest}`;
  });
}

function menu(v: ThreadView, b: TextBlock): SafeHtml | '' {
  const items = [
    v.mayComment ? html`<li><a href="${v.page}?quote=${b.key}#new-comment">Quote reply</a></li>` : '',
    b.mayEdit ? html`<li><a href="${v.page}?edit=${b.key}#${b.anchor}">Edit</a></li>` : '',
    b.mayEdit && b.deletePath ? html`<li><a href="${repoLink(v.config, v.access, b.deletePath)}">Delete</a></li>` : '',
  ].filter(Boolean);
  if (!items.length) return '';
  return html`<details class="menu actions"><summary aria-label="Actions on this text of ${b.who?.name ?? 'Ghost'}">…</summary><ul>${items}</ul></details>`;
}

function body(v: ThreadView, b: TextBlock): SafeHtml {
  if (b.mayEdit && v.editing === b.key) return editForm(v, b);
  if (!b.html) return html`<div class="body"><p class="meta">No description provided.</p></div>`;
  if (!b.mayEdit || !b.html.includes('type="checkbox"')) return html`<div class="body markdown">${raw(b.html)}</div>`;
  const formId = `tasks-${b.key}`;
  return html`<form id="${formId}" method="post" action="${repoLink(v.config, v.access, `${b.target}/tasks`)}" hidden>${v.csrf}<input type="hidden" name="digest" value="${b.digest}"></form>
<div class="body markdown">${raw(taskButtons(b.html, formId))}</div>`;
}

function editForm(v: ThreadView, b: TextBlock): SafeHtml {
  const values = v.form?.values ?? {};
  const hidden = Object.entries(b.editHidden ?? {}).map(([k, val]) => html`<input type="hidden" name="${k}" value="${values[k] ?? val}">`);
  const field = markdownField({
    name: 'content', id: `edit-${b.key}`, label: 'Edit the text', value: values.content ?? b.raw,
    previewUrl: webUrl(v.config, '-/markdown'), context: `${v.access.owner.name}/${v.access.repo.name}`,
  }, v.form?.errors ?? {});
  const alert = v.form?.errors[''] ? html`<div class="flash error" role="alert">${v.form.errors['']}</div>` : '';
  return html`<form class="body edit" method="post" action="${repoLink(v.config, v.access, b.editAction)}">${alert}${v.csrf}${hidden}${field}
${submitButton('Save')} <a class="button" href="${v.page}#${b.anchor}">Cancel</a></form>`;
}

function attachments(v: ThreadView, assets: Attachment[]): SafeHtml | '' {
  if (!assets.length) return '';
  const item = (a: Attachment) => html`<li><a href="${webUrl(v.config, `attachments/${encodeURIComponent(a.uuid)}`)}">${a.name}</a> <span class="meta">${a.size} bytes</span></li>`;
  return html`<ul class="attachments" aria-label="Attached files">${assets.map(item)}</ul>`;
}

/** Existing reactions as toggles, and the others when the picker is open (`?react=<key>`), in one form. */
export function reactionsForm(v: ThreadView, b: Pick<TextBlock, 'target' | 'reactions' | 'key' | 'anchor'>): SafeHtml | '' {
  const { target, reactions: tallies } = b;
  if (!tallies.length && !v.mayReact) return '';
  const tally = (t: ReactionTally) => {
    const who = `${t.users.slice(0, 10).join(', ')}${t.count > 10 ? ` and ${t.count - 10} more` : ''}`;
    const label = `${t.content}: ${t.count}, by ${who}`;
    if (!v.mayReact) return html`<span class="reaction" title="${label}"><span aria-hidden="true">${reactionGlyph(t.content)}</span> ${t.count}<span class="vh"> ${label}</span></span>`;
    return html`<button type="submit" class="reaction" name="${t.mine ? 'unreact' : 'react'}" value="${t.content}" aria-pressed="${t.mine ? 'true' : 'false'}" aria-label="${label}" title="${who}">${reactionGlyph(t.content)} ${t.count}</button>`;
  };
  const others = v.reactions.filter((r) => !tallies.some((t) => t.content === r));
  const picking = v.reacting === b.key;
  const add = !v.mayReact || !others.length ? ''
    : picking
      ? html`${others.map((r) => html`<button type="submit" class="reaction" name="react" value="${r}" aria-label="React with ${r}">${reactionGlyph(r)}</button>`)} <a href="${v.page}#${b.anchor}">Close</a>`
      : html`<a class="react-add" href="${v.page}?react=${b.key}#${b.anchor}" aria-label="Add a reaction">☺+</a>`;
  const inner = html`${tallies.map(tally)}${add}`;
  if (!v.mayReact) return html`<div class="reactions">${inner}</div>`;
  // Nothing to post until a reaction exists or the picker is open: no form, no token.
  if (!tallies.length && !picking) return html`<div class="reactions">${add}</div>`;
  return html`<form class="reactions" method="post" action="${repoLink(v.config, v.access, `${target}/reactions`)}">${v.csrf}${inner}</form>`;
}

export function textBlock(v: ThreadView, b: TextBlock): SafeHtml {
  return html`<div class="comment" id="${b.anchor}"><div class="meta">${personLink(v, b.who)} ${b.what} ${when(b.at)}${b.edited ? html` <span class="edited">(edited)</span>` : ''} <a href="#${b.anchor}" aria-label="Link to this text">#</a>${menu(v, b)}</div>
${body(v, b)}${attachments(v, b.assets)}${reactionsForm(v, b)}</div>`;
}
