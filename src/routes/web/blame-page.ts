import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { BlameHunk } from '../../git/blame';
import { NotFoundError } from '../../lib/errors';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import { blamePage, type BlamePage } from '../../services/web/blame-page';
import { splitRefKind } from '../../services/web/refs';
import { repoOf } from '../context';
import { pathParam } from '../table';
import { refPath } from './file-view';
import { codeRegion, repoLink, when } from './layout';
import { crumbs, personLink, refSwitcher, repoPage, switchedRef } from './repo-view';

// GET /{owner}/{repo}/blame/{branch|tag|commit}/{ref}/{path}: each run of lines with the commit
// that last changed it (its message, author and date, and a link to the blame before it).

function hunkRows(config: Config, access: RepoAccess, page: BlamePage, h: BlameHunk): SafeHtml[] {
  const c = h.commit;
  const prior = c.previous
    ? html` <a class="meta" href="${repoLink(config, access, `blame/commit/${c.previous.sha}/${encodePath(c.previous.path)}`)}" aria-label="Blame before ${c.sha.slice(0, 10)}">older</a>` : '';
  const info = html`<td class="blame-info" rowspan="${h.lines.length}"><a href="${repoLink(config, access, `commit/${c.sha}`)}">${c.summary}</a>
<div class="meta">${personLink(config, c.authorName, c.authorEmail, page.users)} ${when(c.authorTime)}${prior}</div></td>`;
  return h.lines.map((_, i) => {
    const n = h.start + i;
    return html`<tr id="L${n}"${i === 0 ? raw(' class="hunk-start"') : ''}>${i === 0 ? info : ''}<td class="num"><a href="#L${n}">${n}</a></td><td>${raw(page.lines[n - 1] ?? '')}</td></tr>`;
  });
}

export async function blame(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const { config } = req.ctx;
  const typed = splitRefKind(pathParam(req, 'rest'));
  if (!typed) throw new NotFoundError();
  const page = await blamePage(req.ctx.db, config, access, typed.kind, typed.rest);
  const t = page.target;
  const switched = switchedRef(req, t.tips);
  if (switched) {
    res.redirect(303, repoLink(config, access, `blame/${encodePath(switched)}/${encodePath(t.path)}`));
    return;
  }
  const head = html`<div class="code-bar">${refSwitcher(repoLink(config, access, refPath('blame', t)), t.tips, t.ref)}</div>${crumbs(config, access, t, 'src')}
<nav class="file-actions" aria-label="File"><a class="button" href="${repoLink(config, access, refPath('src', t))}">View file</a><a class="button" href="${repoLink(config, access, refPath('raw', t))}">Raw</a><a class="button" href="${repoLink(config, access, refPath('commits', t))}">History</a></nav>`;
  const body = page.hunks
    ? codeRegion(`Blame of ${t.path}`, html`<table class="code blame">${page.hunks.flatMap((h) => hunkRows(config, access, page, h))}</table>`)
    : html`<p>This file is too large or binary to blame here. <a href="${repoLink(config, access, refPath('raw', t))}">View it raw</a>.</p>`;
  repoPage(req, res, `Blame ${t.path}`, 'code', html`${head}${body}`);
}
