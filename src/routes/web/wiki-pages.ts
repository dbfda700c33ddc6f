import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html, raw, type SafeHtml } from '../../lib/html';
import { webPathToUserTitle } from '../../lib/wiki-path';
import { listWikiRevisions } from '../../services/wiki/wiki';
import { allWikiPages, renderedWikiPage } from '../../services/web/wiki-pages';
import { queryInt, queryString } from '../query';
import { repoOf } from './guards';
import { pager, sendPage, when } from './layout';
import { isWriter, pageName, wikiHead, wikiPath } from './wiki-common';
import * as forms from './wiki-forms';

// The wiki pages (Gitea's /{owner}/{repo}/wiki): a page rendered with its sidebar and footer,
// the page list (`/wiki/_pages` or `/wiki/?action=_pages`), a page's history
// (`?action=_revision`) and a page as of one of its commits (`?revision=<sha>`; each history
// line's sha leads to that commit's diff, wiki-commit.ts), and the wiki's clone URL.
// `?action=_new|_edit|_delete` lead to the writers' forms (wiki-forms.ts).

function cloneUrl(req: Request): SafeHtml {
  const a = repoOf(req);
  const url = `${req.ctx.config.server.root_url}${encodeURIComponent(a.owner.name)}/${encodeURIComponent(a.repo.name)}.wiki.git`;
  return html`<div class="clone" role="group" aria-label="Clone the wiki"><div class="clone-row"><label for="wiki-clone">Clone</label><input id="wiki-clone" type="text" readonly value="${url}"><button type="button" class="copy" data-copy-from="wiki-clone" aria-label="Copy the wiki's clone URL" hidden>Copy</button></div></div>`;
}

function bar(req: Request, res: Response, name: string): SafeHtml {
  const w = isWriter(res);
  const link = (rest: string, label: string) => html`<a class="button" href="${wikiPath(req, rest)}">${label}</a>`;
  return html`<nav class="row-actions" aria-label="Wiki">${link('_pages', 'Pages')}${link(`${name}?action=_revision`, 'History')}${w ? html`${link(`${name}?action=_edit`, 'Edit')}${link('_new', 'New page')}${link(`${name}?action=_delete`, 'Delete')}` : ''}</nav>${cloneUrl(req)}`;
}

async function viewPage(req: Request, res: Response, name: string): Promise<void> {
  const revision = queryString(req, 'revision') ?? '';
  const r = await renderedWikiPage(req.ctx.h, repoOf(req), req.ctx.doer, name, revision);
  const title = webPathToUserTitle(name);
  const last = r.page.last;
  sendPage(req, res, {
    title: `${title} · Wiki`,
    body: html`${wikiHead(req, res)}<h2>${title}</h2>
<p class="meta">${revision ? html`As of revision <code>${revision.slice(0, 10)}</code> · <a href="${wikiPath(req, name)}">the current page</a>` : last ? html`Last edited by ${last.author.name}, ${when(last.author.unix)} · ${r.page.commitCount} ${r.page.commitCount === 1 ? 'revision' : 'revisions'}` : ''}</p>
${bar(req, res, name)}<div class="${r.sidebar ? 'with-side' : ''}"><article class="markdown">${raw(r.html)}</article>${r.sidebar ? html`<aside class="side-col markdown" aria-label="Wiki sidebar">${raw(r.sidebar)}</aside>` : ''}</div>
${r.footer ? html`<footer class="markdown wiki-footer">${raw(r.footer)}</footer>` : ''}`,
  });
}

async function historyPage(req: Request, res: Response, name: string): Promise<void> {
  const n = Math.min(Math.max(queryInt(req, 'page') ?? 1, 1), 100_000);
  const { count, commits } = await listWikiRevisions(req.ctx.config, repoOf(req), name, n);
  const title = webPathToUserTitle(name);
  sendPage(req, res, {
    title: `History of ${title} · Wiki`,
    body: html`${wikiHead(req, res)}<h2>History of ${title}</h2><p class="meta">${count} ${count === 1 ? 'revision' : 'revisions'} · <a href="${wikiPath(req, name)}">the page</a></p>
<ul class="list">${commits.map((c) => html`<li><a href="${wikiPath(req, `${name}?revision=${c.sha}`)}">${c.message.split('\n')[0] || c.sha.slice(0, 10)}</a>
<p class="meta"><a href="${wikiPath(req, `commit/${c.sha}`)}" aria-label="Changes of ${c.sha.slice(0, 10)}"><code>${c.sha.slice(0, 10)}</code></a> · ${c.author.name}, ${when(c.author.unix)}</p></li>`)}</ul>${pager(wikiPath(req, name), n, n * 50 < count, { action: '_revision' })}`,
  });
}

/** GET /{owner}/{repo}/wiki/_pages */
export async function pagesList(req: Request, res: Response): Promise<void> {
  const pages = await allWikiPages(req.ctx.config, repoOf(req));
  sendPage(req, res, {
    title: 'Wiki pages',
    body: html`${wikiHead(req, res)}<h2>Pages</h2>${isWriter(res) ? html`<p><a class="button primary" href="${wikiPath(req, '_new')}">New page</a></p>` : ''}
${pages.length ? html`<ul class="list">${pages.map((p) => html`<li><a href="${wikiPath(req, p.name)}">${webPathToUserTitle(p.name)}</a>${p.last ? html`<p class="meta">Edited ${when(p.last.author.unix)}</p>` : ''}</li>`)}</ul>` : html`<p>This wiki has no pages yet.</p>`}${cloneUrl(req)}`,
  });
}

function emptyWiki(req: Request, res: Response): void {
  sendPage(req, res, {
    title: 'Wiki',
    body: html`${wikiHead(req, res)}<div class="box"><h2>Welcome to the wiki</h2><p>This repository's wiki has no pages yet.</p>
${isWriter(res) ? html`<p><a class="button primary" href="${wikiPath(req, '_new')}">Create the first page</a></p><p>Or push pages to its repository:</p>${cloneUrl(req)}` : ''}</div>`,
  });
}

/** GET /{owner}/{repo}/wiki and /wiki/{page}, with Gitea's `?action=` forms of the other pages. */
export async function wikiGet(req: Request, res: Response): Promise<void> {
  const action = queryString(req, 'action') ?? '';
  const name = req.params.page === undefined ? 'Home' : pageName(req);
  if (action === '_pages') return pagesList(req, res);
  if (action === '_new') return forms.newPage(req, res);
  if (action === '_edit') return forms.editPage(req, res, name);
  if (action === '_delete') return forms.deletePage(req, res, name);
  if (action === '_revision' || action === '_history') return historyPage(req, res, name);
  try {
    await viewPage(req, res, name);
  } catch (err) {
    // The wiki's front door without a Home page: the empty wiki, or its list of pages.
    if (!(err instanceof NotFoundError) || req.params.page !== undefined) throw err;
    if (!(await allWikiPages(req.ctx.config, repoOf(req))).length) return emptyWiki(req, res);
    res.redirect(303, wikiPath(req, '_pages'));
  }
}
