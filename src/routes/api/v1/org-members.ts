import type { Request, Response } from 'express';
import { toApiUser } from '../../../convert/user';
import { NotFoundError } from '../../../lib/errors';
import { checkMember, isPublicMemberOf, listMembers, removeMember, setPublicity } from '../../../services/org/org-members';
import { doerOf, orgOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';

const username = (req: Request) => String(req.params.username ?? '');

async function replyMembers(req: Request, res: Response, publicList: boolean): Promise<void> {
  const page = pageOf(req);
  const access = orgOf(req);
  const { users, total } = await listMembers(req.ctx.db, access, req.ctx.doer, page, publicList ? false : access.isMember);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

/** GET /orgs/{org}/members */
export const list = (req: Request, res: Response) => replyMembers(req, res, false);
/** GET /orgs/{org}/public_members */
export const listPublic = (req: Request, res: Response) => replyMembers(req, res, true);

/** GET /orgs/{org}/members/{username}: 204, 404, or 303 to the public check for outsiders. */
export async function check(req: Request, res: Response): Promise<void> {
  const access = orgOf(req);
  const { answer, target } = await checkMember(req.ctx.db, access, doerOf(req), username(req));
  if (answer === 'not-member') throw new NotFoundError();
  if (answer === 'member') {
    res.status(204).end();
    return;
  }
  // Gitea's AppSubURL + /api/v1/...: the root URL's path, not its host.
  const sub = new URL(req.ctx.config.server.root_url).pathname.replace(/\/$/, '');
  res.redirect(303, `${sub}/api/v1/orgs/${encodeURIComponent(access.org.name)}/public_members/${encodeURIComponent(target.name)}`);
}

/** GET /orgs/{org}/public_members/{username} */
export async function checkPublic(req: Request, res: Response): Promise<void> {
  if (!(await isPublicMemberOf(req.ctx.db, orgOf(req), username(req)))) throw new NotFoundError();
  res.status(204).end();
}

async function publicity(req: Request, res: Response, isPublic: boolean): Promise<void> {
  await setPublicity(req.ctx.db, orgOf(req), doerOf(req), username(req), isPublic);
  res.status(204).end();
}

/** PUT /orgs/{org}/public_members/{username} */
export const publicize = (req: Request, res: Response) => publicity(req, res, true);
/** DELETE /orgs/{org}/public_members/{username} */
export const conceal = (req: Request, res: Response) => publicity(req, res, false);

/** DELETE /orgs/{org}/members/{username} */
export async function remove(req: Request, res: Response): Promise<void> {
  await removeMember(req.ctx.db, orgOf(req).org, username(req));
  res.status(204).end();
}
