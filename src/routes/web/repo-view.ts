import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import type { RefTips } from '../../git/ref-tips';
import { encodePath, html, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import type { CommitSummary } from '../../services/web/repo-about';
import { isWebRefKind, refSegment, type WebTarget } from '../../services/web/refs';
import { repoOf } from '../context';
import { queryString } from '../query';
import { unitsOf } from './guards';
import { repoHeader, repoLink, sendPage, webUrl, when, type RepoTab } from './layout';

// Pieces the code pages of a repository share: the page itself under the repository's header,
// the branch and tag switcher (a GET form; the script submits it on change), the path's
// crumbs and the line naming a commit.

export function repoPage(req: Request, res: Response, title: string, tab: RepoTab, body: SafeHtml, status = 200): void {
  const access = repoOf(req);
  const full = `${access.owner.name}/${access.repo.name}`;
  sendPage(req, res, { status, title: title || full, body: html`${repoHeader(req.ctx.config, access, unitsOf(res), tab)}\n${body}` });
}

/** Switchers list at most this many branches and tags each; the branches page has them all. */
const SWITCHER_MAX = 200;

/** `?switch=branch/name` (or `tag/name`) of the switcher form: the typed segment to go to, or null. */
export function switchedRef(req: Request, tips: RefTips): string | null {
  const asked = queryString(req, 'switch') ?? '';
  const slash = asked.indexOf('/');
  const kind = asked.slice(0, slash);
  const name = asked.slice(slash + 1);
  if (slash < 0 || !isWebRefKind(kind)) return null;
  if (kind === 'commit') return /^[0-9a-f]{7,64}$/i.test(name) ? asked : null;
  return (kind === 'branch' ? tips.branches : tips.tags).has(name) ? asked : null;
}

/**
 * A select of the branches and tags, in a GET form to the current page: the page answers
 * `?switch=` with a redirect to the same view at the chosen ref.
 */
export function refSwitcher(action: string, tips: RefTips, current: WebTarget['ref']): SafeHtml {
  const option = (kind: 'branch' | 'tag', name: string) => {
    const selected = current.kind === kind && current.name === name;
    return html`<option value="${kind}/${name}"${selected ? html` selected` : ''}>${name}</option>`;
  };
  const branches = [...tips.branches.keys()].slice(0, SWITCHER_MAX).map((b) => option('branch', b));
  const tags = [...tips.tags.keys()].slice(0, SWITCHER_MAX).map((t) => option('tag', t));
  const commit = current.kind === 'commit' ? html`<option value="commit/${current.commit}" selected>${current.commit.slice(0, 10)}</option>` : '';
  return html`<form class="switcher" method="get" action="${action}"><label for="ref-switch">Branch or tag</label>
<select id="ref-switch" name="switch" data-autosubmit>${commit}<optgroup label="Branches">${branches}</optgroup>${tags.length ? html`<optgroup label="Tags">${tags}</optgroup>` : ''}</select>
<button type="submit">Switch</button></form>`;
}

/** Links to each directory of `path` at the target's ref. */
export function crumbs(config: Config, access: RepoAccess, target: WebTarget, view = 'src'): SafeHtml {
  const ref = encodePath(refSegment(target.ref));
  const parts = target.path ? target.path.split('/') : [];
  const links = parts.map((p, i) => (i === parts.length - 1
    ? html` / <span aria-current="page">${p}</span>`
    : html` / <a href="${repoLink(config, access, `${view}/${ref}/${encodePath(parts.slice(0, i + 1).join('/'))}`)}">${p}</a>`));
  return html`<nav class="crumbs" aria-label="Path"><a href="${repoLink(config, access, `src/${ref}`)}">${access.repo.name}</a>${links}</nav>`;
}

/** A person by name and e-mail, linked to their profile when the e-mail is a user's. */
export function personLink(config: Config, name: string, email: string, users?: Map<string, User>): SafeHtml {
  const user = users?.get(email.toLowerCase());
  return user ? html`<a href="${webUrl(config, encodePath(user.name))}">${user.name}</a>` : html`${name}`;
}

/** A commit's first line linked to it, with its author and age (the bar above a listing or file). */
export function commitLine(config: Config, access: RepoAccess, c: CommitSummary | null): SafeHtml {
  if (!c) return html``;
  return html`<p class="latest"><span class="meta">${c.authorName}</span> <a href="${repoLink(config, access, `commit/${c.sha}`)}">${c.subject}</a> <span class="meta"><code>${c.sha.slice(0, 10)}</code> ${when(c.date)}</span></p>`;
}
