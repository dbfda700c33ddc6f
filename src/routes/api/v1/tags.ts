import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiTag, toApiTagProtection } from '../../../convert/tag';
import { NotFoundError } from '../../../lib/errors';
import {
  createTagProtection, deleteTagProtection, editTagProtection, getTagProtection, listTagProtections,
} from '../../../services/repo/tag-protection';
import { createTag, deleteTag, getTag, listTags } from '../../../services/repo/tags';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { pathParam } from '../../table';
import { named, parseBody } from '../../validate';

const tagParam = (req: Request) => pathParam(req, 'tag');

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const access = repoOf(req);
  const { items, total } = await listTags(req.ctx.config, access, page);
  setPaginationHeaders(req, res, total, page);
  res.json(items.map((t) => toApiTag(req.ctx.config, access, t)));
}

export async function get(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  res.json(toApiTag(req.ctx.config, access, await getTag(req.ctx.config, access, tagParam(req))));
}

export const createSchema = named('CreateTagOption', z.object({
  tag_name: z.string().min(1).max(255),
  target: z.string().nullish(),
  message: z.string().nullish(),
}));

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const access = repoOf(req);
  const tag = await createTag(req.ctx.h, access, doerOf(req), {
    name: body.tag_name, target: body.target ?? undefined, message: body.message ?? undefined,
  });
  res.status(201).json(toApiTag(req.ctx.config, access, tag));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await deleteTag(req.ctx.h, repoOf(req), doerOf(req), tagParam(req));
  res.status(204).end();
}

// Tag protections

const protectionFields = {
  name_pattern: z.string().nullish(),
  whitelist_usernames: z.array(z.string()).nullish(),
  whitelist_teams: z.array(z.string()).nullish(),
};
export const createProtectionSchema = named('CreateTagProtectionOption', z.object(protectionFields));
export const editProtectionSchema = named('EditTagProtectionOption', z.object(protectionFields));

/** A non-numeric id names no protection: 404, as Gitea's PathParamInt64 gives 0. */
function idParam(req: Request): number {
  const raw = String(req.params.id);
  if (!/^\d+$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}

export async function listProtections(req: Request, res: Response): Promise<void> {
  res.json((await listTagProtections(req.ctx.db, repoOf(req))).map(toApiTagProtection));
}

export async function getProtection(req: Request, res: Response): Promise<void> {
  res.json(toApiTagProtection(await getTagProtection(req.ctx.db, repoOf(req), idParam(req))));
}

export async function createProtection(req: Request, res: Response): Promise<void> {
  const body = parseBody(createProtectionSchema, req.body);
  res.status(201).json(toApiTagProtection(await createTagProtection(req.ctx.db, repoOf(req), body)));
}

export async function editProtection(req: Request, res: Response): Promise<void> {
  const body = parseBody(editProtectionSchema, req.body);
  res.json(toApiTagProtection(await editTagProtection(req.ctx.db, repoOf(req), idParam(req), body)));
}

export async function removeProtection(req: Request, res: Response): Promise<void> {
  await deleteTagProtection(req.ctx.db, repoOf(req), idParam(req));
  res.status(204).end();
}
