import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiLabel } from '../../../convert/label';
import { createLabel, deleteLabel, editLabel, getLabel, listScopedLabels, type LabelScope } from '../../../services/issue/labels';
import { orgOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';

export const createSchema = named('CreateLabelOption', z.object({
  name: z.string(),
  color: z.string(),
  description: z.string().optional(),
  exclusive: z.boolean().optional(),
  is_archived: z.boolean().optional(),
}));
export const editSchema = named('EditLabelOption', createSchema.partial());

const scopeOf = (req: Request): LabelScope => ({ orgId: orgOf(req).org.id });
const ownerOf = (req: Request) => ({ org: orgOf(req).org.name });
const id = (req: Request) => String(req.params.id ?? '');

/** GET /orgs/{org}/labels (`sort`: reversealphabetically, leastissues, mostissues; else by name). */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { labels, total } = await listScopedLabels(req.ctx.db, scopeOf(req), queryString(req, 'sort'), page);
  setPaginationHeaders(req, res, total, page);
  res.json(labels.map((l) => toApiLabel(req.ctx.config, l, ownerOf(req))));
}

/** POST /orgs/{org}/labels */
export async function create(req: Request, res: Response): Promise<void> {
  const label = await createLabel(req.ctx.db, scopeOf(req), parseBody(createSchema, req.body));
  res.status(201).json(toApiLabel(req.ctx.config, label, ownerOf(req)));
}

/** GET /orgs/{org}/labels/{id}: by id, or by name when `{id}` is not a number. */
export async function get(req: Request, res: Response): Promise<void> {
  const label = await getLabel(req.ctx.db, scopeOf(req), id(req));
  res.json(toApiLabel(req.ctx.config, label, ownerOf(req)));
}

/** PATCH /orgs/{org}/labels/{id} */
export async function edit(req: Request, res: Response): Promise<void> {
  const label = await editLabel(req.ctx.db, scopeOf(req), id(req), parseBody(editSchema, req.body));
  res.json(toApiLabel(req.ctx.config, label, ownerOf(req)));
}

/** DELETE /orgs/{org}/labels/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteLabel(req.ctx.db, scopeOf(req), id(req));
  res.status(204).end();
}
