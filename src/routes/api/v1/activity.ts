import type { Request, Response } from 'express';
import { toApiActivity } from '../../../convert/activity';
import * as activity from '../../../services/activity/activity';
import type { Feed, FeedOptions } from '../../../services/activity/activity';
import { contextUserOf, orgOf, repoOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { queryBool, queryString } from '../../query';

function options(req: Request): FeedOptions {
  const { offset, limit } = pageOf(req);
  return { date: queryString(req, 'date'), offset, limit };
}

/** Gitea sets only X-Total-Count on feeds. */
function reply(req: Request, res: Response, feed: Feed): void {
  setTotalCount(res, feed.total);
  res.json(feed.items.map((item) => toApiActivity(req.ctx.config, item, req.ctx.doer)));
}

export async function userFeeds(req: Request, res: Response): Promise<void> {
  const only = queryBool(req, 'only-performed-by') ?? false;
  reply(req, res, await activity.userFeed(req.ctx.db, contextUserOf(req), req.ctx.doer, only, options(req)));
}

export async function orgFeeds(req: Request, res: Response): Promise<void> {
  const { org, isMember } = orgOf(req);
  reply(req, res, await activity.orgFeed(req.ctx.db, org, req.ctx.doer, isMember, options(req)));
}

export async function repoFeeds(req: Request, res: Response): Promise<void> {
  reply(req, res, await activity.repoFeed(req.ctx.db, repoOf(req).repo, req.ctx.doer, options(req)));
}

export async function heatmap(req: Request, res: Response): Promise<void> {
  res.json(await activity.heatmap(req.ctx.db, contextUserOf(req), req.ctx.doer));
}
