import type { Attachment, User } from '../../db/schema';
import { encodePath, escapeHtml, html, raw, type SafeHtml } from '../../lib/html';
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
// Markup other than Latin-1 makes V8 hold the whole page as two bytes a character, which
// doubles what joining and encoding it costs: the glyphs go as character references.
const charRefs = (s: string) => raw([...s].map((c) => `&#${c.codePointAt(0)};`).join(''));
const GLYPHS = new Map(Object.entries(EMOJI).map(([k, g]) => [k, charRefs(g)]));
export const reactionGlyph = (content: string): SafeHtml | string => GLYPHS.get(content) ?? `:${content}:`;

export const personLink = (v: View, u: User | undefined): SafeHtml =>
  (u ? html`<a class="user" href="${webUrl(v.config, encodePath(u.name))}">${u.name}</a>` : html`<span class="user">Ghost</span>`);

/**
 * What every text of one page repeats, escaped once per page: its own URL, the repository's,
 * and each poster's link. A page of 200 comments built them 200 times over, through html``,
 * in most of its markup's cost; a text block is now one template of escaped values.
 */
type Shared = { page: string; repo: string; people: Map<number, string> };
const sharedOf = new WeakMap<ThreadView, Shared>();

function shared(v: ThreadView): Shared {
  let s = sharedOf.get(v);
  if (!s) {
    s = { page: escapeHtml(v.page), repo: escapeHtml(repoLink(v.config, v.access)), people: new Map() };
    sharedOf.set(v, s);
  }
  return s;
}

function person(v: ThreadView, u: User | undefined): string {
  if (!u) return '<span class="user">Ghost</span>';
  const people = shared(v).people;
  let link = people.get(u.id);
  if (link === undefined) {
    link = personLink(v, u).value;
    people.set(u.id, link);
  }
  return link;
}

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
    const button = html`<button type="submit" class="task" form="${formId}" name="task" value="${n}-${on ? 'off' : 'on'}" role="checkbox" aria-checked="${on ? 'true' : 'false'}" aria-label="${name}">${raw(on ? '&#9745;' : '&#9744;')}</button>`;
    n++;
    return `${button.value}${rest}`;
  });
}

function menu(v: ThreadView, b: TextBlock): string {
  const { page, repo } = shared(v);
  const key = escapeHtml(b.key);
  let items = v.mayComment ? `<li><a href="${page}?quote=${key}#new-comment">Quote reply</a></li>` : '';
  if (b.mayEdit) items += `<li><a href="${page}?edit=${key}#${escapeHtml(b.anchor)}">Edit</a></li>`;
  if (b.mayEdit && b.deletePath) items += `<li><a href="${repo}/${escapeHtml(b.deletePath)}">Delete</a></li>`;
  if (!items) return '';
  return `<details class="menu actions"><summary aria-label="Actions on this text of ${escapeHtml(b.who?.name ?? 'Ghost')}">&#8230;</summary><ul>${items}</ul></details>`;
}

function body(v: ThreadView, b: TextBlock): string {
  if (b.mayEdit && v.editing === b.key) return editForm(v, b).value;
  if (!b.html) return '<div class="body"><p class="meta">No description provided.</p></div>';
  if (!b.mayEdit || !b.html.includes('type="checkbox"')) return `<div class="body markdown">${b.html}</div>`;
  const formId = `tasks-${b.key}`;
  return html`<form id="${formId}" method="post" action="${repoLink(v.config, v.access, `${b.target}/tasks`)}" hidden>${v.csrf}<input type="hidden" name="digest" value="${b.digest}"></form>
<div class="body markdown">${raw(taskButtons(b.html, formId))}</div>`.value;
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

function attachments(v: ThreadView, assets: Attachment[]): string {
  if (!assets.length) return '';
  const item = (a: Attachment) => html`<li><a href="${webUrl(v.config, `attachments/${encodeURIComponent(a.uuid)}`)}">${a.name}</a> <span class="meta">${a.size} bytes</span></li>`;
  return html`<ul class="attachments" aria-label="Attached files">${assets.map(item)}</ul>`.value;
}

/** Existing reactions as toggles, and the others when the picker is open (`?react=<key>`), in one form. */
export function reactionsForm(v: ThreadView, b: Pick<TextBlock, 'target' | 'reactions' | 'key' | 'anchor'>): SafeHtml | '' {
  const { target, reactions: tallies } = b;
  if (!tallies.length && !v.mayReact) return '';
  // Most texts of a page: no reaction yet, the picker closed: the add link alone.
  if (!tallies.length && v.reacting !== b.key) {
    const add = v.reactions.length
      ? `<a class="react-add" href="${shared(v).page}?react=${escapeHtml(b.key)}#${escapeHtml(b.anchor)}" aria-label="Add a reaction">&#9786;+</a>` : '';
    return raw(`<div class="reactions">${add}</div>`);
  }
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
      : html`<a class="react-add" href="${v.page}?react=${b.key}#${b.anchor}" aria-label="Add a reaction">&#9786;+</a>`;
  const inner = html`${tallies.map(tally)}${add}`;
  if (!v.mayReact) return html`<div class="reactions">${inner}</div>`;
  // Nothing to post until a reaction exists or the picker is open: no form, no token.
  if (!tallies.length && !picking) return html`<div class="reactions">${add}</div>`;
  return html`<form class="reactions" method="post" action="${repoLink(v.config, v.access, `${target}/reactions`)}">${v.csrf}${inner}</form>`;
}

export function textBlock(v: ThreadView, b: TextBlock): SafeHtml {
  const anchor = escapeHtml(b.anchor);
  const what = typeof b.what === 'string' ? escapeHtml(b.what) : b.what.value;
  const edited = b.edited ? ' <span class="edited">(edited)</span>' : '';
  const reactions = reactionsForm(v, b);
  return raw(`<div class="comment" id="${anchor}"><div class="meta">${person(v, b.who)} ${what} ${when(b.at).value}${edited} <a href="#${anchor}" aria-label="Link to this text">#</a>${menu(v, b)}</div>
${body(v, b)}${attachments(v, b.assets)}${reactions === '' ? '' : reactions.value}</div>`);
}
