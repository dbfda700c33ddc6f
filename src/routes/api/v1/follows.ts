import type { Request, Response } from 'express';
import { toApiUser } from '../../../convert/user';
import type { User } from '../../../db/schema';
import * as follows from '../../../services/user/follows';
import { contextUserOf, doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';

type UserOf = (req: Request) => User;

const listing = (list: typeof follows.listFollowers, userOf: UserOf) => async (req: Request, res: Response): Promise<void> => {
  const page = pageOf(req);
  const { users, total } = await list(req.ctx.db, userOf(req), req.ctx.doer, page);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
};

export const myFollowers = listing(follows.listFollowers, doerOf);
export const myFollowing = listing(follows.listFollowing, doerOf);
export const userFollowers = listing(follows.listFollowers, contextUserOf);
export const userFollowing = listing(follows.listFollowing, contextUserOf);

/** GET /user/following/{username}. */
export async function checkMine(req: Request, res: Response): Promise<void> {
  await follows.assertFollowing(req.ctx.db, doerOf(req), contextUserOf(req));
  res.status(204).end();
}

/** GET /users/{username}/following/{target}. */
export async function checkUser(req: Request, res: Response): Promise<void> {
  await follows.assertFollowingByName(req.ctx.db, contextUserOf(req), String(req.params.target ?? ''), req.ctx.doer);
  res.status(204).end();
}

export async function follow(req: Request, res: Response): Promise<void> {
  await follows.followUser(req.ctx.db, doerOf(req), contextUserOf(req));
  res.status(204).end();
}

export async function unfollow(req: Request, res: Response): Promise<void> {
  await follows.unfollowUser(req.ctx.db, doerOf(req), contextUserOf(req));
  res.status(204).end();
}
