import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { encodePath, escapeHtml, html, raw, type SafeHtml } from '../../lib/html';
import { webAssetFile } from '../../lib/web-assets';
import type { RepoAccess } from '../../services/repo/repos';
import type { PendingTransfer } from '../../services/repo/transfer';
import type { WebUnit } from '../../services/web/units';
import { settingsOf } from '../../services/repo/repo-settings';
import { avatarUrl } from '../../convert/user';
import { ACCESS } from '../../services/access-modes';
import { csrfToken } from './session';
import { socialButtons } from './repo-social-state';

// The one layout of the server-rendered pages: the site header, the page's body, one hashed
// stylesheet and one deferred script. Pages hold user text (names, markdown): every value is
// escaped by html``, no inline script runs, and the CSP says so; user colours go through one
// nonce'd <style> block of custom properties (pageColour).

export type Theme = 'auto' | 'light' | 'dark';

/** The user's theme (Gitea's names accepted: gitea-light, gitea-dark, gitea-auto), else the site's. */
export function themeOf(config: Config, user: User | null): Theme {
  const name = (user?.theme || config.ui.default_theme).replace(/^gitea-/, '');
  return name === 'light' || name === 'dark' ? name : 'auto';
}

/** `formAction`: origins a form of the page may post to or be redirected to (the OAuth2 consent's client). */
export function contentSecurityPolicy(nonce: string, formAction: readonly string[] = []): string {
  return `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; `
    + `connect-src 'self'; form-action ${["'self'", ...formAction].join(' ')}; base-uri 'none'; frame-ancestors 'none'`;
}

/** An absolute link under root_url; `path` is already percent-encoded. */
export const webUrl = (config: Config, path: string): string => `${config.server.root_url}${path.replace(/^\//, '')}`;

// A repository page links to its own repository a few dozen times (tabs, settings navigation,
// forms): the encoded `/{owner}/{repo}` is kept with the repository's row, which lives as long
// as the request that read it, for as long as the names it was made of.
type RepoBase = { root: string; owner: string; name: string; link: string };
const repoBases = new WeakMap<object, RepoBase>();

function repoBase(config: Config, access: Pick<RepoAccess, 'owner' | 'repo'>): string {
  const { root_url: root } = config.server;
  const hit = repoBases.get(access.repo);
  if (hit && hit.root === root && hit.owner === access.owner.name && hit.name === access.repo.name) return hit.link;
  const link = webUrl(config, `${encodePath(access.owner.name)}/${encodePath(access.repo.name)}`);
  repoBases.set(access.repo, { root, owner: access.owner.name, name: access.repo.name, link });
  return link;
}

/** `/{owner}/{repo}` + `rest`, each name percent-encoded, as an absolute link. */
export const repoLink = (config: Config, access: Pick<RepoAccess, 'owner' | 'repo'>, rest = ''): string =>
  (rest ? `${repoBase(config, access)}/${rest}` : repoBase(config, access));

export type Page = { title: string; body: SafeHtml; status?: number; formAction?: readonly string[] };

/**
 * A user-chosen colour (a label's) as a class whose custom properties (`--c`, `--cfg`: a text
 * colour readable on it) the page's nonce'd style block sets; invalid colours get none.
 */
export function pageColour(res: Response, hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return '';
  const value = m[1]!.toLowerCase();
  const colours = (res.locals.colours ??= new Set<string>()) as Set<string>;
  colours.add(value);
  return `c-${value}`;
}

function colourStyles(res: Response): string {
  const colours = res.locals.colours as Set<string> | undefined;
  if (!colours?.size) return '';
  return [...colours].map((c) => {
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(c.slice(i, i + 2), 16));
    // Relative luminance (WCAG): dark text on light colours, white on dark ones.
    const lum = [r!, g!, b!].map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    const l = 0.2126 * lum[0]! + 0.7152 * lum[1]! + 0.0722 * lum[2]!;
    return `.c-${c}{--c:#${c};--cfg:${l > 0.179 ? '#000' : '#fff'}}`;
  }).join('');
}

function fullTitle(req: Request, title: string): string {
  const repo = req.ctx.repo;
  const parts = [title, repo ? `${repo.owner.name}/${repo.repo.name}` : '', req.ctx.config.server.app_name];
  return parts.filter((p, i) => p && !(i === 1 && p === title)).join(' · ');
}

/**
 * The parts of the site header that depend on the configuration alone (its links, the create
 * menu, the search form), made once per configuration and address rather than on every page.
 */
