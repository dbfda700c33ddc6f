import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import type { WebUnit } from '../../services/web/units';

// The one layout of the server-rendered pages: a header, the page's body, one small stylesheet.
// Pages hold user text (names, markdown): every value is escaped by html``, nothing runs
// scripts, and the CSP says so.

export const CSP = 'default-src \'none\'; style-src \'self\'; img-src \'self\' data:; base-uri \'none\'; '
  + 'form-action \'self\'; frame-ancestors \'none\'';

/** An absolute link under root_url; `path` is already percent-encoded. */
export const webUrl = (config: Config, path: string): string => `${config.server.root_url}${path.replace(/^\//, '')}`;

/** `/{owner}/{repo}` + `rest`, each name percent-encoded, as an absolute link. */
export const repoLink = (config: Config, access: Pick<RepoAccess, 'owner' | 'repo'>, rest = ''): string =>
  webUrl(config, `${encodePath(access.owner.name)}/${encodePath(access.repo.name)}${rest ? `/${rest}` : ''}`);

export type Page = { title: string; body: SafeHtml; status?: number };

export function sendPage(req: Request, res: Response, page: Page): void {
  const { config } = req.ctx;
  const viewer = req.ctx.doer;
  const who = viewer
    ? html`<a href="${webUrl(config, encodePath(viewer.name))}">${viewer.name}</a>`
    : html`<span class="anon">Not signed in</span>`;
  const doc = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} - ${config.server.app_name}</title>
<link rel="stylesheet" href="${webUrl(config, 'assets/css/hearth.css')}"></head>
<body>
<header class="site"><a class="brand" href="${config.server.root_url}">${config.server.app_name}</a><span class="who">${who}</span></header>
<main>
${page.body}
</main>
</body></html>
`;
  res.status(page.status ?? 200)
    .setHeader('Content-Security-Policy', CSP)
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('Cache-Control', 'no-store')
    .type('html')
    .send(doc.value);
}

export type RepoTab = 'code' | 'issues' | 'pulls' | 'releases' | 'labels' | 'milestones' | 'commits' | 'none';

/** The heading and tabs of every repository page; tabs only for the units the visitor reads. */
export function repoHeader(config: Config, access: RepoAccess, units: ReadonlySet<WebUnit>, active: RepoTab): SafeHtml {
  const { repo, owner } = access;
  const tab = (name: RepoTab, label: string, rest: string, count?: number) => html`<a class="${name === active ? 'active' : ''}" href="${repoLink(config, access, rest)}">${label}${count !== undefined ? html` <span class="count">${count}</span>` : ''}</a>`;
  const tabs: SafeHtml[] = [];
  if (units.has('repo.code')) tabs.push(tab('code', 'Code', ''), tab('commits', 'Commits', `commits/branch/${encodePath(repo.default_branch)}`));
  if (units.has('repo.issues')) tabs.push(tab('issues', 'Issues', 'issues', repo.num_issues - repo.num_closed_issues));
  if (units.has('repo.pulls')) tabs.push(tab('pulls', 'Pull requests', 'pulls', repo.num_pulls - repo.num_closed_pulls));
  if (units.has('repo.releases')) tabs.push(tab('releases', 'Releases', 'releases', repo.num_releases));
  if (units.has('repo.issues') || units.has('repo.pulls')) tabs.push(tab('labels', 'Labels', 'labels'), tab('milestones', 'Milestones', 'milestones'));
  const badges = [repo.is_private ? 'Private' : '', repo.is_archived ? 'Archived' : '', repo.is_mirror ? 'Mirror' : '', repo.is_template ? 'Template' : '']
    .filter(Boolean).map((b) => html` <span class="badge">${b}</span>`);
  return html`<div class="repo-head">
