import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import type { LogCommit } from '../../git/log';
import { NotFoundError } from '../../lib/errors';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import { openCommitDiff } from '../../services/repo/archive';
import { listBranches } from '../../services/repo/branches';
import type { RepoAccess } from '../../services/repo/repos';
import { listTags } from '../../services/repo/tags';
import {
  commitPage, commitsPage, comparePage, COMMITS_PAGE_SIZE, homePage, legacySrcTarget, srcPage, type FilePage, type TreePage,
} from '../../services/web/code-pages';
import { refSegment, splitRefKind } from '../../services/web/refs';
import { repoOf } from '../context';
import { queryInt } from '../query';
import { sendStream } from '../stream';
import { pathParam } from '../table';
import { diffView } from './diff-view';
import { unitsOf } from './guards';
import { codeRegion, pager, repoHeader, repoLink, sendPage, webUrl, when, type RepoTab } from './layout';

// The code pages of a repository: home, src (directory or file), commit, history, branches,
// tags and compare. Their URLs are the html_url of repositories, contents, commits and files.

function repoPage(req: Request, res: Response, title: string, tab: RepoTab, body: SafeHtml): void {
  const access = repoOf(req);
  const full = `${access.owner.name}/${access.repo.name}`;
  sendPage(req, res, { title: title || full, body: html`${repoHeader(req.ctx.config, access, unitsOf(res), tab)}\n${body}` });
}

/** Links to each directory of `path` at the target's ref. */
function crumbs(config: Config, access: RepoAccess, page: TreePage | FilePage): SafeHtml {
  const ref = refSegment(page.target.ref);
  const parts = page.target.path ? page.target.path.split('/') : [];
  const links = parts.map((p, i) => html` / <a href="${repoLink(config, access, `src/${encodePath(ref)}/${encodePath(parts.slice(0, i + 1).join('/'))}`)}">${p}</a>`);
  return html`<p class="crumbs"><span class="badge">${page.target.ref.kind}</span> <a href="${repoLink(config, access, `src/${encodePath(ref)}`)}">${page.target.ref.kind === 'commit' ? page.target.ref.commit.slice(0, 10) : page.target.ref.name}</a>${links}</p>`;
}

function treeView(config: Config, access: RepoAccess, page: TreePage): SafeHtml {
  const ref = encodePath(refSegment(page.target.ref));
  const rows = page.entries.map((e) => {
    const name = e.type === 'dir' ? `${e.entry.name}/` : e.entry.name;
    const link = e.type === 'submodule' ? html`${name}` : html`<a href="${repoLink(config, access, `src/${ref}/${encodePath(e.entry.path)}`)}">${name}</a>`;
    const last = e.last ? html`<a class="meta" href="${repoLink(config, access, `commit/${e.last.sha}`)}">${e.last.sha.slice(0, 10)}</a> ${when(e.last.committerDate)}` : '';
    return html`<tr class="${e.type}"><td>${link}</td><td>${last}</td></tr>`;
  });
  const readme = page.readme ? html`<div class="markdown" id="readme"><h2>${page.readme.name}</h2>${raw(page.readme.html)}</div>` : '';
  return html`<table class="tree">${rows}</table>\n${readme}`;
}

function fileView(config: Config, access: RepoAccess, page: FilePage): SafeHtml {
  const rawUrl = repoLink(config, access, `raw/${encodePath(refSegment(page.target.ref))}/${encodePath(page.item.entry.path)}`);
  const head = html`<p class="meta">${page.item.entry.size} bytes · <a href="${rawUrl}">Raw</a></p>`;
  if (page.rendered !== null) return html`${head}<div class="markdown">${raw(page.rendered)}</div>`;
  if (page.image) return html`${head}<p><img src="${rawUrl}" alt="${page.item.entry.name}"></p>`;
  if (page.text === null) return html`${head}<p>This file is binary or too large to show: <a href="${rawUrl}">download it</a>.</p>`;
  const lines = page.text.replace(/\n$/, '').split('\n').map((l, i) => html`<tr id="L${i + 1}"><td class="num"><a href="#L${i + 1}">${i + 1}</a></td><td>${l}</td></tr>`);
  return html`${head}${codeRegion('File content', html`<table class="code">${lines}</table>`)}`;
}

/** GET /{owner}/{repo}: the default branch's root and README. */
export async function home(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const clone = html`<p class="meta">Clone: <code>${repoLink(config, access)}.git</code> <button type="button" class="copy" data-copy="${repoLink(config, access)}.git" hidden>Copy</button></p>`;
  if (!unitsOf(res).has('repo.code')) return repoPage(req, res, '', 'none', html``);
  const page = await homePage(req.ctx.db, config, access, req.ctx.doer);
  if (page.kind === 'empty') return repoPage(req, res, '', 'code', html`${clone}<p class="empty">This repository is empty.</p>`);
  repoPage(req, res, '', 'code', html`${clone}<p class="branch">Branch: <code>${page.target.ref.name}</code></p>${treeView(config, access, page)}`);
}

/** GET /{owner}/{repo}/src/{branch|tag|commit}/{ref}/{path}; the older `src/{ref}/{path}` redirects. */
export async function src(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const rest = pathParam(req, 'rest');
  const typed = splitRefKind(rest);
  if (!typed) {
    res.redirect(302, repoLink(config, access, `src/${encodePath(await legacySrcTarget(config, access, rest))}`));
    return;
  }
  const page = await srcPage(req.ctx.db, config, access, req.ctx.doer, typed.kind, typed.rest);
  const view = page.kind === 'tree' ? treeView(config, access, page) : fileView(config, access, page);
  repoPage(req, res, page.target.path || page.target.ref.name, 'code', html`${crumbs(config, access, page)}${view}`);
}