type Frame = {
  root: string; app: string; registration: boolean;
  brand: SafeHtml; createMenu: SafeHtml; signedOut: SafeHtml; notifications: string; settings: string; admin: SafeHtml; logout: string;
  /** The stylesheet's and the script's hashed URLs, fixed for the process, and the footer's API link. */
  css: string; js: string; api: string;
};
const frames = new WeakMap<Config, Frame>();

function frameOf(config: Config): Frame {
  const { root_url: root, app_name: app } = config.server;
  const registration = !config.service.disable_registration;
  const hit = frames.get(config);
  if (hit && hit.root === root && hit.app === app && hit.registration === registration) return hit;
  const frame: Frame = {
    root, app, registration,
    brand: html`<a class="brand" href="${root}">${app}</a>
<form class="search" role="search" aria-label="Repositories" method="get" action="${webUrl(config, 'explore/repos')}"><input type="search" name="q" aria-label="Search repositories" placeholder="Search repositories"></form>`,
    createMenu: html`<details class="menu"><summary aria-label="Create&#8230;"><span aria-hidden="true">+</span></summary><ul>
<li><a href="${webUrl(config, 'repo/create')}">New repository</a></li>
<li><a href="${webUrl(config, 'repo/migrate')}">New migration</a></li>
<li><a href="${webUrl(config, 'org/create')}">New organization</a></li></ul></details>`,
    signedOut: html`<a href="${webUrl(config, 'user/login')}">Sign in</a>${registration ? html` <a href="${webUrl(config, 'user/sign_up')}">Register</a>` : ''}`,
    notifications: webUrl(config, 'notifications'),
    settings: webUrl(config, 'user/settings'),
    admin: html`<li><a href="${webUrl(config, '-/admin')}">Site administration</a></li>`,
    logout: webUrl(config, 'user/logout'),
    css: webUrl(config, `assets/${webAssetFile('hearth.css')}`),
    js: webUrl(config, `assets/${webAssetFile('hearth.js')}`),
    api: webUrl(config, 'api/swagger'),
  };
  frames.set(config, frame);
  return frame;
}

function accountMenu(req: Request, res: Response, user: User): SafeHtml {
  const { config } = req.ctx;
  const frame = frameOf(config);
  const unread = (res.locals.unread as number | undefined) ?? 0;
  // Basic and token callers (scripts) have no session to end.
  const signOut = req.ctx.auth === 'session'
    ? html`<li><form method="post" action="${frame.logout}"><input type="hidden" name="_csrf" value="${csrfToken(req, res)}"><button type="submit">Sign out</button></form></li>`
    : '';
  return html`${frame.createMenu}
<a href="${frame.notifications}" aria-label="Notifications, ${unread} unread"><svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16" fill="currentColor"><path d="M8 16a2 2 0 0 0 2-2H6a2 2 0 0 0 2 2zm5-5V7a5 5 0 0 0-4-4.9V1a1 1 0 1 0-2 0v1.1A5 5 0 0 0 3 7v4l-2 2v1h14v-1z"/></svg>${unread ? html`<span class="badge-count" aria-hidden="true">${unread}</span>` : ''}</a>
<details class="menu"><summary aria-label="Account menu of ${user.name}"><img class="avatar" src="${avatarUrl(config, user)}" alt="" width="20" height="20"><span>${user.name}</span></summary><ul>
<li><a href="${webUrl(config, encodePath(user.name))}">Your profile</a></li>
<li><a href="${frame.settings}">Settings</a></li>
${user.is_admin ? frame.admin : ''}${signOut}
</ul></details>`;
}

function siteHeader(req: Request, res: Response): SafeHtml {
  const { config, doer } = req.ctx;
  const right = doer ? accountMenu(req, res, doer) : frameOf(config).signedOut;
  return html`<header class="site">${frameOf(config).brand}
<nav aria-label="Account">${right}</nav></header>`;
}

// Nonces are cut from a pool of random bytes refilled 256 nonces at a time: a call into the
// generator for each page was ~10 us of every page in a profile, the pool's share is ~0.1 us.
const NONCE_BYTES = 16;
let noncePool = Buffer.alloc(0);
let nonceAt = 0;

function cspNonce(): string {
  if (nonceAt + NONCE_BYTES > noncePool.length) {
    noncePool = crypto.randomBytes(NONCE_BYTES * 256);
    nonceAt = 0;
  }
  nonceAt += NONCE_BYTES;
  return noncePool.toString('base64', nonceAt - NONCE_BYTES, nonceAt);
}

