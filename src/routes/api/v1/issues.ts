import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiIssue } from '../../../convert/issue';
import { toApiUser } from '../../../convert/user';
import { editIssue } from '../../../services/issue/issue-edit';
import { listRepoIssues, searchIssues } from '../../../services/issue/issue-list';
import type { IssueView } from '../../../services/issue/issue-views';
import { createIssue, deleteIssue, getIssue, listAssignees } from '../../../services/issue/issues';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool, queryInt, queryString } from '../../query';
import { extension, formatted, named, parseBody, shownAs } from '../../validate';

// Labels by id, as Gitea; hearth also takes their names.
const labelRef = shownAs({ type: 'integer', format: 'int64' }, z.union([z.number().int(), z.string()]));

export const createSchema = named('CreateIssueOption', z.object({
  title: z.string(),
  body: z.string().optional(),
  ref: z.string().optional(),
  assignee: z.string().optional(),
  assignees: z.array(z.string()).optional(),
  closed: z.boolean().optional(),
  due_date: formatted('date-time', z.string()).optional(),
  labels: z.array(labelRef).optional(),
  milestone: z.number().int().optional(),
}));

export const editSchema = named('EditIssueOption', z.object({
  title: z.string().optional(),
  body: z.string().optional(),
  ref: z.string().optional(),
  assignee: z.string().optional(),
  assignees: z.array(z.string()).optional(),
  due_date: formatted('date-time', z.string()).optional(),
  unset_due_date: z.boolean().optional(),
  milestone: z.number().int().optional(),
  state: z.string().optional(),
  content_version: extension(z.number().int()).optional(),
}));

export const indexOf = (req: Request) => Number(req.params.index);

/** Go decodes a JSON null into "not given": so do these options. */
export function withoutNulls(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...body };
  for (const [k, v] of Object.entries(copy)) if (v === null) delete copy[k];
  return copy;
}
const render = (req: Request, view: IssueView) => toApiIssue(req.ctx.config, view, req.ctx.doer);

const listQuery = (req: Request) => ({
  state: queryString(req, 'state'), type: queryString(req, 'type'), labels: queryString(req, 'labels'),
  milestones: queryString(req, 'milestones'), q: queryString(req, 'q'),
  since: queryString(req, 'since'), before: queryString(req, 'before'),
});

/** GET /repos/{owner}/{repo}/issues */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await listRepoIssues(req.ctx.db, repoOf(req), req.ctx.doer, {
    ...listQuery(req), page,
    created_by: queryString(req, 'created_by'), assigned_by: queryString(req, 'assigned_by'), mentioned_by: queryString(req, 'mentioned_by'),
  });
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => render(req, v)));
}

/** GET /repos/issues/search: Gitea's default page size here is the UI's, 20. */
export async function search(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  if (!(queryInt(req, 'limit') ?? 0)) Object.assign(page, { limit: 20, offset: (page.page - 1) * 20 });
  const { views, total } = await searchIssues(req.ctx.db, req.ctx.doer, !!req.ctx.scopes?.publicOnly, {
    ...listQuery(req), page,
    owner: queryString(req, 'owner'), team: queryString(req, 'team'), priority_repo_id: queryInt(req, 'priority_repo_id'),
    assigned: queryBool(req, 'assigned'), created: queryBool(req, 'created'), mentioned: queryBool(req, 'mentioned'),
    review_requested: queryBool(req, 'review_requested'), reviewed: queryBool(req, 'reviewed'),
  });
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => render(req, v)));
}

/** POST /repos/{owner}/{repo}/issues */
export async function create(req: Request, res: Response): Promise<void> {
  const view = await createIssue(req.ctx.db, repoOf(req), doerOf(req), parseBody(createSchema, withoutNulls(req.body)));
  res.status(201).json(render(req, view));
}

/** GET /repos/{owner}/{repo}/issues/{index} */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(render(req, await getIssue(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req))));
}

/** PATCH /repos/{owner}/{repo}/issues/{index}: 201, as Gitea. */
export async function edit(req: Request, res: Response): Promise<void> {
  const view = await editIssue(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), parseBody(editSchema, withoutNulls(req.body)));
  res.status(201).json(render(req, view));
}

/** DELETE /repos/{owner}/{repo}/issues/{index} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteIssue(req.ctx.db, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** GET /repos/{owner}/{repo}/assignees */
export async function assignees(req: Request, res: Response): Promise<void> {
  const users = await listAssignees(req.ctx.db, repoOf(req));
  res.json(users.map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}
