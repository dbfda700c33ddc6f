import type { Request, Response } from 'express';
import { adoptRepository, deleteUnadopted, listUnadopted } from '../../../services/admin/unadopted';
import { doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';

// Site-admin operations on repositories on disk without a row (the guards see to the admin).

/** GET /admin/unadopted: `owner/name` strings; `pattern` as the reference names it, `query` as Gitea reads it. */
export async function listUnadoptedRepos(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const query = typeof req.query.pattern === 'string' ? req.query.pattern : typeof req.query.query === 'string' ? req.query.query : '';
  const { names, total } = await listUnadopted(req.ctx.h, query, page);
  setPaginationHeaders(req, res, total, page);
  res.json(names);
}

/** POST /admin/unadopted/{owner}/{repo}: 204. */
export async function adopt(req: Request, res: Response): Promise<void> {
  await adoptRepository(req.ctx.h, doerOf(req), String(req.params.owner), String(req.params.repo));
  res.status(204).end();
}

/** DELETE /admin/unadopted/{owner}/{repo}: 204. */
export async function removeUnadopted(req: Request, res: Response): Promise<void> {
  await deleteUnadopted(req.ctx.h, String(req.params.owner), String(req.params.repo));
  res.status(204).end();
}
