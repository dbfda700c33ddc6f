import type { Request, Response } from 'express';
import { webPathFromRequest } from '../../lib/wiki-path';
import { repoOf, unitsOf } from './guards';
import { repoHeader, repoLink } from './layout';

// What the wiki's pages and forms share: their links, the repository header, the writer check.

export const wikiPath = (req: Request, rest = '') => repoLink(req.ctx.config, repoOf(req), `wiki${rest ? `/${rest}` : ''}`);
export const wikiHead = (req: Request, res: Response) => repoHeader(req.ctx.config, repoOf(req), unitsOf(res), 'wiki');
export const isWriter = (res: Response) => res.locals.wikiMode === 'write';

/** The page name as sent, still escaped: the last path segment (`100%25+Free`). */
export function pageName(req: Request): string {
  const p = req.originalUrl.split('?')[0]!;
  return webPathFromRequest(p.slice(p.lastIndexOf('/') + 1));
}

