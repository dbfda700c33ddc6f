import type { Request, Response } from 'express';
import * as z from 'zod';
import { toCollaboratorPermission } from '../../../convert/repo-social';
import { toApiUser } from '../../../convert/user';
import { NotFoundError } from '../../../lib/errors';
import * as collaborators from '../../../services/repo/collaborators';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';

const name = (req: Request) => String(req.params.collaborator ?? '');

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { users, total } = await collaborators.listRepoCollaborators(req.ctx.db, repoOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

export async function check(req: Request, res: Response): Promise<void> {
  if (!(await collaborators.isRepoCollaborator(req.ctx.db, repoOf(req), name(req)))) throw new NotFoundError();
  res.status(204).end();
}

export const addSchema = named('AddCollaboratorOption', z.object({ permission: z.enum(['read', 'write', 'admin']).optional() }));

export async function add(req: Request, res: Response): Promise<void> {
  const body = parseBody(addSchema, req.body);
  await collaborators.addCollaborator(req.ctx.db, repoOf(req), name(req), body.permission);
  res.status(204).end();
}

export async function remove(req: Request, res: Response): Promise<void> {
  await collaborators.removeCollaborator(req.ctx.db, repoOf(req), name(req));
  res.status(204).end();
}

export async function permission(req: Request, res: Response): Promise<void> {
  const { user, mode } = await collaborators.collaboratorPermission(req.ctx.db, repoOf(req), doerOf(req), name(req));
  res.json(toCollaboratorPermission(req.ctx.config, user, mode, req.ctx.doer));
}
