import type { Config } from '../../config/schema';
import type { Attachment, Issue, Label, Milestone, User } from '../../db/schema';
import { issueHtmlUrl } from '../../convert/issue';
import type { PullView } from '../../convert/pull';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { CommentView, IssueView } from '../../services/issue/issue-views';
import type { RepoAccess } from '../../services/repo/repos';
import type { ListPage, ListRow, ListState, Rendered } from '../../services/web/issue-pages';
import type { LabelsPage, MilestonesPage } from '../../services/web/issue-pages-meta';
import type { WebUnit } from '../../services/web/units';
import { pager, repoLink, webUrl, when } from './layout';

// The markup of the issue, pull request, label and milestone pages (the pull request's own
// parts are in pull-html.ts and its neighbours). Everything goes through html``; only markdown that
// the renderer produced is raw().

/** `colour` turns a user colour (a label's) into a class the page's style block defines (layout.pageColour). */
export type View = { config: Config; access: RepoAccess; colour: (hex: string) => string };

export const userLink = (config: Config, u: User | undefined): SafeHtml =>
  (u ? html`<a href="${webUrl(config, encodePath(u.name))}">${u.name}</a>` : html`<span>Ghost</span>`);

/** Labels in their colours (a class per colour: the CSP allows no inline style). */
export const labelSpans = (v: View, labels: Label[]): SafeHtml[] =>
  labels.map((l) => html` <span class="label ${v.colour(l.color)}" title="${l.description}">${l.name}</span>`);

/** Of an issue, a pull request or a milestone. */
export function stateSpan(item: Pick<Issue, 'is_closed'>, merged = false): SafeHtml {
  if (merged) return html`<span class="state-merged">Merged</span>`;
  return item.is_closed ? html`<span class="state-closed">Closed</span>` : html`<span class="state-open">Open</span>`;
}

/** `owner:branch` when the head is another repository's, as Gitea shows a fork's head. */
export function headLabel(p: PullView): string {
  const fork = p.pr.head_repo_id !== p.base.repo.id;
  return fork && p.head ? `${p.head.owner.name}:${p.pr.head_branch}` : p.pr.head_branch;
}

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export const milestoneLink = (v: View, m: Milestone): SafeHtml =>
  html`<a href="${repoLink(v.config, v.access, `milestone/${m.id}`)}">${m.name}</a>`;

/** A control before a row's state (the bulk form's checkbox). */
export type RowControl = (r: ListRow) => SafeHtml | '';

function listRow(v: View, r: ListRow, control?: RowControl): SafeHtml {
  const { issue } = r.view;
  const branches = r.pull ? html` <span class="meta"><code>${headLabel(r.pull)}</code> → <code>${r.pull.pr.base_branch}</code></span>` : '';
  const comments = issue.num_comments ? ` · ${plural(issue.num_comments, 'comment')}` : '';
  const milestone = r.view.milestone ? html` · ${milestoneLink(v, r.view.milestone)}` : '';
  return html`<li>${control?.(r) ?? ''}${stateSpan(issue, r.view.pull?.merged)} <a href="${issueHtmlUrl(v.config, v.access.owner, v.access.repo, issue)}">${issue.title}</a>${labelSpans(v, r.view.labels)}${branches}
<div class="meta">#${issue.index} opened ${when(issue.created_unix)} by ${userLink(v.config, r.view.poster)}${milestone}${comments}</div></li>`;
}

/** Open / Closed / All links keeping the other filters. */
export function stateNav(base: string, current: ListState, query: Record<string, string>, counts?: { open: number; closed: number }): SafeHtml {
  const link = (state: ListState, label: string, n?: number) => {
    const q = new URLSearchParams({ ...query, state });
    const count = n === undefined ? '' : html` <span class="count">${n}</span>`;
    return html`<a class="${state === current ? 'active' : ''}" href="${base}?${q.toString()}">${label}${count}</a>`;
  };
  return html`<nav class="tabs">${link('open', 'Open', counts?.open)}${link('closed', 'Closed', counts?.closed)}${link('all', 'All')}</nav>`;
}

/** The rows and the pager of a listing; `base` and `query` rebuild its URL. */
export function listBody(v: View, list: ListPage, page: number, base: string, query: Record<string, string>, empty: string, control?: RowControl): SafeHtml {
  const rows = list.rows.length ? html`<ul class="list">${list.rows.map((r) => listRow(v, r, control))}</ul>` : html`<p class="meta">${empty}</p>`;
  return html`${rows}\n${pager(base, page, list.hasMore, query)}`;
}

const attachmentList = (config: Config, assets: Attachment[]): SafeHtml | '' => (assets.length
  ? html`<ul class="attachments">${assets.map((a) => html`<li><a href="${webUrl(config, `attachments/${encodeURIComponent(a.uuid)}`)}">${a.name}</a> <span class="meta">${a.size} bytes</span></li>`)}</ul>`
  : '');

const markdown = (rendered: string, empty = ''): SafeHtml =>
  (rendered ? html`<div class="body markdown">${raw(rendered)}</div>` : html`<div class="body"><p class="meta">${empty}</p></div>`);

