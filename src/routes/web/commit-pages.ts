import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import type { LogCommit } from '../../git/log';
import { NotFoundError } from '../../lib/errors';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import { openCommitDiff } from '../../services/repo/archive';
import type { RepoAccess } from '../../services/repo/repos';
import { commitPage, commitsPage, compareDiff, comparePage, COMMITS_PAGE_SIZE } from '../../services/web/commit-pages';
import type { DiffFile } from '../../services/web/diff-model';
import { splitRefKind } from '../../services/web/refs';
import { repoOf } from '../context';
import { queryInt } from '../query';
import { sendStream } from '../stream';
import { pathParam } from '../table';
import { diffBody, diffViewOf, fileAnchor, type DiffView } from './diff-view';
import { pager, repoLink, when } from './layout';
import { newPullSection } from './pull-new';
import { personLink, refSwitcher, repoPage, switchedRef } from './repo-view';

// A commit with its diff (`commit/{sha}`, and `.diff`/`.patch` as text), a ref's history
// (`commits/{branch|tag|commit}/{ref}[/{path}]`) and a comparison (`compare/{base}...{head}`).

/** The page's URL with some query values changed (the diff's style and whitespace links). */
export function withQuery(req: Request, base: string, change: Record<string, string>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string' && k !== 'file') q.set(k, v);
  for (const [k, v] of Object.entries(change)) q.set(k, v);
  const text = q.toString();
  return text ? `${base}?${text}` : base;
}

/** `?file=` (one or more): a collapsed file's diff loaded alone. */
const filesAsked = (req: Request): string[] => [req.query.file].flat().filter((f): f is string => typeof f === 'string' && f.length > 0).slice(0, 10);

function links(req: Request, base: string, at: string, rawDiff: string) {
  const { config } = req.ctx;
  const access = repoOf(req);
  return {
    view: (f: DiffFile) => repoLink(config, access, `src/commit/${at}/${encodePath(f.path)}`),
    load: (f: DiffFile) => `${withQuery(req, base, { file: f.path })}#${fileAnchor(f.path)}`,
    raw: rawDiff,
    toggle: (q: Record<string, string>) => withQuery(req, base, q),
  };
}

export const diffOptions = (req: Request, view: DiffView) => {
  const files = filesAsked(req);
  return { whitespace: view.whitespace, paths: files.length ? files : undefined, expand: files.length > 0 };
};

/** GET /{owner}/{repo}/commit/{sha}, and `{sha}.diff` / `{sha}.patch` as text. */
export async function commit(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const sha = String(req.params.sha);
  const text = /^(.+)\.(diff|patch)$/.exec(sha);
  if (text) {
    await sendStream(res, await openCommitDiff(config, access, text[1]!, text[2] as 'diff' | 'patch'), {});
    return;
  }
  const view = diffViewOf(req);
  const page = await commitPage(req.ctx.h, access, sha, diffOptions(req, view));
  const c = page.commits[0]!;
  const [subject, ...rest] = c.message.split('\n');
  const body = rest.join('\n').trim();
  const parents = c.parents.map((p) => html` <a href="${repoLink(config, access, `commit/${p}`)}"><code>${p.slice(0, 10)}</code></a>`);
  const base = repoLink(config, access, `commit/${c.sha}`);
  repoPage(req, res, subject ?? c.sha, 'commits', html`<h2 class="commit-title">${subject}</h2>
${body ? html`<pre class="commit-body">${body}</pre>` : ''}
<p class="meta">${personLink(config, c.author.name, c.author.email, page.users)} committed ${when(c.committer.date)} · <code>${c.sha}</code>${c.parents.length ? html` · parent${c.parents.length > 1 ? 's' : ''}${parents}` : ''}</p>
<p class="meta"><a href="${repoLink(config, access, `src/commit/${c.sha}`)}">Browse files</a> · <a href="${base}.diff">.diff</a> · <a href="${base}.patch">.patch</a></p>
${diffBody(page.diff, view, links(req, base, c.sha, `${base}.diff`))}`);
}

function commitRows(config: Config, access: RepoAccess, commits: LogCommit[], users: Map<string, User>): SafeHtml {
  const rows = commits.map((c) => html`<li><a href="${repoLink(config, access, `commit/${c.sha}`)}">${c.message.split('\n', 1)[0]}</a>
<div class="meta">${personLink(config, c.author.name, c.author.email, users)} committed ${when(c.committer.date)} · <a href="${repoLink(config, access, `commit/${c.sha}`)}"><code>${c.sha.slice(0, 10)}</code></a> · <a href="${repoLink(config, access, `src/commit/${c.sha}`)}" aria-label="Browse the files at ${c.sha.slice(0, 10)}">Browse</a></div></li>`);
  return rows.length ? html`<ul class="list commits">${rows}</ul>` : html`<p class="meta">No commits.</p>`;
}

/** GET /{owner}/{repo}/commits/{branch|tag|commit}/{ref}[/{path}]: history, 30 a page. */
export async function commits(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const rest = pathParam(req, 'rest');
  const typed = splitRefKind(rest);
  if (!typed) throw new NotFoundError();
  const n = Math.max(1, queryInt(req, 'page') ?? 1);
  const { target, list } = await commitsPage(req.ctx.h, access, typed.kind, typed.rest, n);
  const switched = switchedRef(req, target.tips);
  if (switched) {
    res.redirect(303, repoLink(config, access, `commits/${encodePath(switched)}${target.path ? `/${encodePath(target.path)}` : ''}`));
    return;
  }
  const more = n * list.pageSize < list.total;
  const base = repoLink(config, access, `commits/${encodePath(rest)}`);
  const title = target.path ? html`History of <code>${target.path}</code>` : html`Commits on ${target.ref.name}`;
  repoPage(req, res, `Commits ${target.ref.name}`, 'commits', html`<div class="code-bar">${refSwitcher(base, target.tips, target.ref)}</div>
<h2>${title} <span class="count">${list.total}</span></h2>
${commitRows(config, access, list.commits, list.users)}${pager(base, n, more)}`);
}

export { COMMITS_PAGE_SIZE };

/** GET /{owner}/{repo}/compare/{base}...{head} */
export async function compare(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const basehead = pathParam(req, 'basehead');
  if (basehead.endsWith('.diff')) {
    await sendStream(res, await compareDiff(req.ctx.h, access, basehead.slice(0, -5)), {});
    return;
  }
  const view = diffViewOf(req);
  const page = await comparePage(req.ctx.h, access, basehead, diffOptions(req, view));
  const base = repoLink(config, access, `compare/${encodePath(basehead)}`);
  const at = page.commits[0]?.sha ?? '';
  repoPage(req, res, `Compare ${basehead}`, 'code', html`<h2>Comparing <code>${basehead}</code></h2>
<p class="meta">${page.commits.length} commit${page.commits.length === 1 ? '' : 's'}</p>
${commitRows(config, access, page.commits, page.users)}
${page.diff ? html`${await newPullSection(req, res, basehead)}${diffBody(page.diff, view, links(req, base, at, `${base}.diff`))}` : html`<p class="meta">These branches are equal: nothing to compare.</p>`}`);
}
