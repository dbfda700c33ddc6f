import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiPublicKey } from '../../../convert/public-key';
import { NotFoundError } from '../../../lib/errors';
import * as keys from '../../../services/user/keys';
import { contextUserOf, doerOf } from '../../context';
import { pageOf, setPaginationHeaders, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';

export const createSchema = named('CreateKeyOption', z.object({
  title: z.string().min(1, 'Required'),
  key: z.string().min(1, 'Required'),
  read_only: z.boolean().optional(),
}));

const idParam = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

async function list(req: Request, res: Response, self: boolean): Promise<void> {
  const page = pageOf(req);
  const fingerprint = queryString(req, 'fingerprint') || undefined;
  const user = self ? doerOf(req) : contextUserOf(req);
  // GET /user/keys?fingerprint= searches every user's keys, as Gitea.
  const found = await keys.listPublicKeys(req.ctx.db, self && fingerprint ? undefined : user, fingerprint, page);
  if (fingerprint) setTotalCount(res, found.total);
  else setPaginationHeaders(req, res, found.total, page);
  res.json(found.keys.map((k) => toApiPublicKey(req.ctx.config, k, req.ctx.doer)));
}

export const listMine = (req: Request, res: Response) => list(req, res, true);
export const listOfUser = (req: Request, res: Response) => list(req, res, false);

export async function get(req: Request, res: Response): Promise<void> {
  res.json(toApiPublicKey(req.ctx.config, await keys.getPublicKey(req.ctx.db, idParam(req)), req.ctx.doer));
}

async function create(req: Request, res: Response, admin: boolean): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const owner = admin ? contextUserOf(req) : doerOf(req);
  const key = await keys.addPublicKey(req.ctx.db, owner, body);
  res.status(201).json(toApiPublicKey(req.ctx.config, { key, owner }, req.ctx.doer));
}

export const createMine = (req: Request, res: Response) => create(req, res, false);
export const createForUser = (req: Request, res: Response) => create(req, res, true);

export async function remove(req: Request, res: Response): Promise<void> {
  await keys.deletePublicKey(req.ctx.db, doerOf(req), idParam(req));
  res.status(204).end();
}

/** DELETE /admin/users/{username}/keys/{id}: as Gitea, the check is made as that user. */
export async function adminRemove(req: Request, res: Response): Promise<void> {
  await keys.deletePublicKey(req.ctx.db, contextUserOf(req), idParam(req));
  res.status(204).end();
}
