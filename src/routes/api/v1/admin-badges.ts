import type { Request, Response } from 'express';
import * as z from 'zod';
import { addBadgesTo, listBadgesOf, removeBadgesFrom } from '../../../services/admin/badges';
import { contextUserOf } from '../../context';
import { setTotalCount } from '../../pagination';
import { named, parseBody } from '../../validate';

// Site-admin operations on user badges (the guards see to the admin).

export const badgeSchema = named('UserBadgeOption', z.object({ badge_slugs: z.array(z.string()).nullish() }));

/** GET /admin/users/{username}/badges: all of them, with X-Total-Count as Gitea. */
export async function listBadges(req: Request, res: Response): Promise<void> {
  const badges = await listBadgesOf(req.ctx.db, contextUserOf(req));
  setTotalCount(res, badges.length);
  res.json(badges);
}

/** POST /admin/users/{username}/badges: 204. */
export async function addBadges(req: Request, res: Response): Promise<void> {
  const body = parseBody(badgeSchema, req.body);
  await addBadgesTo(req.ctx.db, contextUserOf(req), body.badge_slugs ?? []);
  res.status(204).end();
}

/** DELETE /admin/users/{username}/badges: 204. */
export async function removeBadges(req: Request, res: Response): Promise<void> {
  const body = parseBody(badgeSchema, req.body);
  await removeBadgesFrom(req.ctx.db, contextUserOf(req), body.badge_slugs ?? []);
  res.status(204).end();
}
