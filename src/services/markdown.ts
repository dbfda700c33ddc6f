import path from 'node:path';
import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { InvalidError, UnavailableError } from '../lib/errors';
import { mentionCandidates, type RenderEnv } from '../lib/markdown';
import { RenderRefusedError, renderMarkdownOffThread } from '../lib/markdown-offthread';
import { Lru } from '../lib/lru';
import { accountsByNames } from '../models/mentions';
import { canSeeOwner } from './permissions';
import type { Hearth } from '../hearth';

// POST /markdown, /markdown/raw and /markup, as Gitea's RenderMarkup: the mode decides whether
// issue references resolve against the repository named by the context.

export type MarkupRequest = { text: string; mode: string; context: string; filePath: string; wiki: boolean };

const MODES = new Set(['gfm', 'comment', 'wiki', 'file']);
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);

// The root URL's path, parsed once per root URL: a page of releases or comments asks for it per
// text, and URL parsing was a tenth of the notes' share of a releases page in a profile.
const subpaths = new Map<string, string>();
function subpathOf(rootUrl: string): string {
  let subpath = subpaths.get(rootUrl);
  if (subpath === undefined) {
    subpath = new URL(rootUrl).pathname;
    // Tests start servers with many root URLs in one process: keep the memo small.
    if (subpaths.size >= 16) subpaths.clear();
    subpaths.set(rootUrl, subpath);
  }
  return subpath;
}

/**
 * The context is a URL path (`/subpath/{owner}/{repo}/src/...`, Gitea's form), possibly without
 * the leading slash or as an absolute URL; relative links resolve against it.
 */
export function parseContext(rootUrl: string, context: string): { linkBase: string; repo: [string, string] | null } {
  let rest = context.trim();
  if (rest.startsWith(rootUrl)) rest = rest.slice(rootUrl.length);
  const subpath = subpathOf(rootUrl);
  if (subpath !== '/' && rest.startsWith(subpath)) rest = rest.slice(subpath.length);
  const segments = rest.split('/').filter(Boolean);
  if (!segments.length) return { linkBase: '', repo: null };
  return {
    linkBase: `${rootUrl}${segments.map(encodeURI).join('/')}/`,
    repo: segments.length >= 2 ? [segments[0]!, segments[1]!] : null,
  };
}

/** Mentions link only to users that exist and that the viewer may see. */
const mentionable = (db: DB, text: string, viewer: User | null): Promise<Set<string>> => mentionableOf(db, mentionCandidates(text), viewer);

async function mentionableOf(db: DB, names: string[], viewer: User | null): Promise<Set<string>> {
  const out = new Set<string>();
  for (const u of await accountsByNames(db, names)) {
    if (await canSeeOwner(db, u, viewer)) out.add(u.lower_name);
  }
  return out;
}

async function renderEnv(h: Hearth, viewer: User | null, req: MarkupRequest): Promise<RenderEnv> {
  // The deprecated Wiki flag wins over the mode, as in Gitea 1.25.
  const mode = req.wiki ? 'wiki' : req.mode;
  if (mode !== '' && mode !== 'markdown' && !MODES.has(mode)) throw new InvalidError(`Unknown mode: ${mode}`);
  if (mode === 'file' && req.filePath) {
    const ext = path.posix.extname(req.filePath).toLowerCase();
    if (!MARKDOWN_EXTENSIONS.has(ext)) throw new InvalidError(`Unsupported render extension: ${ext}`);
  }
  const rootUrl = h.config.server.root_url;
  const { linkBase, repo } = parseContext(rootUrl, req.context);
  const document = mode === '' || mode === 'markdown';
  return {
    linkBase,
    repoBase: !document && repo ? `${rootUrl}${repo.map(encodeURIComponent).join('/')}/` : null,
    rootUrl,
    mentionable: await mentionable(h.db, req.text, viewer),
  };
}

