import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiDeployKey } from '../../../convert/deploy-key';
import { NotFoundError } from '../../../lib/errors';
import { addDeployKey, deleteDeployKey, getDeployKey, listDeployKeys } from '../../../services/repo/deploy-keys';
import { repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';

// /repos/{owner}/{repo}/keys: the repository's deploy keys (repository admins).

export const createSchema = named('CreateKeyOption', z.object({
  title: z.string().min(1, 'Required'),
  key: z.string().min(1, 'Required'),
  read_only: z.boolean().nullish().transform((v) => v ?? undefined),
}));

const idParam = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

export async function list(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const page = pageOf(req);
  const keyId = Number(queryString(req, 'key_id') ?? 0);
  const q = { keyId: Number.isSafeInteger(keyId) && keyId > 0 ? keyId : undefined, fingerprint: queryString(req, 'fingerprint') || undefined };
  const found = await listDeployKeys(req.ctx.db, access, q, page);
  setPaginationHeaders(req, res, found.total, page);
  res.json(found.keys.map((k) => toApiDeployKey(req.ctx.config, access, k, req.ctx.doer)));
}

export async function get(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  res.json(toApiDeployKey(req.ctx.config, access, await getDeployKey(req.ctx.db, access, idParam(req)), req.ctx.doer));
}

export async function create(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const key = await addDeployKey(req.ctx.db, access, parseBody(createSchema, req.body));
  res.status(201).json(toApiDeployKey(req.ctx.config, access, key, req.ctx.doer));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteDeployKey(req.ctx.db, repoOf(req), idParam(req));
  res.status(204).end();
}
