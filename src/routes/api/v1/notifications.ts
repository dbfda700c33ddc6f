import type { Request, Response } from 'express';
import { toApiNotification } from '../../../convert/notification';
import {
  countNew, getThread, listThreads, markThread, markThreads, type ListQuery, type MarkQuery, type NotificationView,
} from '../../../services/notification/notifications';
import { doerOf, repoOf } from '../../context';
import { pageOf, setTotalCount } from '../../pagination';
import { queryBool, queryString } from '../../query';

/** A repeatable parameter (`?k=a&k=b`), also as `k[]`, as Gitea's FormStrings. */
function queryList(req: Request, key: string): string[] {
  const values = [req.query[key], req.query[`${key}[]`]].flat();
  return values.filter((v): v is string => typeof v === 'string' && v !== '');
}

const listQuery = (req: Request): ListQuery => ({
  all: queryBool(req, 'all'), statusTypes: queryList(req, 'status-types'), subjectTypes: queryList(req, 'subject-type'),
  since: queryString(req, 'since'), before: queryString(req, 'before'),
});

const markQuery = (req: Request): MarkQuery => ({
  lastReadAt: queryString(req, 'last_read_at'), all: queryBool(req, 'all'),
  statusTypes: queryList(req, 'status-types'), toStatus: queryString(req, 'to-status'),
});

const render = (req: Request, v: NotificationView) => toApiNotification(req.ctx.config, v, req.ctx.doer);

/**
 * 205 with a JSON body, as Gitea sends it: express drops bodies of 205 answers, so this writes
 * the body itself (fetch-based clients ignore it; Go clients such as the SDK read it).
 */
function resetContent(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  res.status(205).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

async function list(req: Request, res: Response, repoId?: number): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await listThreads(req.ctx.db, doerOf(req), listQuery(req), page, repoId);
  setTotalCount(res, total); // Gitea sends no Link header here
  res.json(views.map((v) => render(req, v)));
}

/** GET /notifications */
export const listMine = (req: Request, res: Response) => list(req, res);

/** GET /repos/{owner}/{repo}/notifications */
export const listRepo = (req: Request, res: Response) => list(req, res, repoOf(req).repo.id);

/** PUT /notifications: 205 with the changed threads, as Gitea. */
export async function markMine(req: Request, res: Response): Promise<void> {
  const views = await markThreads(req.ctx.db, doerOf(req), markQuery(req));
  resetContent(res, views.map((v) => render(req, v)));
}

/** PUT /repos/{owner}/{repo}/notifications */
export async function markRepo(req: Request, res: Response): Promise<void> {
  const views = await markThreads(req.ctx.db, doerOf(req), markQuery(req), repoOf(req).repo.id);
  resetContent(res, views.map((v) => render(req, v)));
}

/** GET /notifications/new */
export async function newCount(req: Request, res: Response): Promise<void> {
  res.json({ new: await countNew(req.ctx.db, doerOf(req)) });
}

/** GET /notifications/threads/{id} */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(render(req, await getThread(req.ctx.db, doerOf(req), Number(req.params.id))));
}

/** PATCH /notifications/threads/{id} */
export async function mark(req: Request, res: Response): Promise<void> {
  const view = await markThread(req.ctx.db, doerOf(req), Number(req.params.id), queryString(req, 'to-status'));
  resetContent(res, render(req, view));
}