async function render(text: string, env: RenderEnv): Promise<string> {
  try {
    return await renderMarkdownOffThread(text, env);
  } catch (err) {
    if (err instanceof RenderRefusedError) throw new UnavailableError(err.message);
    throw err;
  }
}

export async function renderMarkup(h: Hearth, viewer: User | null, req: MarkupRequest): Promise<string> {
  return render(req.text, await renderEnv(h, viewer, req));
}

// Rendered comments (and other stored texts) by what names them and when they last changed: a
// page of 200 comments renders once, then comes from here until one is edited. The key also
// holds the context and the mentions the viewer may see, the only inputs that vary by reader.
// Each entry keeps the text it was rendered from: two edits within one second share an update
// time, and a hit is used only when its text is the one asked for (a string comparison, where a
// digest of each text on every page view cost more than the rest of the cache's work).
type Rendered = { text: string; html: string };
const rendered = new Lru<string, Rendered>(5000, (r) => r.html.length + r.text.length, 32 * 1024 * 1024);

export type StoredText = { kind: string; id: number; updatedUnix: number };

export async function renderStoredMarkup(h: Hearth, viewer: User | null, stored: StoredText, req: MarkupRequest): Promise<string> {
  return renderCached(stored, req, await renderEnv(h, viewer, req));
}

/** The cache's key of a stored text for one request and the mentions its reader may see. */
const cacheKey = (stored: StoredText, req: Omit<MarkupRequest, 'text'>, mentions: Iterable<string>): string =>
  `${stored.kind}\0${stored.id}\0${stored.updatedUnix}\0${req.mode}\0${req.context}\0${[...mentions].sort().join(',')}`;

/** The cached rendering of `text` under `key`, when it is still the text's. */
function cachedHtml(key: string, text: string): string | undefined {
  const hit = rendered.get(key);
  return hit !== undefined && hit.text === text ? hit.html : undefined;
}

async function renderInto(key: string, text: string, env: RenderEnv): Promise<string> {
  const html = await render(text, env);
  rendered.set(key, { text, html });
  return html;
}

function renderCached(stored: StoredText, req: MarkupRequest, env: RenderEnv): Promise<string> {
  const key = cacheKey(stored, req, env.mentionable);
  const hit = cachedHtml(key, req.text);
  return hit !== undefined ? Promise.resolve(hit) : renderInto(key, req.text, env);
}

/**
 * Many stored texts of one context (a conversation's comments) for one viewer: as
 * renderStoredMarkup each, with the mentioned users looked up once for all of them. Texts the
 * cache holds are answered without a turn of the event loop each: a page of 200 comments
 * awaited 200 promises for what one synchronous lookup apiece gives.
 */
export async function renderStoredBatch(
  h: Hearth, viewer: User | null, items: { stored: StoredText; text: string }[], base: Omit<MarkupRequest, 'text'>,
): Promise<string[]> {
  const candidates = items.map((i) => mentionCandidates(i.text));
  const visible = await mentionableOf(h.db, [...new Set(candidates.flat())], viewer);
  const out: string[] = new Array<string>(items.length);
  let env: RenderEnv | undefined;
  for (const [n, item] of items.entries()) {
    if (!item.text.trim()) {
      out[n] = '';
      continue;
    }
    // Each text's own mentions only: its cache key is the one a single render would use.
    const mine = candidates[n]!.filter((c) => visible.has(c));
    const key = cacheKey(item.stored, base, mine);
    const hit = cachedHtml(key, item.text);
    if (hit !== undefined) {
      out[n] = hit;
      continue;
    }
    env ??= await renderEnv(h, viewer, { ...base, text: '' });
    out[n] = await renderInto(key, item.text, { ...env, mentionable: new Set(mine) });
  }
  return out;
}

/** /markdown/raw: the body is the document, rendered without context. */
export const renderRaw = (h: Hearth, viewer: User | null, text: string) =>
  renderMarkup(h, viewer, { text, mode: 'markdown', context: '', filePath: '', wiki: false });
