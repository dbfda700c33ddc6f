import type { Request, Response } from 'express';
import type { User } from '../../db/schema';
import { issueHtmlUrl } from '../../convert/issue';
import { avatarUrl } from '../../convert/user';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { IssueView } from '../../services/issue/issue-views';
import { dashboard, isIssueFilter, issueOverview, OVERVIEW_PAGE, type IssueFilterName } from '../../services/web/dashboard';
import { recentRepos } from '../../services/web/owner-pages';
import { ACCESS } from '../../services/permissions';
import { doerOf } from '../context';
import { queryInt, queryString } from '../query';
import { labelSpans, stateSpan, userLink } from './issue-pages-html';
import { pageColour, pager, repoLink, sendPage, webUrl, when } from './layout';

// `/`: a signed-in user's dashboard (their repositories and organizations, issues assigned to
// them, pull requests awaiting their review, their open pull requests, mentions), else a light
// landing page; and Gitea's `/issues` and `/pulls` across repositories with their filters.

const REPOS_PER_PAGE = 20;
const FILTER_LABELS: Record<IssueFilterName, string> = {
  your_repositories: 'In your repositories', assigned: 'Assigned to you', created_by: 'Created by you',
  mentioned: 'Mentioning you', review_requested: 'Review requested', reviewed_by: 'Reviewed by you',
};

function issueRow(req: Request, res: Response, v: IssueView): SafeHtml {
  const { config } = req.ctx;
  const view = { config, access: { owner: v.owner, repo: v.repo, mode: ACCESS.none }, colour: (hex: string) => pageColour(res, hex) };
  const full = `${v.owner.name}/${v.repo.name}`;
  return html`<li>${stateSpan(v.issue, v.pull?.merged)} <a href="${issueHtmlUrl(config, v.owner, v.repo, v.issue)}">${v.issue.title}</a>${labelSpans(view, v.labels)}
<div class="meta"><a href="${repoLink(config, { owner: v.owner, repo: v.repo })}">${full}</a>#${v.issue.index} opened ${when(v.issue.created_unix)} by ${userLink(config, v.poster)}</div></li>`;
}

