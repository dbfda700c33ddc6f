import type { Request, Response } from 'express';
import * as z from 'zod';
import { deleteRepoAvatar, uploadRepoAvatar } from '../../../services/repo/repo-avatar';
import { deleteAvatar, uploadAvatar } from '../../../services/user/avatars';
import { doerOf, repoOf } from '../../context';
import { named, parseBody } from '../../validate';

export const userAvatarSchema = named('UpdateUserAvatarOption', z.object({ image: z.string() }));
export const repoAvatarSchema = named('UpdateRepoAvatarOption', z.object({ image: z.string() }));

/** POST /user/avatar: 204. */
export async function updateUserAvatar(req: Request, res: Response): Promise<void> {
  const body = parseBody(userAvatarSchema, req.body);
  await uploadAvatar(req.ctx.h, doerOf(req), body.image);
  res.status(204).end();
}

/** DELETE /user/avatar: 204, back to the generated one. */
export async function deleteUserAvatar(req: Request, res: Response): Promise<void> {
  await deleteAvatar(req.ctx.h, doerOf(req));
  res.status(204).end();
}

/** POST /repos/{owner}/{repo}/avatar: 204. */
export async function updateRepoAvatar(req: Request, res: Response): Promise<void> {
  const body = parseBody(repoAvatarSchema, req.body);
  await uploadRepoAvatar(req.ctx.h, repoOf(req).repo, body.image);
  res.status(204).end();
}

/** DELETE /repos/{owner}/{repo}/avatar: 204. */
export async function deleteRepoAvatarHandler(req: Request, res: Response): Promise<void> {
  await deleteRepoAvatar(req.ctx.h, repoOf(req).repo);
  res.status(204).end();
}
