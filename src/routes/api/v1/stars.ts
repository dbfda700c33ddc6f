import type { Request, RequestHandler, Response } from 'express';
import { toWatchInfo } from '../../../convert/repo-social';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { toApiUser } from '../../../convert/user';
import type { User } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import type { Mark } from '../../../models/stars';
import * as stars from '../../../services/repo/stars';
import { contextUserOf, doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';

/** Gitea's reqStarsEnabled guard. */
export const starsEnabled: RequestHandler = (req, _res, next) => {
  stars.assertStarsEnabled(req.ctx.config);
  next();
};

const markers = (kind: Mark) => async (req: Request, res: Response): Promise<void> => {
  const page = pageOf(req);
  const { users, total } = await stars.listMarkers(req.ctx.db, kind, repoOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
};

export const stargazers = markers('star');
export const subscribers = markers('watch');

const markedRepos = (kind: Mark, userOf: (req: Request) => User) => async (req: Request, res: Response): Promise<void> => {
  const page = pageOf(req);
  const { repos, total } = await stars.reposMarkedBy(req.ctx.db, kind, userOf(req), req.ctx.doer, page, !!req.ctx.scopes?.publicOnly);
  setPaginationHeaders(req, res, total, page);
  res.json(repos.map((r) => toApiRepoWithParent(req.ctx.config, r, req.ctx.doer)));
};

export const myStarred = markedRepos('star', doerOf);
export const userStarred = markedRepos('star', contextUserOf);
export const mySubscriptions = markedRepos('watch', doerOf);
export const userSubscriptions = markedRepos('watch', contextUserOf);

export async function isStarring(req: Request, res: Response): Promise<void> {
  if (!(await stars.isStarring(req.ctx.db, doerOf(req), repoOf(req)))) throw new NotFoundError();
  res.status(204).end();
}

export const star = (on: boolean) => async (req: Request, res: Response): Promise<void> => {
  await stars.setStar(req.ctx.db, doerOf(req), repoOf(req), on);
  res.status(204).end();
};

const watchInfo = (req: Request, since: number) => {
  const { owner, repo } = repoOf(req);
  return toWatchInfo(req.ctx.config, owner.name, repo.name, since);
};

export async function checkSubscription(req: Request, res: Response): Promise<void> {
  res.json(watchInfo(req, await stars.watchSince(req.ctx.db, doerOf(req), repoOf(req))));
}

export async function subscribe(req: Request, res: Response): Promise<void> {
  res.json(watchInfo(req, await stars.subscribe(req.ctx.db, doerOf(req), repoOf(req))));
}

export async function unsubscribe(req: Request, res: Response): Promise<void> {
  await stars.unsubscribe(req.ctx.db, doerOf(req), repoOf(req));
  res.status(204).end();
}