export function sendPage(req: Request, res: Response, page: Page): void {
  const { config, doer } = req.ctx;
  const nonce = cspNonce();
  const header = siteHeader(req, res);
  const styles = colourStyles(res);
  const token = doer && req.ctx.auth === 'session' ? csrfToken(req, res) : '';
  const frame = frameOf(config);
  const doc = html`<!DOCTYPE html>
<html lang="en" data-theme="${themeOf(config, doer)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${fullTitle(req, page.title)}</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${frame.css}">${styles ? html`<style nonce="${nonce}">${raw(styles)}</style>` : ''}
${token ? html`<meta name="csrf-token" content="${token}">` : ''}<script src="${frame.js}" defer></script></head>
<body data-shortcuts="${doer && !doer.keyboard_shortcuts ? 'off' : 'on'}"><a class="skip" href="#main">Skip to content</a>
${header}
<main id="main" tabindex="-1">
${transferBanner(req, res)}${page.body}
</main>
<footer class="site"><p>Powered by hearth · <a href="${frame.api}">API</a></p></footer>
</body></html>
`;
  res.status(page.status ?? 200)
    .setHeader('Content-Security-Policy', contentSecurityPolicy(nonce, page.formAction))
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('Cache-Control', 'no-store')
    // The full type as res.type('html') gives it, without its lookup in the media types' table.
    .setHeader('Content-Type', 'text/html; charset=utf-8');
  sendCompressed(req, res, doc.value);
}

/** A pending transfer the visitor may answer (set by assignWebRepo): where to accept or reject it. */
function transferBanner(req: Request, res: Response): SafeHtml {
  const offer = res.locals.transferOffer as PendingTransfer | null | undefined;
  const access = req.ctx.repo;
  if (!offer || !access) return html``;
  return html`<div class="flash" role="status">${offer.doer.name} wants to transfer this repository to ${offer.recipient.name}. <a href="${repoLink(req.ctx.config, access, 'transfer')}">Accept or reject the transfer</a></div>`;
}

/**
 * Brotli's quality for a page of `bytes`. Pages are made per request: under 32 KB quality 1
 * is ~2x faster than 3 (~25 us of a 10 KB page's ~50, on the bundled Node 24) for ~9% more
 * bytes. Past that, quality 2 (a faster match finder than 3's) was both faster and no larger
 * on the long pages: a 2,000-line file's 370 KB ~0.6 ms against ~0.9 and 18.6 KB against
 * 18.7, an issue's 200 comments (230 KB) ~0.3 ms against ~0.4.
 */
const brotliQuality = (bytes: number): number => (bytes < 32 * 1024 ? 1 : 2);

/**
 * Pages smaller than this go as they are. A response within TCP's initial window (10 segments,
 * ~14.6 KB, RFC 6928; this leaves room for the headers) takes one round trip compressed or
 * not, and compressing one cost the server ~0.25 ms of CPU per page when measured (a 10 KB
 * settings page: 0.73 ms as is, 0.97 ms with brotli), most of such a page's whole cost.
 */
export const COMPRESS_FROM = 12 * 1024;

/** The body with its length, as res.send ends it, without its ETag and freshness check (pages have none). */
function endWith(req: Request, res: Response, body: Buffer | undefined, bytes: number): void {
  res.setHeader('Content-Length', bytes);
  if (!body) res.end();
  else res.end(body);
}

/**
 * Brotli or gzip when the browser takes them and the page is worth it (COMPRESS_FROM). The page is
 * encoded once, into the bytes sent: as text it was measured, copied behind the header, encoded
 * by the socket and measured again by http's end().
 */