/** The author, linked to their profile when the e-mail is a user's. */
function personOf(config: Config, c: LogCommit, users: Map<string, User>): SafeHtml {
  const user = users.get(c.author.email.toLowerCase());
  return user ? html`<a href="${webUrl(config, encodePath(user.name))}">${user.name}</a>` : html`${c.author.name}`;
}

/** GET /{owner}/{repo}/commit/{sha}, and `{sha}.diff` / `{sha}.patch` as text. */
export async function commit(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const sha = String(req.params.sha);
  const raw = /^(.+)\.(diff|patch)$/.exec(sha);
  if (raw) {
    await sendStream(res, await openCommitDiff(config, access, raw[1]!, raw[2] as 'diff' | 'patch'), {});
    return;
  }
  const page = await commitPage(req.ctx.db, config, access, sha);
  const c = page.commits[0]!;
  const [subject, ...body] = c.message.split('\n');
  const parents = c.parents.map((p) => html` <a href="${repoLink(config, access, `commit/${p}`)}">${p.slice(0, 10)}</a>`);
  const files = (c.files ?? []).map((f) => html`<li><span class="badge">${f.status}</span> <a href="${repoLink(config, access, `src/commit/${c.sha}/${encodePath(f.filename)}`)}">${f.filename}</a></li>`);
  repoPage(req, res, subject ?? c.sha, 'commits', html`<h2>${subject}</h2>
${body.join('\n').trim() ? html`<pre>${body.join('\n').trim()}</pre>` : ''}
<p class="meta">${personOf(config, c, page.users)} committed ${when(c.committer.date)} · <code>${c.sha}</code> · parents${parents} · <a href="${repoLink(config, access, `src/commit/${c.sha}`)}">Browse files</a> · <a href="${repoLink(config, access, `commit/${c.sha}.diff`)}">.diff</a> · <a href="${repoLink(config, access, `commit/${c.sha}.patch`)}">.patch</a></p>
${c.stats ? html`<p class="meta">${c.stats.additions} additions, ${c.stats.deletions} deletions</p>` : ''}
<ul class="list">${files}</ul>
${diffView(page.diff)}`);
}

function commitRows(config: Config, access: RepoAccess, commits: LogCommit[], users: Map<string, User>): SafeHtml {
  const rows = commits.map((c) => html`<li><a href="${repoLink(config, access, `commit/${c.sha}`)}"><code>${c.sha.slice(0, 10)}</code></a> ${c.message.split('\n')[0]} <span class="meta">${personOf(config, c, users)} ${when(c.committer.date)}</span></li>`);
  return html`<ul class="list commits">${rows}</ul>`;
}

/** GET /{owner}/{repo}/commits/{branch|tag|commit}/{ref}[/{path}]: history, 30 a page. */
export async function commits(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const rest = pathParam(req, 'rest');
  const typed = splitRefKind(rest);
  if (!typed) throw new NotFoundError();
  const page = Math.max(1, queryInt(req, 'page') ?? 1);
  const { target, list } = await commitsPage(req.ctx.db, config, access, typed.kind, typed.rest, page);
  const more = page * COMMITS_PAGE_SIZE < list.total;
  const base = repoLink(config, access, `commits/${encodePath(rest)}`);
  repoPage(req, res, `Commits ${target.ref.name}`, 'commits', html`<h2>Commits on ${target.ref.name}${target.path ? html` touching <code>${target.path}</code>` : ''}</h2>
${commitRows(config, access, list.commits, list.users)}${pager(base, page, more)}`);
}

/** GET /{owner}/{repo}/branches */
export async function branches(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const { items } = await listBranches(req.ctx.db, config, access, req.ctx.doer, { offset: 0, limit: 1000 });
  const rows = items.map((b) => html`<li><a href="${repoLink(config, access, `src/branch/${encodePath(b.name)}`)}">${b.name}</a>${b.name === access.repo.default_branch ? html` <span class="badge">default</span>` : ''} <span class="meta"><a href="${repoLink(config, access, `commit/${b.commit.sha}`)}">${b.commit.sha.slice(0, 10)}</a></span></li>`);
  repoPage(req, res, 'Branches', 'code', html`<h2>Branches</h2><ul class="list">${rows}</ul>`);
}

/** GET /{owner}/{repo}/tags */
export async function tags(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const { items } = await listTags(config, access, { offset: 0, limit: 1000 });
  const rows = items.map((t) => html`<li><a href="${repoLink(config, access, `src/tag/${encodePath(t.name)}`)}">${t.name}</a> <span class="meta"><a href="${repoLink(config, access, `archive/${encodePath(t.name)}.zip`)}">zip</a> · <a href="${repoLink(config, access, `archive/${encodePath(t.name)}.tar.gz`)}">tar.gz</a></span></li>`);
  repoPage(req, res, 'Tags', 'code', html`<h2>Tags</h2><ul class="list">${rows}</ul>`);
}

/** GET /{owner}/{repo}/compare/{base}...{head} */
export async function compare(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const basehead = pathParam(req, 'basehead');
  const page = await comparePage(req.ctx.db, config, access, basehead);
  repoPage(req, res, `Compare ${basehead}`, 'code', html`<h2>Comparing <code>${basehead}</code></h2>
<p class="meta">${page.commits.length} commits</p>
${commitRows(config, access, page.commits, page.users)}
${diffView(page.diff)}`);
}
