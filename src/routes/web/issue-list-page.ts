import type { Request, Response } from 'express';
import { InvalidError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { bulkUpdateIssues, type BulkAction, type BulkResult } from '../../services/issue/issue-bulk';
import { issueListFilters, type ListFilters } from '../../services/web/issue-list-filters';
import { issueListPage, type ListQuery, type ListState } from '../../services/web/issue-pages';
import { queryString } from '../query';
import { csrfInput, formAction, formAlert, submitButton } from './forms';
import { repoOf, unitsOf } from './guards';
import { texts, text } from './issue-actions';
import { listBody, stateNav, type View } from './issue-pages-html';
import { pageColour, repoHeader, repoLink, sendPage } from './layout';

// GET /{owner}/{repo}/issues: the issue list with its filters as one GET form (keyword,
// author, assignee, labels, milestone, sort; the state as tabs keeping them), and for writers
// a bulk form: a checkbox per row and one action (close, reopen, add or remove a label) posted
// to /issues/bulk, which changes each issue through the one-at-a-time services.

const MAX_PAGE = 100_000;
const SORTS: [string, string][] = [
  ['', 'Newest'], ['oldest', 'Oldest'], ['recentupdate', 'Recently updated'], ['leastupdate', 'Least recently updated'],
  ['mostcomment', 'Most commented'], ['leastcomment', 'Least commented'],
];
const NAME = /^[\w.-]{1,40}$/;

/** One parameter of the listing's URL (the request's query, or a bulk form's `back`). */
type Param = (key: string) => string | undefined;

const intOf = (v: string | undefined) => (v && /^\d{1,15}$/.test(v) ? Number(v) : undefined);

function listQuery(get: Param): ListQuery {
  const labelIds = (get('labels') ?? '').split(',').filter((s) => /^\d{1,15}$/.test(s)).map(Number);
  const milestone = intOf(get('milestone'));
  const name = (key: string) => { const v = get(key)?.trim(); return v && NAME.test(v) ? v : undefined; };
  const sort = get('sort') ?? '';
  const state = get('state');
  return {
    kind: 'issues', state: state === 'closed' || state === 'all' ? state : 'open' as ListState,
    page: Math.min(Math.max(intOf(get('page')) ?? 1, 1), MAX_PAGE), labelIds,
    milestoneId: milestone && milestone > 0 ? milestone : undefined, keyword: get('q')?.trim() || undefined,
    poster: name('poster'), assignee: name('assignee'), sort: SORTS.some(([k]) => k === sort) ? sort || undefined : undefined,
  };
}

/** The query rebuilding the listing's URL (the state and page are added by the links). */
function filtersOf(q: ListQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.keyword) out.q = q.keyword;
  if (q.poster) out.poster = q.poster;
  if (q.assignee) out.assignee = q.assignee;
  if (q.labelIds.length) out.labels = q.labelIds.join(',');
  if (q.milestoneId) out.milestone = String(q.milestoneId);
  if (q.sort) out.sort = q.sort;
  return out;
}

const option = (value: string | number, label: string, on: boolean): SafeHtml =>
  html`<option value="${value}"${on ? html` selected` : ''}>${label}</option>`;

function filterForm(base: string, q: ListQuery, f: ListFilters): SafeHtml {
  const input = (name: string, label: string, value: string | undefined, type = 'text') =>
    html`<div class="field"><label for="filter-${name}">${label}</label><input id="filter-${name}" type="${type}" name="${name}" value="${value ?? ''}"></div>`;
  const labels = f.labels.length
    ? html`<div class="field"><label for="filter-labels">Label</label><select id="filter-labels" name="labels">${option('', 'Any label', !q.labelIds.length)}${f.labels.map((l) => option(l.id, l.name, q.labelIds.includes(l.id)))}</select></div>`
    : '';
  const milestones = f.milestones.length
    ? html`<div class="field"><label for="filter-milestone">Milestone</label><select id="filter-milestone" name="milestone">${option('', 'Any milestone', !q.milestoneId)}${f.milestones.map((m) => option(m.id, m.name, m.id === q.milestoneId))}</select></div>`
    : '';
  const sort = html`<div class="field"><label for="filter-sort">Sort</label><select id="filter-sort" name="sort">${SORTS.map(([k, label]) => option(k, label, (q.sort ?? '') === k))}</select></div>`;
  return html`<form class="filters" method="get" action="${base}" role="search" aria-label="Filter issues"><input type="hidden" name="state" value="${q.state}">
${input('q', 'Search', q.keyword, 'search')}${input('poster', 'Author', q.poster)}${input('assignee', 'Assignee', q.assignee)}${labels}${milestones}${sort}
<div class="field"><button type="submit">Filter</button></div></form>`;
}