/** One block of the conversation; `id` is the anchor html_url points at. */
export function commentBlock(config: Config, c: { id: string; who: SafeHtml; what: string | SafeHtml; at: number; body: string; assets?: Attachment[] }): SafeHtml {
  return html`<div class="comment" id="${c.id}"><div class="meta">${c.who} ${c.what} ${when(c.at)} <a href="#${c.id}">#</a></div>
${markdown(c.body)}${attachmentList(config, c.assets ?? [])}</div>`;
}

export const commentOf = (config: Config, c: Rendered<CommentView>): SafeHtml => commentBlock(config, {
  id: `issuecomment-${c.view.comment.id}`, who: userLink(config, c.view.poster), what: 'commented',
  at: c.view.comment.created_unix, body: c.html, assets: c.view.assets,
});

/** Title, state and the facts shared by issue and pull request pages. */
export function issueHead(v: View, view: IssueView, merged: boolean, summary: SafeHtml): SafeHtml {
  const { issue } = view;
  const facts = [
    view.labels.length ? html`<li>Labels:${labelSpans(v, view.labels)}</li>` : '',
    view.milestone ? html`<li>Milestone: ${milestoneLink(v, view.milestone)}</li>` : '',
    view.assignees.length ? html`<li>Assignees: ${view.assignees.map((u, n) => html`${n ? ', ' : ''}${userLink(v.config, u)}`)}</li>` : '',
    issue.deadline_unix ? html`<li>Due ${when(issue.deadline_unix)}</li>` : '',
    issue.is_locked ? html`<li>Locked</li>` : '',
  ].filter(Boolean);
  return html`<h1>${issue.title} <span class="meta">#${issue.index}</span></h1>
<p class="meta">${stateSpan(issue, merged)} ${summary}</p>
${facts.length ? html`<ul class="meta facts">${facts}</ul>` : ''}`;
}

/** The opening post: the issue's body and files. */
export const openingPost = (config: Config, view: IssueView, body: string): SafeHtml => commentBlock(config, {
  id: `issue-${view.issue.id}`, who: userLink(config, view.poster), what: 'opened', at: view.issue.created_unix, body, assets: view.assets,
});

/** Where a label's issues are listed: the issues unit when readable, else the pulls. */
/** A writer's controls after a label or milestone row (edit, delete). */
export type ManageRow<T> = (item: T) => SafeHtml | '';

function labelRow(v: View, units: ReadonlySet<WebUnit>, l: Label, manage?: ManageRow<Label>): SafeHtml {
  const list = units.has('repo.issues') ? 'issues' : 'pulls';
  const open = l.num_issues - l.num_closed_issues;
  const link = l.org_id ? '' : html` · <a href="${repoLink(v.config, v.access, `${list}?labels=${l.id}`)}">${open} open</a>`;
  return html`<li><span class="label ${v.colour(l.color)}">${l.name}</span>${l.exclusive ? html` <span class="badge">exclusive</span>` : ''}${l.is_archived ? html` <span class="badge">archived</span>` : ''}
<div class="meta">${l.description}${link}</div>${manage?.(l) ?? ''}</li>`;
}

export function labelsBody(v: View, units: ReadonlySet<WebUnit>, page: LabelsPage, manage?: ManageRow<Label>): SafeHtml {
  const section = (title: string, labels: Label[], m?: ManageRow<Label>) => html`<h2>${title} <span class="count">${labels.length}</span></h2>
${labels.length ? html`<ul class="list">${labels.map((l) => labelRow(v, units, l, m))}</ul>` : html`<p class="meta">No labels.</p>`}`;
  return html`${section('Labels', page.repo, manage)}${page.org.length ? section('Organization labels', page.org) : ''}`;
}

/** "due date · N open · M closed · P% complete" of a milestone. */
export function milestoneFacts(m: Milestone): SafeHtml {
  const closed = m.num_closed_issues;
  const pct = m.num_issues ? Math.floor((closed * 100) / m.num_issues) : 0;
  const due = m.deadline_unix && new Date(m.deadline_unix * 1000).getUTCFullYear() < 9999 ? html`Due ${when(m.deadline_unix)} · ` : '';
  return html`${due}${m.num_issues - closed} open · ${closed} closed · ${pct}% complete`;
}

export function milestonesBody(v: View, page: MilestonesPage, state: ListState, n: number, manage?: ManageRow<Milestone>): SafeHtml {
  const base = repoLink(v.config, v.access, 'milestones');
  const row = (m: Milestone) => html`<li>${stateSpan(m)} ${milestoneLink(v, m)}
<div class="meta">${milestoneFacts(m)}</div>${manage?.(m) ?? ''}</li>`;
  const list = page.milestones.length ? html`<ul class="list">${page.milestones.map(row)}</ul>` : html`<p class="meta">No milestones.</p>`;
  return html`${stateNav(base, state, {})}\n${list}\n${pager(base, n, page.hasMore, { state })}`;
}
