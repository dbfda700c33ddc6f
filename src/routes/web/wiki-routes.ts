import type { RequestHandler } from 'express';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { wikiMode } from '../../services/web/wiki-pages';
import { repoOf } from './guards';
import { get, group, post, type WebGroup } from './table';
import * as forms from './wiki-forms';
import { wikiCommit } from './wiki-commit';
import * as pages from './wiki-pages';

// The wiki's groups (Gitea's /{owner}/{repo}/wiki routes): readers see pages, lists and
// histories; writers of a live repository post the forms. `repoPage` and `signedInRepo` are the
// repository chains of index.ts.

/** The wiki is on, internal, and the visitor reads it; else 404. */
const wikiReader: RequestHandler = async (req, res, next) => {
  const mode = await wikiMode(req.ctx.db, repoOf(req), req.ctx.doer);
  if (mode === 'none') throw new NotFoundError();
  res.locals.wikiMode = mode;
  next();
};

const wikiWriter: RequestHandler = (_req, res, next) => {
  if (res.locals.wikiMode !== 'write') throw new ForbiddenError('Only writers of this repository change its wiki.');
  next();
};

const W = '/:owner/:repo/wiki';

export function wikiGroups(repoPage: readonly RequestHandler[], signedInRepo: readonly RequestHandler[]): WebGroup[] {
  return [
    group('repo-wiki', [...repoPage, wikiReader], [
      get(W, pages.wikiGet),
      get(`${W}/_pages`, pages.pagesList),
      get(`${W}/_new`, forms.newPage),
      get(`${W}/commit/:sha`, wikiCommit),
      get(`${W}/:page`, pages.wikiGet),
    ]),
    group('repo-wiki-write', [...signedInRepo, wikiReader, wikiWriter], [
      post(`${W}/_new`, forms.newPost),
      post(W, forms.newPost),
      post(`${W}/:page`, forms.pagePost),
    ]),
  ];
}