function bulkForm(req: Request, res: Response, f: ListFilters, back: string): SafeHtml {
  const labelOptions = (kind: 'label' | 'unlabel', verb: string) => f.labels.map((l) => option(`${kind}-${l.id}`, `${verb} ${l.name}`, false));
  return html`<form id="bulk" class="inline bulk" method="post" action="${repoLink(req.ctx.config, repoOf(req), 'issues/bulk')}">${csrfInput(req, res)}
<input type="hidden" name="back" value="${back}"><label for="bulk-action">With the chosen issues</label>
<select id="bulk-action" name="action">${option('close', 'Close', true)}${option('reopen', 'Reopen', false)}${labelOptions('label', 'Add label')}${labelOptions('unlabel', 'Remove label')}</select>
${submitButton('Apply', '')}</form>`;
}

/** Renders the list; `alert` is a bulk action's refusal (422). */
async function render(req: Request, res: Response, get: Param, alert?: string): Promise<void> {
  const { db, config, doer } = req.ctx;
  const access = repoOf(req);
  const q = listQuery(get);
  const [page, f] = await Promise.all([issueListPage(req.ctx.h, access, doer, q), issueListFilters(db, access, doer)]);
  const base = repoLink(config, access, 'issues');
  const filters = filtersOf(q);
  const { repo } = access;
  const counts = Object.keys(filters).length ? undefined : { open: repo.num_issues - repo.num_closed_issues, closed: repo.num_closed_issues };
  const v: View = { config, access, colour: (hex) => pageColour(res, hex) };
  const create = doer && !repo.is_archived ? html`<a class="button primary" href="${base}/new">New issue</a>` : '';
  const query = new URLSearchParams({ ...filters, state: q.state, page: String(q.page) }).toString();
  const control = f.writer
    ? (r: { view: { issue: { index: number; title: string } } }) => html`<input type="checkbox" form="bulk" name="issue" value="${r.view.issue.index}" aria-label="Choose #${r.view.issue.index} ${r.view.issue.title}"> `
    : undefined;
  const body = html`${repoHeader(config, access, unitsOf(res), 'issues')}
<div class="list-head"><h1 class="vh">Issues</h1>${create}</div>${formAlert(alert)}
${filterForm(base, q, f)}${stateNav(base, q.state, filters, counts)}
${f.writer && page.rows.length ? bulkForm(req, res, f, query) : ''}
${listBody(v, page, q.page, base, { ...filters, state: q.state }, 'No issues.', control)}`;
  sendPage(req, res, { title: `Issues · ${access.owner.name}/${access.repo.name}`, body, status: alert ? 422 : 200 });
}

/** GET /{owner}/{repo}/issues */
export const issuesPage = (req: Request, res: Response): Promise<void> => render(req, res, (key) => queryString(req, key));

function actionOf(value: string): BulkAction | null {
  if (value === 'close' || value === 'reopen') return { kind: value };
  const m = /^(label|unlabel)-(\d{1,15})$/.exec(value);
  return m ? { kind: m[1] as 'label' | 'unlabel', labelId: Number(m[2]) } : null;
}

const refusals = (r: BulkResult) => r.refused.map((x) => `#${x.index}: ${x.message}`).join('; ');

/** POST /{owner}/{repo}/issues/bulk: `issue` (repeated indexes) and `action`. */
export async function bulkPost(req: Request, res: Response): Promise<void> {
  const { db, config } = req.ctx;
  const access = repoOf(req);
  const back = text(req, 'back').replace(/[^\w=&%.,+-]/g, '');
  const indexes = texts(req, 'issue').filter((v) => /^\d{1,15}$/.test(v)).map(Number);
  let result: BulkResult | null = null;
  const errors = await formAction(async () => {
    const action = actionOf(text(req, 'action'));
    if (!action) throw new InvalidError('Choose what to do with the issues.');
    result = await bulkUpdateIssues(db, access, req.ctx.doer!, 'issues', indexes, action);
  });
  const refused = result ? refusals(result) : '';
  if (errors || refused) {
    // The list as it was (its filters from `back`), with why nothing or not everything changed.
    const params = new URLSearchParams(back);
    return render(req, res, (key) => params.get(key) ?? undefined, errors ? Object.values(errors)[0] : `Some issues did not change: ${refused}`);
  }
  res.redirect(303, `${repoLink(config, access, 'issues')}${back ? `?${back}` : ''}`);
}
