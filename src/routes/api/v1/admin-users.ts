import type { Request, Response } from 'express';
import { emailDomainWarning } from '../../../services/user/email-domains';
import * as z from 'zod';
import { toApiUser } from '../../../convert/user';
import { adminDeleteUser, adminEditUser, adminSearchUsers } from '../../../services/user/admin-users';
import { createUser, renameUser } from '../../../services/user/users';
import { contextUserOf, doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool } from '../../query';
import { formatted, named, parseBody } from '../../validate';

const visibility = z.enum(['public', 'limited', 'private']);

export const createSchema = named('CreateUserOption', z.object({
  username: z.string(),
  email: formatted('email', z.string()),
  password: z.string().optional(),
  full_name: z.string().max(100).optional(),
  login_name: z.string().optional(),
  source_id: z.number().int().optional(),
  must_change_password: z.boolean().optional(),
  restricted: z.boolean().optional(),
  send_notify: z.boolean().optional(),
  visibility: z.union([z.literal(''), visibility]).optional(),
  created_at: z.iso.datetime({ offset: true }).optional(),
}));

export const editSchema = named('EditUserOption', z.object({
  email: formatted('email', z.string()).optional(),
  full_name: z.string().max(100).optional(),
  login_name: z.string().optional(),
  source_id: z.number().int().optional(),
  password: z.string().optional(),
  must_change_password: z.boolean().optional(),
  // Gitea's OmitEmpty;ValidUrl: empty, or an http(s) URL.
  website: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(255)]).optional(),
  location: z.string().max(50).optional(),
  description: z.string().max(255).optional(),
  active: z.boolean().optional(),
  admin: z.boolean().optional(),
  allow_git_hook: z.boolean().optional(),
  allow_import_local: z.boolean().optional(),
  allow_create_organization: z.boolean().optional(),
  prohibit_login: z.boolean().optional(),
  restricted: z.boolean().optional(),
  max_repo_creation: z.number().int().optional(),
  visibility: visibility.optional(),
}));

export const renameSchema = named('RenameUserOption', z.object({ new_username: z.string() }));

export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const sourceId = Number.parseInt(String(req.query.source_id ?? ''), 10);
  const { users, total } = await adminSearchUsers(req.ctx.db, page, {
    sourceId: Number.isFinite(sourceId) ? sourceId : undefined,
    loginName: typeof req.query.login_name === 'string' ? req.query.login_name : undefined,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

/** An admin may give an address outside the e-mail domain lists; the answer says so, as Gitea's. */
function warnEmailDomain(req: Request, res: Response, email: string): void {
  const warning = emailDomainWarning(req.ctx.config, email);
  if (warning) res.append('X-Gitea-Warning', warning);
}

export async function create(req: Request, res: Response): Promise<void> {
  const body = parseBody(createSchema, req.body);
  const user = await createUser(req.ctx.db, req.ctx.config, {
    username: body.username,
    email: body.email,
    password: body.password,
    fullName: body.full_name,
    loginName: body.login_name,
    sourceId: body.source_id,
    // Gitea's default: a user created by an admin changes the password at first sign-in.
    mustChangePassword: body.must_change_password ?? true,
    restricted: body.restricted,
    visibility: body.visibility || undefined,
    createdUnix: body.created_at ? Math.floor(Date.parse(body.created_at) / 1000) : undefined,
  });
  warnEmailDomain(req, res, user.email);
  res.status(201).json(toApiUser(req.ctx.config, user, req.ctx.doer));
}

export async function edit(req: Request, res: Response): Promise<void> {
  const body = parseBody(editSchema, req.body);
  const user = await adminEditUser(req.ctx.h, contextUserOf(req), body);
  if (body.email) warnEmailDomain(req, res, user.email);
  res.json(toApiUser(req.ctx.config, user, req.ctx.doer));
}

export async function remove(req: Request, res: Response): Promise<void> {
  await adminDeleteUser(req.ctx.h, doerOf(req), contextUserOf(req), queryBool(req, 'purge') ?? false);
  res.status(204).end();
}

export async function rename(req: Request, res: Response): Promise<void> {
  const body = parseBody(renameSchema, req.body);
  await renameUser(req.ctx.h, contextUserOf(req), body.new_username);
  res.status(204).end();
}
