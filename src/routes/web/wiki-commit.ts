import type { Request, Response } from 'express';
import { NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { gitPathToWebPath } from '../../lib/wiki-path';
import { openWikiCommitDiff, wikiCommitPage } from '../../services/web/wiki-pages';
import { sendStream } from '../stream';
import { diffOptions, withQuery } from './commit-pages';
import { diffBody, diffViewOf, fileAnchor } from './diff-view';
import { repoOf } from './guards';
import { sendPage, when } from './layout';
import { wikiHead, wikiPath } from './wiki-common';

// One revision of the wiki with what it changed against its parent (Gitea's
// /{owner}/{repo}/wiki/commit/{sha}, and `.diff`/`.patch` as text): where each line of a
// page's history leads. A changed page links to the page as of that revision.

/** GET /{owner}/{repo}/wiki/commit/{sha}[.diff|.patch] */
export async function wikiCommit(req: Request, res: Response): Promise<void> {
  const m = /^([0-9a-f]{7,64})(?:\.(diff|patch))?$/.exec(String(req.params.sha));
  if (!m) throw new NotFoundError();
  const [, sha, type] = m as unknown as [string, string, 'diff' | 'patch' | undefined];
  if (type) {
    await sendStream(res, await openWikiCommitDiff(req.ctx.config, repoOf(req), sha, type), {});
    return;
  }
  const view = diffViewOf(req);
  const { commit: c, diff } = await wikiCommitPage(req.ctx.config, repoOf(req), sha, diffOptions(req, view));
  const base = wikiPath(req, `commit/${c.sha}`);
  const [subject, ...rest] = c.message.split('\n');
  const body = rest.join('\n').trim();
  const pageAt = (file: string) => {
    const name = gitPathToWebPath(file);
    return name === null ? wikiPath(req, '_pages') : wikiPath(req, `${name}?revision=${c.sha}`);
  };
  const links = {
    view: (f: { path: string }) => pageAt(f.path),
    load: (f: { path: string }) => `${withQuery(req, base, { file: f.path })}#${fileAnchor(f.path)}`,
    raw: `${base}.diff`,
    toggle: (q: Record<string, string>) => withQuery(req, base, q),
  };
  sendPage(req, res, {
    title: `${subject || c.sha.slice(0, 10)} · Wiki`,
    body: html`${wikiHead(req, res)}<h2 class="commit-title">${subject}</h2>${body ? html`<pre class="commit-body">${body}</pre>` : ''}
<p class="meta">${c.author.name} committed ${when(c.committer.date)} · <code>${c.sha}</code>${c.parents[0] ? html` · parent <a href="${wikiPath(req, `commit/${c.parents[0]}`)}"><code>${c.parents[0].slice(0, 10)}</code></a>` : ''}</p>
<p class="meta"><a href="${wikiPath(req, '_pages')}">Pages</a> · <a href="${base}.diff">.diff</a> · <a href="${base}.patch">.patch</a></p>
${diffBody(diff, view, links)}`,
  });
}
