import type { Request, RequestHandler, Response } from 'express';
import * as z from 'zod';
import { toWikiCommitList, toWikiPage, toWikiPageMeta } from '../../../convert/wiki';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { userTitleToWebPath, webPathFromRequest } from '../../../lib/wiki-path';
import { ACCESS } from '../../../services/permissions';
import { repoUnitAccess } from '../../middleware/repo-guards';
import { settingsOf } from '../../../services/repo/repo-settings';
import { unitModeOf } from '../../../services/repo/repos';
import { deleteWikiPage, getWikiPage, listWikiPages, listWikiRevisions, writeWikiPage } from '../../../services/wiki/wiki';
import { doerOf, repoOf } from '../../context';
import { setTotalCount } from '../../pagination';
import { queryInt } from '../../query';
import { named, parseBody } from '../../validate';

/** Gitea's mustEnableWiki: a switched-off wiki, or one the caller may not read, is not there. */
export const wikiEnabled: RequestHandler = async (req, _res, next) => {
  const access = repoOf(req);
  const s = settingsOf(access.repo);
  if (!s.has_wiki || s.external_wiki || (await unitModeOf(req.ctx.db, access, req.ctx.doer, 'repo.wiki')) < ACCESS.read) {
    throw new NotFoundError();
  }
  next();
};

/** Gitea's reqRepoWriter(unit.TypeWiki). */
export const reqWikiWriter = repoUnitAccess('repo.wiki', ACCESS.write);

/** The page name as sent, still escaped (Gitea's PathParamRaw): `100%25+Free` names `100% Free`. */
function pageNameOf(req: Request): string {
  const p = req.originalUrl.split('?')[0]!;
  return webPathFromRequest(p.slice(p.lastIndexOf('/') + 1));
}

export const schema = named('CreateWikiPageOptions', z.object({ title: z.string().nullish(), content_base64: z.string().nullish(), message: z.string().nullish() }));

/** Go's base64.StdEncoding.DecodeString: padded, strict; a 400 otherwise. */
function decodeContent(s: string | null | undefined): Buffer {
  const text = s ?? '';
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new BadRequestError('illegal base64 data in content_base64');
  return Buffer.from(text, 'base64');
}

// Go's %q for the default messages.
const quoted = (s: string) => JSON.stringify(s);

async function answerPage(req: Request, res: Response, status: number, name: string): Promise<void> {
  const access = repoOf(req);
  res.status(status).json(toWikiPage(req.ctx.config, access, await getWikiPage(req.ctx.config, access, name)));
}

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(schema, req.body);
  const title = body.title ?? '';
  if (!title.trim()) throw new BadRequestError('emptyTitle');
  const name = userTitleToWebPath('', title);
  const content = decodeContent(body.content_base64);
  const message = body.message || `Add ${quoted(title)}`;
  await writeWikiPage(req.ctx.h, repoOf(req), doerOf(req), { name, content, message, isNew: true });
  await answerPage(req, res, 201, name);
}

export async function edit(req: Request, res: Response): Promise<void> {
  const body = parseBody(schema, req.body);
  const oldName = pageNameOf(req);
  // The reference: "leave empty to keep unchanged" (Gitea itself would rename to "unnamed").
  const name = body.title?.trim() ? userTitleToWebPath('', body.title) : oldName;
  const content = decodeContent(body.content_base64);
  const message = body.message || `Update ${quoted(name)}`;
  await writeWikiPage(req.ctx.h, repoOf(req), doerOf(req), { oldName, name, content, message, isNew: false });
  await answerPage(req, res, 200, name);
}

export async function get(req: Request, res: Response): Promise<void> {
  await answerPage(req, res, 200, pageNameOf(req));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteWikiPage(req.ctx.h, repoOf(req), doerOf(req), pageNameOf(req));
  res.status(204).end();
}

export async function list(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  // As Gitea: limit <= 1 is the default page size; no maximum.
  const page = Math.max(1, queryInt(req, 'page') ?? 1);
  let limit = queryInt(req, 'limit') ?? 0;
  if (limit <= 1) limit = req.ctx.config.api.default_paging_num;
  const { total, pages } = await listWikiPages(req.ctx.config, access, page, limit);
  setTotalCount(res, total);
  res.json(pages.map((p) => toWikiPageMeta(req.ctx.config, access, p)));
}

export async function revisions(req: Request, res: Response): Promise<void> {
  const page = Math.max(1, queryInt(req, 'page') ?? 1);
  const { count, commits } = await listWikiRevisions(req.ctx.config, repoOf(req), pageNameOf(req), page);
  setTotalCount(res, count);
  res.json(toWikiCommitList(commits, count));
}
