import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiGpgKey } from '../../../convert/gpg-key';
import { NotFoundError } from '../../../lib/errors';
import * as gpg from '../../../services/user/gpg-keys';
import { contextUserOf, doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { extension, named, parseBody } from '../../validate';

export const createSchema = named('CreateGPGKeyOption', z.object({
  armored_public_key: z.string().min(1, 'Required'),
  armored_signature: z.string().optional(),
}));

export const verifySchema = extension(named('VerifyGPGKeyOption', z.object({
  key_id: z.string().min(1, 'Required'),
  armored_signature: z.string().min(1, 'Required'),
})));

const idParam = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

const listing = (ownerOf: typeof doerOf) => async (req: Request, res: Response): Promise<void> => {
  const page = pageOf(req);
  const { keys, total } = await gpg.listGpgKeys(req.ctx.db, ownerOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(keys.map(toApiGpgKey));
};

export const listMine = listing(doerOf);
export const listOfUser = listing(contextUserOf);

export async function get(req: Request, res: Response): Promise<void> {
  res.json(toApiGpgKey(await gpg.getGpgKey(req.ctx.db, doerOf(req), idParam(req))));
}

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const key = await gpg.addGpgKey(req.ctx.db, doerOf(req), body.armored_public_key, body.armored_signature || undefined);
  res.status(201).json(toApiGpgKey(key));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await gpg.deleteGpgKey(req.ctx.db, doerOf(req), idParam(req));
  res.status(204).end();
}

/** GET /user/gpg_key_token: the token as plain text. */
export function token(req: Request, res: Response): void {
  res.type('text/plain').send(gpg.verificationToken(doerOf(req)));
}

export async function verify(req: Request, res: Response): Promise<void> {
  const body = parseBody(verifySchema, req.body);
  const key = await gpg.verifyGpgKey(req.ctx.db, doerOf(req), body.key_id, body.armored_signature);
  res.status(201).json(toApiGpgKey(key));
}
