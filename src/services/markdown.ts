import path from 'node:path';
import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { InvalidError, UnavailableError } from '../lib/errors';
import { mentionCandidates, type RenderEnv } from '../lib/markdown';
import { RenderRefusedError, renderMarkdownOffThread } from '../lib/markdown-offthread';
import { accountsByNames } from '../models/mentions';
import { canSeeOwner } from './permissions';

// POST /markdown, /markdown/raw and /markup, as Gitea's RenderMarkup: the mode decides whether
// issue references resolve against the repository named by the context.

export type MarkupRequest = { text: string; mode: string; context: string; filePath: string; wiki: boolean };

const MODES = new Set(['gfm', 'comment', 'wiki', 'file']);
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);

/**
 * The context is a URL path (`/subpath/{owner}/{repo}/src/...`, Gitea's form), possibly without
 * the leading slash or as an absolute URL; relative links resolve against it.
 */
export function parseContext(rootUrl: string, context: string): { linkBase: string; repo: [string, string] | null } {
  let rest = context.trim();
  if (rest.startsWith(rootUrl)) rest = rest.slice(rootUrl.length);
  const subpath = new URL(rootUrl).pathname;
  if (subpath !== '/' && rest.startsWith(subpath)) rest = rest.slice(subpath.length);
  const segments = rest.split('/').filter(Boolean);
  if (!segments.length) return { linkBase: '', repo: null };
  return {
    linkBase: `${rootUrl}${segments.map(encodeURI).join('/')}/`,
    repo: segments.length >= 2 ? [segments[0]!, segments[1]!] : null,
  };
}

/** Mentions link only to users that exist and that the viewer may see. */
async function mentionable(db: DB, text: string, viewer: User | null): Promise<Set<string>> {
  const names = mentionCandidates(text);
  const out = new Set<string>();
  for (const u of await accountsByNames(db, names)) {
    if (await canSeeOwner(db, u, viewer)) out.add(u.lower_name);
  }
  return out;
}

export async function renderMarkup(db: DB, config: Config, viewer: User | null, req: MarkupRequest): Promise<string> {
  // The deprecated Wiki flag wins over the mode, as in Gitea 1.25.
  const mode = req.wiki ? 'wiki' : req.mode;
  if (mode !== '' && mode !== 'markdown' && !MODES.has(mode)) throw new InvalidError(`Unknown mode: ${mode}`);
  if (mode === 'file' && req.filePath) {
    const ext = path.posix.extname(req.filePath).toLowerCase();
    if (!MARKDOWN_EXTENSIONS.has(ext)) throw new InvalidError(`Unsupported render extension: ${ext}`);
  }
  const rootUrl = config.server.root_url;
  const { linkBase, repo } = parseContext(rootUrl, req.context);
  const document = mode === '' || mode === 'markdown';
  const env: RenderEnv = {
    linkBase,
    repoBase: !document && repo ? `${rootUrl}${repo.map(encodeURIComponent).join('/')}/` : null,
    rootUrl,
    mentionable: await mentionable(db, req.text, viewer),
  };
  try {
    return await renderMarkdownOffThread(req.text, env);
  } catch (err) {
    if (err instanceof RenderRefusedError) throw new UnavailableError(err.message);
    throw err;
  }
}

/** /markdown/raw: the body is the document, rendered without context. */
export const renderRaw = (db: DB, config: Config, viewer: User | null, text: string) =>
  renderMarkup(db, config, viewer, { text, mode: 'markdown', context: '', filePath: '', wiki: false });
