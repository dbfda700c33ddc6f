import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiToken } from '../../../convert/token';
import { createToken, deleteToken, listTokens } from '../../../services/user/tokens';
import { contextUserOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';

export const createSchema = named('CreateAccessTokenOption', z.object({ name: z.string(), scopes: z.array(z.string()).default([]) }));

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { tokens, total } = await listTokens(req.ctx.db, contextUserOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(tokens.map((t) => toApiToken(t)));
}

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const { row, token } = await createToken(req.ctx.db, contextUserOf(req), body.name, body.scopes);
  res.status(201).json(toApiToken(row, token));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteToken(req.ctx.db, contextUserOf(req), String(req.params.token));
  res.status(204).end();
}
