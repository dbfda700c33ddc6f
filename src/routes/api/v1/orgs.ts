import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiOrg, toApiOrgPermissions } from '../../../convert/org';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import type { User } from '../../../db/schema';
import { deleteAvatar, uploadAvatar } from '../../../services/user/avatars';
import { createOrgRepository } from '../../../services/org/org-repos';
import {
  createOrganization, deleteOrganization, editOrganization, listAllOrgs, listOrgsOf, listVisibleOrgs, orgPermissionsOf,
  renameOrganization,
} from '../../../services/org/orgs';
import { searchVisibleRepos } from '../../../services/repo/repos';
import { contextUserOf, doerOf, orgOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';
import { createSchema as createRepoSchema } from './repos';

const visibility = z.enum(['public', 'limited', 'private']);
// Gitea's ValidUrl: empty, or an http(s) URL.
const website = z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(255)]);

export const createSchema = named('CreateOrgOption', z.object({
  username: z.string(),
  full_name: z.string().max(100).optional(),
  email: z.string().max(255).optional(),
  description: z.string().max(255).optional(),
  website: website.optional(),
  location: z.string().max(50).optional(),
  visibility: z.union([z.literal(''), visibility]).optional(),
  repo_admin_change_team_access: z.boolean().optional(),
}));

export const editSchema = named('EditOrgOption', z.object({
  full_name: z.string().max(100).optional(),
  email: z.string().max(255).optional(),
  description: z.string().max(255).optional(),
  website: website.optional(),
  location: z.string().max(50).optional(),
  visibility: z.union([z.literal(''), visibility]).optional(),
  repo_admin_change_team_access: z.boolean().optional(),
}));

export const renameSchema = named('RenameOrgOption', z.object({ new_name: z.string() }));
export const avatarSchema = named('UpdateUserAvatarOption', z.object({ image: z.string() }));

async function createFor(req: Request, res: Response, creator: User): Promise<void> {
  const { visibility: vis, ...body } = parseBody(createSchema, req.body);
  const org = await createOrganization(req.ctx.db, creator, { ...body, visibility: vis || undefined });
  res.status(201).json(toApiOrg(req.ctx.config, org));
}

/** POST /orgs */
export const create = (req: Request, res: Response) => createFor(req, res, doerOf(req));
/** POST /admin/users/{username}/orgs: a site admin creates an organization owned by the user. */
export const adminCreate = (req: Request, res: Response) => createFor(req, res, contextUserOf(req));

function replyOrgs(req: Request, res: Response, page: ReturnType<typeof pageOf>, r: { orgs: User[]; total: number }): void {
  setPaginationHeaders(req, res, r.total, page);
  res.json(r.orgs.map((o) => toApiOrg(req.ctx.config, o)));
}

/** GET /orgs */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  replyOrgs(req, res, page, await listVisibleOrgs(req.ctx.db, req.ctx.doer, !!req.ctx.scopes?.publicOnly, page));
}

/** GET /admin/orgs */
export async function adminList(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  replyOrgs(req, res, page, await listAllOrgs(req.ctx.db, page));
}

async function listOf(req: Request, res: Response, user: User): Promise<void> {
  const page = pageOf(req);
  replyOrgs(req, res, page, await listOrgsOf(req.ctx.db, user, req.ctx.doer, !!req.ctx.scopes?.publicOnly, page));
}

/** GET /user/orgs */
export const listMine = (req: Request, res: Response) => listOf(req, res, doerOf(req));
/** GET /users/{username}/orgs */
export const listOfUser = (req: Request, res: Response) => listOf(req, res, contextUserOf(req));

/** GET /users/{username}/orgs/{org}/permissions */
export async function permissions(req: Request, res: Response): Promise<void> {
  const p = await orgPermissionsOf(req.ctx.db, String(req.params.org ?? ''), req.ctx.doer, contextUserOf(req));
  res.json(toApiOrgPermissions(p.mode, p.canCreate));
}

/** GET /orgs/{org}: the email only to signed-in callers, as Gitea. */
export function get(req: Request, res: Response): void {
  res.json(toApiOrg(req.ctx.config, orgOf(req).org, { hideEmail: !req.ctx.doer }));
}

/** PATCH /orgs/{org} */
export async function edit(req: Request, res: Response): Promise<void> {
  const { visibility: vis, ...body } = parseBody(editSchema, req.body);
  const org = await editOrganization(req.ctx.db, orgOf(req).org, { ...body, visibility: vis || undefined });
  res.json(toApiOrg(req.ctx.config, org));
}

/** DELETE /orgs/{org} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteOrganization(req.ctx.h, orgOf(req).org);
  res.status(204).end();
}

/** POST /orgs/{org}/rename */
export async function rename(req: Request, res: Response): Promise<void> {
  const body = parseBody(renameSchema, req.body);
  await renameOrganization(req.ctx.h, orgOf(req).org, body.new_name);
  res.status(204).end();
}

/** POST /orgs/{org}/avatar */
export async function updateAvatar(req: Request, res: Response): Promise<void> {
  const body = parseBody(avatarSchema, req.body);
  await uploadAvatar(req.ctx.h, orgOf(req).org, body.image);
  res.status(204).end();
}

/** DELETE /orgs/{org}/avatar */
export async function removeAvatar(req: Request, res: Response): Promise<void> {
  await deleteAvatar(req.ctx.h, orgOf(req).org);
  res.status(204).end();
}

/** POST /orgs/{org}/repos: exactly 201 with the new Repository. */
export async function createRepo(req: Request, res: Response): Promise<void> {
  const body = parseBody(createRepoSchema, req.body);
  const created = await createOrgRepository(req.ctx.h, doerOf(req), orgOf(req), {
    name: body.name, description: body.description, private: body.private, template: body.template,
    autoInit: body.auto_init, readme: body.readme, gitignores: body.gitignores, license: body.license,
    issueLabels: body.issue_labels, defaultBranch: body.default_branch, objectFormat: body.object_format_name,
  });
  res.status(201).json(toApiRepoWithParent(req.ctx.config, created, req.ctx.doer));
}

/** GET /orgs/{org}/repos: what the caller may see, oldest first (Gitea's listUserRepos). */
export async function listRepos(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await searchVisibleRepos(req.ctx.db, {
    viewer: req.ctx.doer, publicOnly: !!req.ctx.scopes?.publicOnly, ownerId: orgOf(req).org.id,
    sort: 'id', order: 'asc', offset: page.offset, limit: page.limit,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => toApiRepoWithParent(req.ctx.config, v, req.ctx.doer)));
}
