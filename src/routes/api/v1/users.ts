import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiUser, toApiUserSettings } from '../../../convert/user';
import { searchVisibleUsers, updateUserSettings } from '../../../services/user/user-settings';
import { contextUserOf, doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryInt } from '../../query';
import { named, parseBody } from '../../validate';

export function getCurrent(req: Request, res: Response): void {
  res.json(toApiUser(req.ctx.config, doerOf(req), req.ctx.doer));
}

export function getUser(req: Request, res: Response): void {
  res.json(toApiUser(req.ctx.config, contextUserOf(req), req.ctx.doer));
}

export async function search(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { users, total } = await searchVisibleUsers(req.ctx.db, {
    viewer: req.ctx.doer,
    publicOnly: !!req.ctx.scopes?.publicOnly,
    keyword: typeof req.query.q === 'string' ? req.query.q.trim() : '',
    uid: queryInt(req, 'uid') ?? 0,
    page,
  });
  setPaginationHeaders(req, res, total, page);
  res.json({ ok: true, data: users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)) });
}

export function getSettings(req: Request, res: Response): void {
  res.json(toApiUserSettings(doerOf(req)));
}

export const settingsSchema = named('UserSettingsOptions', z.object({
  full_name: z.string().max(100).optional(),
  // Gitea's ValidUrl: http and https only (no javascript:, mailto:...).
  website: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(255)]).optional(),
  description: z.string().max(255).optional(),
  location: z.string().max(50).optional(),
  language: z.string().max(10).optional(),
  theme: z.string().max(30).optional(),
  diff_view_style: z.enum(['', 'unified', 'split']).optional(),
  hide_email: z.boolean().optional(),
  hide_activity: z.boolean().optional(),
}));

export async function patchSettings(req: Request, res: Response): Promise<void> {
  const body = parseBody(settingsSchema, req.body);
  const user = await updateUserSettings(req.ctx.db, doerOf(req), body);
  res.json(toApiUserSettings(user));
}