function issueSection(req: Request, res: Response, id: string, title: string, items: IssueView[], more: string, empty: string): SafeHtml {
  return html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>
${items.length ? html`<ul class="list issues">${items.map((v) => issueRow(req, res, v))}</ul>` : html`<p class="meta">${empty}</p>`}
<p><a href="${more}">See all</a></p></section>`;
}

async function signedInHome(req: Request, res: Response, user: User): Promise<void> {
  const { config, db } = req.ctx;
  const q = (queryString(req, 'q') ?? '').trim().slice(0, 100);
  const n = Math.max(1, queryInt(req, 'page') ?? 1);
  const d = await dashboard(db, user, q, { offset: (n - 1) * REPOS_PER_PAGE, limit: REPOS_PER_PAGE });
  const repoRow = ({ repo, owner }: (typeof d.repos.items)[number]) => html`<li><a href="${repoLink(config, { repo, owner })}">${owner.name}/${repo.name}</a>${repo.is_private ? html` <span class="badge">Private</span>` : ''}${repo.is_fork ? html` <span class="badge">Fork</span>` : ''}</li>`;
  const orgs = d.orgs.length
    ? html`<h2>Organizations</h2><ul class="list orgs">${d.orgs.map((o) => html`<li><img class="avatar" src="${avatarUrl(config, o)}" alt="" width="20" height="20"> <a href="${webUrl(config, encodePath(o.name))}">${o.name}</a></li>`)}</ul>` : '';
  const more = n * REPOS_PER_PAGE < d.repos.total;
  const body = html`<h1>Dashboard</h1><p class="meta">Signed in as <a href="${webUrl(config, encodePath(user.name))}">${user.name}</a></p><div class="dashboard">
<section class="panel repos" aria-labelledby="d-repos"><h2 id="d-repos">Repositories <span class="count">${d.repos.total}</span></h2>
<p><a class="button primary" href="${webUrl(config, 'repo/create')}">New repository</a></p>
<form method="get" action="${config.server.root_url}" role="search" aria-label="Your repositories"><label for="d-filter">Find a repository</label> <input id="d-filter" type="search" name="q" value="${q}"> <button type="submit">Filter</button></form>
${d.repos.items.length ? html`<ul class="list repos">${d.repos.items.map(repoRow)}</ul>` : html`<p class="meta">${q ? 'No repository matches.' : 'No repositories yet.'}</p>`}
${pager(config.server.root_url, n, more, q ? { q } : {})}${orgs}</section>
<div class="panels">
${issueSection(req, res, 'd-assigned', 'Issues assigned to you', d.assigned, webUrl(config, 'issues?type=assigned'), 'Nothing assigned to you.')}
${issueSection(req, res, 'd-reviews', 'Pull requests awaiting your review', d.reviewRequests, webUrl(config, 'pulls?type=review_requested'), 'No review asked of you.')}
${issueSection(req, res, 'd-pulls', 'Your open pull requests', d.yourPulls, webUrl(config, 'pulls?type=created_by'), 'No open pull requests of yours.')}
${issueSection(req, res, 'd-mentions', 'Mentioning you', d.mentions, webUrl(config, 'issues?type=mentioned'), 'No open issue mentions you.')}
</div></div>`;
  sendPage(req, res, { title: 'Dashboard', body });
}

/** GET /: the dashboard, or for visitors a light landing page with the way to explore. */
export async function home(req: Request, res: Response): Promise<void> {
  const { config, db, doer } = req.ctx;
  if (doer) return signedInHome(req, res, doer);
  const recent = await recentRepos(db, null, { offset: 0, limit: 10 });
  const rows = recent.items.map(({ repo, owner }) => html`<li><a href="${repoLink(config, { repo, owner })}">${owner.name}/${repo.name}</a>${repo.description ? html` <span class="meta">${repo.description}</span>` : ''}</li>`);
  sendPage(req, res, {
    title: 'Home', body: html`<div class="landing"><h1>${config.server.app_name}</h1><p>A self-hosted git forge.</p>
<p><a class="button primary" href="${webUrl(config, 'explore/repos')}">Explore repositories</a></p></div>
${rows.length ? html`<h2>Recently updated</h2><ul class="list repos">${rows}</ul>` : ''}`,
  });
}

/** The overview's query as links keep it (filter, state, search, repository). */
function overviewQuery(req: Request) {
  const type = queryString(req, 'type');
  const repos = (queryString(req, 'repos') ?? '').replace(/[[\]]/g, '');
  return {
    filter: isIssueFilter(type) ? type : 'your_repositories' as IssueFilterName,
    state: queryString(req, 'state') === 'closed' ? 'closed' as const : 'open' as const,
    keyword: (queryString(req, 'q') ?? '').trim().slice(0, 200),
    repoId: /^\d+$/.test(repos) ? Number(repos) : null,
    page: Math.max(1, queryInt(req, 'page') ?? 1),
  };
}

async function overview(req: Request, res: Response, kind: 'issues' | 'pulls'): Promise<void> {
  const { config, db } = req.ctx;
  const q = overviewQuery(req);
  const page = await issueOverview(db, doerOf(req), { kind, ...q });
  const base = webUrl(config, kind);
  const keep = (change: Record<string, string>) => {
    const p = new URLSearchParams({ type: q.filter, state: q.state, ...(q.keyword ? { q: q.keyword } : {}), ...(q.repoId ? { repos: String(q.repoId) } : {}), ...change });
    return `${base}?${p.toString()}`;
  };
  const filters = (Object.keys(FILTER_LABELS) as IssueFilterName[]).filter((f) => kind === 'pulls' || (f !== 'review_requested' && f !== 'reviewed_by'));
  const nav = html`<nav class="tabs" aria-label="Filter">${filters.map((f) => html`<a href="${keep({ type: f, page: '1' })}"${f === q.filter ? raw(' aria-current="page" class="active"') : ''}>${FILTER_LABELS[f]}</a>`)}</nav>`;
  const states = html`<p class="states"><a href="${keep({ state: 'open', page: '1' })}"${q.state === 'open' ? raw(' aria-current="page"') : ''}>Open</a> · <a href="${keep({ state: 'closed', page: '1' })}"${q.state === 'closed' ? raw(' aria-current="page"') : ''}>Closed</a></p>`;
  const repoOptions = page.repos.items.map(({ repo, owner }) => html`<option value="${repo.id}"${repo.id === q.repoId ? raw(' selected') : ''}>${owner.name}/${repo.name}</option>`);
  const form = html`<form class="filters" method="get" action="${base}" role="search" aria-label="${kind === 'issues' ? 'Issues' : 'Pull requests'}"><input type="hidden" name="type" value="${q.filter}"><input type="hidden" name="state" value="${q.state}">
<label for="o-q">Search</label> <input id="o-q" type="search" name="q" value="${q.keyword}">
<label for="o-repo">Repository</label> <select id="o-repo" name="repos"><option value="">All</option>${repoOptions}</select> <button type="submit">Filter</button></form>`;
  const list = page.items.length ? html`<ul class="list issues">${page.items.map((v) => issueRow(req, res, v))}</ul>` : html`<p class="meta">Nothing here.</p>`;
  const title = kind === 'issues' ? 'Issues' : 'Pull requests';
  const more = q.page * OVERVIEW_PAGE < page.total;
  sendPage(req, res, {
    title, body: html`<h1>${title} <span class="count">${page.total}</span></h1>${nav}${form}${states}${list}${pager(base, q.page, more, Object.fromEntries(new URL(keep({})).searchParams))}`,
  });
}

/** GET /issues */
export const issues = (req: Request, res: Response) => overview(req, res, 'issues');
/** GET /pulls */
export const pulls = (req: Request, res: Response) => overview(req, res, 'pulls');