<h1><a href="${webUrl(config, encodePath(owner.name))}">${owner.name}</a> / <a href="${repoLink(config, access)}">${repo.name}</a>${badges}</h1>
${repo.description ? html`<p class="description">${repo.description}</p>` : ''}
<nav class="tabs">${tabs}</nav>
</div>`;
}

/** "N items" pager links for list pages (`page` is 1-based). */
export function pager(base: string, page: number, hasMore: boolean, query: Record<string, string> = {}): SafeHtml {
  const link = (p: number) => {
    const q = new URLSearchParams({ ...query, page: String(p) });
    return `${base}?${q.toString()}`;
  };
  if (page <= 1 && !hasMore) return raw('');
  return html`<nav class="pager">${page > 1 ? html`<a rel="prev" href="${link(page - 1)}">Previous</a>` : ''}${hasMore ? html` <a rel="next" href="${link(page + 1)}">Next</a>` : ''}</nav>`;
}

/** A date as people read it, with the exact time on hover. */
export const when = (unix: number | string | Date): SafeHtml => {
  const d = unix instanceof Date ? unix : new Date(typeof unix === 'number' ? unix * 1000 : unix);
  if (Number.isNaN(d.getTime())) return raw('');
  const iso = d.toISOString();
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 10)}</time>`;
};

export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
header.site{display:flex;justify-content:space-between;align-items:center;padding:.6em 1.2em;background:#24292f}
header.site a,header.site span{color:#fff}.brand{font-weight:600}
main{max-width:1100px;margin:0 auto;padding:1em 1.2em}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.2em}
.description{color:#59636e;margin:.2em 0 .8em}
.badge{display:inline-block;font-size:.6em;vertical-align:middle;border:1px solid #d1d9e0;border-radius:1em;padding:0 .6em;color:#59636e}
nav.tabs{display:flex;flex-wrap:wrap;gap:.2em;border-bottom:1px solid #d1d9e0;margin-bottom:1em}
nav.tabs a{padding:.4em .8em;color:#1f2328;border-bottom:2px solid transparent}nav.tabs a.active{border-color:#fd8c73;font-weight:600}
.count{background:#eff2f5;border-radius:1em;padding:0 .5em;font-size:.85em}
table{border-collapse:collapse;width:100%}td,th{padding:.35em .6em;border-bottom:1px solid #eff2f5;text-align:left;vertical-align:top}
ul.list{list-style:none;padding:0;margin:0;border:1px solid #d1d9e0;border-radius:6px}
ul.list>li{padding:.6em .9em;border-bottom:1px solid #eff2f5}ul.list>li:last-child{border-bottom:0}
.meta{color:#59636e;font-size:.9em}
.label{display:inline-block;border-radius:1em;padding:0 .6em;font-size:.85em;border:1px solid #d1d9e0}
.state-open{color:#1a7f37}.state-closed{color:#8250df}.state-merged{color:#8250df}
pre,code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;padding:.8em;overflow:auto;border-radius:6px}
table.code td{padding:0 .6em;border:0;white-space:pre;font:13px/1.45 ui-monospace,monospace}
table.code td.num{color:#8c959f;text-align:right;user-select:none;width:1%}
.diff .add{background:#dafbe1}.diff .del{background:#ffebe9}.diff .hunk{color:#59636e;background:#ddf4ff}
.markdown img{max-width:100%}.markdown{border:1px solid #d1d9e0;border-radius:6px;padding:1em 1.5em;margin-top:1em}
.comment{border:1px solid #d1d9e0;border-radius:6px;margin:1em 0}.comment>.meta{background:#f6f8fa;padding:.4em .9em;border-bottom:1px solid #d1d9e0}
.comment>.body{padding:.4em .9em}
nav.pager{margin:1em 0;display:flex;gap:1em}
.avatar{width:20px;height:20px;border-radius:50%;vertical-align:middle}.avatar.big{width:120px;height:120px;border-radius:8px}
.crumbs{margin:.5em 0}
.profile{display:flex;gap:1.2em;align-items:flex-start}ul.facts{list-style:none;padding:0;margin:0}ul.facts li{display:inline;margin-right:1em}
article.release{margin-bottom:2em}ul.assets{margin-top:.8em}
.comment>.body.markdown{border:0;margin:0;padding:.4em .9em}ul.attachments{list-style:none;margin:.4em 0;padding:0 .9em}
section.file{margin:1.5em 0}section.file h3{font-size:1em;margin:.4em 0}
.merge-state{padding:.5em .9em;border-radius:6px;background:#f6f8fa}.merge-state.conflict{background:#fff8c5}
`;
