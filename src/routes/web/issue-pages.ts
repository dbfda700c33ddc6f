import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import { issueListPage, type ListQuery, type ListState } from '../../services/web/issue-pages';
import { milestonePage } from '../../services/web/issue-pages-meta';
import { queryInt, queryString } from '../query';
import { repoOf, unitsOf } from './guards';
import {
  listBody, milestoneFacts, stateNav, stateSpan, type View,
} from './issue-pages-html';
import { pageColour, repoHeader, repoLink, sendPage, type RepoTab } from './layout';

// The issues, pull requests, labels and milestones pages (Gitea's web URLs): where the API's
// html_url, diff_url and patch_url of issues, pulls, comments and reviews point.

/** Pages past this are empty anyway; the bound keeps the offset an exact integer. */
const MAX_PAGE = 100_000;

const viewOf = (req: Request, res: Response): View => ({ config: req.ctx.config, access: repoOf(req), colour: (hex) => pageColour(res, hex) });

function stateOf(req: Request): ListState {
  const s = queryString(req, 'state');
  return s === 'closed' || s === 'all' ? s : 'open';
}
const pageOf = (req: Request) => Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), MAX_PAGE);

/** A positive whole number from the path, else the page does not exist. */
function numberParam(value: string | undefined): number {
  const n = value && /^\d{1,15}$/.test(value) ? Number(value) : 0;
  if (n < 1) throw new NotFoundError();
  return n;
}

function send(req: Request, res: Response, tab: RepoTab, title: string, body: SafeHtml): void {
  const { config } = req.ctx;
  sendPage(req, res, { title, body: html`${repoHeader(config, repoOf(req), unitsOf(res), tab)}\n${body}` });
}

/** Gitea's list filters: `labels` (ids, comma separated), `milestone` (an id), `q`. */
function listQuery(req: Request, kind: 'issues' | 'pulls'): ListQuery {
  const labelIds = (queryString(req, 'labels') ?? '').split(',').filter((s) => /^\d{1,15}$/.test(s)).map(Number);
  const milestone = queryInt(req, 'milestone');
  const keyword = queryString(req, 'q')?.trim() || undefined;
  return { kind, state: stateOf(req), page: pageOf(req), labelIds, milestoneId: milestone && milestone > 0 ? milestone : undefined, keyword };
}

/** The query that rebuilds the listing's URL (state and page added by the links). */
function filtersOf(q: ListQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.labelIds.length) out.labels = q.labelIds.join(',');
  if (q.milestoneId) out.milestone = String(q.milestoneId);
  if (q.keyword) out.q = q.keyword;
  return out;
}

async function list(req: Request, res: Response, kind: 'issues' | 'pulls'): Promise<void> {
  const { config, doer } = req.ctx;
  const access = repoOf(req);
  const q = listQuery(req, kind);
  const page = await issueListPage(req.ctx.h, access, doer, q);
  const base = repoLink(config, access, kind);
  const filters = filtersOf(q);
  const { repo } = access;
  // The repository's counters are the open and closed counts only when nothing filters.
  const counts = Object.keys(filters).length ? undefined : kind === 'issues'
    ? { open: repo.num_issues - repo.num_closed_issues, closed: repo.num_closed_issues }
    : { open: repo.num_pulls - repo.num_closed_pulls, closed: repo.num_closed_pulls };
  const clear = Object.keys(filters).length ? html`<p class="meta">Filtered · <a href="${base}">clear filters</a></p>` : '';
  const title = kind === 'issues' ? 'Issues' : 'Pull requests';
  const empty = kind === 'issues' ? 'No issues.' : 'No pull requests.';
  send(req, res, kind, title, html`${stateNav(base, q.state, filters, counts)}\n${clear}${listBody(viewOf(req, res), page, q.page, base, { ...filters, state: q.state }, empty)}`);
}

/** GET /{owner}/{repo}/pulls */
export const pullList = (req: Request, res: Response) => list(req, res, 'pulls');

/** GET /{owner}/{repo}/milestone/{id}: its issues and pull requests (open by default, as Gitea). */
export async function milestone(req: Request, res: Response): Promise<void> {
  const { config, doer } = req.ctx;
  const access = repoOf(req);
  const id = numberParam(String(req.params.id));
  const q = { state: stateOf(req), page: pageOf(req) };
  const page = await milestonePage(req.ctx.h, access, doer, id, q);
  const m = page.milestone;
  const base = repoLink(config, access, `milestone/${id}`);
  const description = page.description ? html`<div class="markdown">${raw(page.description)}</div>` : '';
  send(req, res, 'milestones', m.name, html`<h1>${m.name}</h1>
<p class="meta">${stateSpan(m)} ${milestoneFacts(m)}</p>
${description}
${stateNav(base, q.state, {})}
${listBody(viewOf(req, res), page.list, q.page, base, { state: q.state }, 'No issues or pull requests.')}`);
}
