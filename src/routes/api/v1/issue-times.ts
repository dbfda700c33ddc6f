import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiStopwatch, toApiTrackedTime } from '../../../convert/tracked-time';
import { isoTime, nowUnix } from '../../../lib/time';
import { setIssueDeadline } from '../../../services/issue/issue-deadline';
import { cancelStopwatch, listMyStopwatches, startStopwatch, stopStopwatch } from '../../../services/issue/stopwatches';
import {
  addTime, deleteTime, listIssueTimes, listMyTimes, listRepoTimes, listUserRepoTimes, resetIssueTimes, type TimeList,
} from '../../../services/issue/tracked-times';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { formatted, named, parseBody } from '../../validate';
import { indexOf, withoutNulls } from './issues';

/** AddTimeOption: `time` (seconds) is required and, as Gitea's binding, not zero. */
export const addTimeSchema = named('AddTimeOption', z.object({
  time: z.number().int().refine((t) => t !== 0, 'Required'),
  created: formatted('date-time', z.string()).optional(),
  user_name: z.string().optional(),
}));
export const deadlineSchema = named('EditDeadlineOption', z.object({ due_date: formatted('date-time', z.string()).nullable().optional() }));

const filter = (req: Request) => ({ user: queryString(req, 'user'), since: queryString(req, 'since'), before: queryString(req, 'before') });

function sendTimes(req: Request, res: Response, list: TimeList, page: ReturnType<typeof pageOf>): void {
  setPaginationHeaders(req, res, list.total, page);
  res.json(list.views.map((v) => toApiTrackedTime(req.ctx.config, v, req.ctx.doer)));
}

/** POST .../issues/{index}/stopwatch/start */
export async function start(req: Request, res: Response): Promise<void> {
  await startStopwatch(req.ctx.h, repoOf(req), doerOf(req), indexOf(req));
  res.status(201).end();
}

/** POST .../issues/{index}/stopwatch/stop */
export async function stop(req: Request, res: Response): Promise<void> {
  await stopStopwatch(req.ctx.h, repoOf(req), doerOf(req), indexOf(req));
  res.status(201).end();
}

/** DELETE .../issues/{index}/stopwatch/delete */
export async function cancel(req: Request, res: Response): Promise<void> {
  await cancelStopwatch(req.ctx.h, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** GET /user/stopwatches */
export async function myStopwatches(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await listMyStopwatches(req.ctx.db, doerOf(req), page);
  setPaginationHeaders(req, res, total, page);
  const now = nowUnix();
  res.json(views.map((v) => toApiStopwatch(v, now)));
}

/** GET .../issues/{index}/times */
export async function issueTimes(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  sendTimes(req, res, await listIssueTimes(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), filter(req), page), page);
}

/** GET /repos/{owner}/{repo}/times */
export async function repoTimes(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  sendTimes(req, res, await listRepoTimes(req.ctx.h, repoOf(req), doerOf(req), filter(req), page), page);
}

/** GET /repos/{owner}/{repo}/times/{user} (deprecated by Gitea, still served) */
export async function userRepoTimes(req: Request, res: Response): Promise<void> {
  const views = await listUserRepoTimes(req.ctx.h, repoOf(req), doerOf(req), String(req.params.user));
  res.json(views.map((v) => toApiTrackedTime(req.ctx.config, v, req.ctx.doer)));
}

/** GET /user/times */
export async function myTimes(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  sendTimes(req, res, await listMyTimes(req.ctx.db, doerOf(req), filter(req), page), page);
}

/** POST .../issues/{index}/times: 200, as Gitea. */
export async function add(req: Request, res: Response): Promise<void> {
  const input = parseBody(addTimeSchema, withoutNulls(req.body));
  const view = await addTime(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), input);
  res.json(toApiTrackedTime(req.ctx.config, view, req.ctx.doer));
}

/** DELETE .../issues/{index}/times */
export async function reset(req: Request, res: Response): Promise<void> {
  await resetIssueTimes(req.ctx.h, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** DELETE .../issues/{index}/times/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteTime(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), Number(req.params.id));
  res.status(204).end();
}

/** POST .../issues/{index}/deadline: 201 IssueDeadline. */
export async function deadline(req: Request, res: Response): Promise<void> {
  const { due_date } = parseBody(deadlineSchema, req.body ?? {});
  const unix = await setIssueDeadline(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), due_date ?? null);
  res.status(201).json({ due_date: unix ? isoTime(unix) : null });
}
