import type { Request, Response } from 'express';
import { toApiTimelineComment } from '../../../convert/timeline';
import { issueTimeline } from '../../../services/issue/issue-timeline';
import { repoOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { indexOf } from './issues';

/**
 * GET .../issues/{index}/timeline: as Gitea, paged only when `page` is given, and
 * X-Total-Count is the number of entries answered.
 */
export async function timeline(req: Request, res: Response): Promise<void> {
  const page = queryString(req, 'page') ? pageOf(req) : undefined;
  const views = await issueTimeline(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req),
    { since: queryString(req, 'since'), before: queryString(req, 'before') }, page);
  setTotalCount(res, views.length);
  res.json(views.map((v) => toApiTimelineComment(req.ctx.config, v, req.ctx.doer)));
}
