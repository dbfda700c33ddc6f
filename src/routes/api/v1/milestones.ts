import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiMilestone } from '../../../convert/milestone';
import {
  createRepoMilestone, deleteRepoMilestone, editRepoMilestone, getRepoMilestone, listRepoMilestones,
} from '../../../services/issue/milestones';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { formatted, named, parseBody } from '../../validate';
import { withoutNulls } from './issues';

export const createSchema = named('CreateMilestoneOption', z.object({
  title: z.string(),
  description: z.string().optional(),
  due_on: formatted('date-time', z.string()).optional(),
  state: z.enum(['open', 'closed']).optional(),
}));
export const editSchema = named('EditMilestoneOption', z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  due_on: formatted('date-time', z.string()).optional(),
  state: z.string().optional(),
}));

const id = (req: Request) => String(req.params.id ?? '');

/** GET /repos/{owner}/{repo}/milestones (`state` open by default, closed or all; `name` filter). */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { milestones, total } = await listRepoMilestones(req.ctx.db, repoOf(req), {
    state: queryString(req, 'state'), name: queryString(req, 'name'), offset: page.offset, limit: page.limit,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(milestones.map(toApiMilestone));
}

/** POST /repos/{owner}/{repo}/milestones */
export async function create(req: Request, res: Response): Promise<void> {
  const m = await createRepoMilestone(req.ctx.db, repoOf(req), doerOf(req), parseBody(createSchema, withoutNulls(req.body)));
  res.status(201).json(toApiMilestone(m));
}

/** GET /repos/{owner}/{repo}/milestones/{id}: an id, or a name when no milestone has that id. */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(toApiMilestone(await getRepoMilestone(req.ctx.db, repoOf(req), id(req))));
}

/** PATCH /repos/{owner}/{repo}/milestones/{id} */
export async function edit(req: Request, res: Response): Promise<void> {
  const m = await editRepoMilestone(req.ctx.db, repoOf(req), doerOf(req), id(req), parseBody(editSchema, withoutNulls(req.body)));
  res.json(toApiMilestone(m));
}

/** DELETE /repos/{owner}/{repo}/milestones/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteRepoMilestone(req.ctx.db, repoOf(req), doerOf(req), id(req));
  res.status(204).end();
}