export function sendCompressed(req: Request, res: Response, body: string): void {
  res.setHeader('Vary', 'Accept-Encoding');
  if (req.method === 'HEAD') return endWith(req, res, undefined, Buffer.byteLength(body));
  const bytes = Buffer.from(body);
  if (bytes.length < COMPRESS_FROM) return endWith(req, res, bytes, bytes.length);
  const accepts = String(req.headers['accept-encoding'] ?? '');
  let packed: Buffer | undefined;
  if (/\bbr\b/.test(accepts)) {
    res.setHeader('Content-Encoding', 'br');
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(bytes.length), [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
    packed = zlib.brotliCompressSync(bytes, { params });
  } else if (/\bgzip\b/.test(accepts)) {
    res.setHeader('Content-Encoding', 'gzip');
    packed = zlib.gzipSync(bytes, { level: 6 });
  }
  const sent = packed ?? bytes;
  endWith(req, res, sent, sent.length);
}

/** Code and diffs scroll sideways inside their own focusable region, never the page. */
export const codeRegion = (label: string, content: SafeHtml): SafeHtml =>
  html`<div class="code-region" role="region" aria-label="${label}" tabindex="0">${content}</div>`;

export type RepoTab = 'code' | 'issues' | 'pulls' | 'releases' | 'labels' | 'milestones' | 'commits' | 'actions' | 'wiki' | 'settings' | 'none';

/** The heading and tabs of every repository page; tabs only for the units the visitor reads. */
export function repoHeader(config: Config, access: RepoAccess, units: ReadonlySet<WebUnit>, active: RepoTab): SafeHtml {
  const { repo, owner } = access;
  // The repository's link escaped once for its ten tabs; labels and the other paths are fixed text.
  const base = escapeHtml(repoLink(config, access));
  const tab = (name: RepoTab, label: string, rest: string, count?: number) => raw(`<a ${name === active ? 'aria-current="page" class="active"' : ''} href="${base}${rest ? `/${rest}` : ''}">${label}${count !== undefined ? ` <span class="count">${count}</span>` : ''}</a>`);
  const tabs: SafeHtml[] = [];
  if (units.has('repo.code')) tabs.push(tab('code', 'Code', ''), tab('commits', 'Commits', escapeHtml(`commits/branch/${encodePath(repo.default_branch)}`)));
  if (units.has('repo.issues')) tabs.push(tab('issues', 'Issues', 'issues', repo.num_issues - repo.num_closed_issues));
  if (units.has('repo.pulls')) tabs.push(tab('pulls', 'Pull requests', 'pulls', repo.num_pulls - repo.num_closed_pulls));
  if (units.has('repo.releases')) tabs.push(tab('releases', 'Releases', 'releases', repo.num_releases));
  if (units.has('repo.issues') || units.has('repo.pulls')) tabs.push(tab('labels', 'Labels', 'labels'), tab('milestones', 'Milestones', 'milestones'));
  if (units.has('repo.actions') && config.actions.enabled) tabs.push(tab('actions', 'Actions', 'actions'));
  if (units.has('repo.wiki') && !settingsOf(repo).external_wiki) tabs.push(tab('wiki', 'Wiki', 'wiki'));
  // Repository admins (access mode admin and up, site admins included) reach the settings.
  if (access.mode >= ACCESS.admin) tabs.push(tab('settings', 'Settings', 'settings'));
  const badges = [repo.is_private ? 'Private' : '', repo.is_archived ? 'Archived' : '', repo.is_mirror ? 'Mirror' : '', repo.is_template ? 'Template' : '']
    .filter(Boolean).map((b) => html` <span class="badge">${b}</span>`);
  return html`<div class="repo-head">
<h1><a href="${webUrl(config, encodePath(owner.name))}">${owner.name}</a> / <a href="${repoLink(config, access)}">${repo.name}</a>${badges}</h1>${socialButtons(config, access)}
${repo.description ? html`<p class="description">${repo.description}</p>` : ''}
<nav class="tabs" aria-label="Repository">${tabs}</nav>
</div>`;
}

/** "N items" pager links for list pages (`page` is 1-based). */
export function pager(base: string, page: number, hasMore: boolean, query: Record<string, string> = {}): SafeHtml {
  const link = (p: number) => {
    const q = new URLSearchParams({ ...query, page: String(p) });
    return `${base}?${q.toString()}`;
  };
  if (page <= 1 && !hasMore) return raw('');
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a rel="prev" href="${link(page - 1)}">Previous</a>` : ''}${hasMore ? html` <a rel="next" href="${link(page + 1)}">Next</a>` : ''}</nav>`;
}

/** A date as people read it (the script shows it in the reader's zone), the exact time on hover. */
export const when = (unix: number | string | Date): SafeHtml => {
  const d = unix instanceof Date ? unix : new Date(typeof unix === 'number' ? unix * 1000 : unix);
  if (Number.isNaN(d.getTime())) return raw('');
  // An ISO date has nothing to escape: no html`` for the hundreds of dates of a long page.
  const iso = d.toISOString();
  return raw(`<time datetime="${iso}" title="${iso}">${iso.slice(0, 10)}</time>`);
};
