import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiComment } from '../../../convert/comment';
import {
  createComment, deleteComment, editComment, getComment, listIssueComments, listRepoComments,
} from '../../../services/issue/comments';
import type { CommentView } from '../../../services/issue/issue-views';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';
import { indexOf } from './issues';

/** CreateIssueCommentOption and EditIssueCommentOption: `body` is required. */
const commentBody = { body: z.string().refine((b) => b.trim() !== '', 'Required') };
export const createSchema = named('CreateIssueCommentOption', z.object(commentBody));
export const editSchema = named('EditIssueCommentOption', z.object(commentBody));

const id = (req: Request) => Number(req.params.id);
const range = (req: Request) => ({ since: queryString(req, 'since'), before: queryString(req, 'before') });
const render = (req: Request, view: CommentView) => toApiComment(req.ctx.config, view, req.ctx.doer);

/** GET /repos/{owner}/{repo}/issues/{index}/comments */
export async function list(req: Request, res: Response): Promise<void> {
  const { views, total } = await listIssueComments(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req), range(req));
  setTotalCount(res, total);
  res.json(views.map((v) => render(req, v)));
}

/** GET /repos/{owner}/{repo}/issues/comments */
export async function listRepo(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await listRepoComments(req.ctx.db, repoOf(req), req.ctx.doer, range(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => render(req, v)));
}

/** POST /repos/{owner}/{repo}/issues/{index}/comments */
export async function create(req: Request, res: Response): Promise<void> {
  const { body } = parseBody(createSchema, req.body);
  res.status(201).json(render(req, await createComment(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), body)));
}

/** GET /repos/{owner}/{repo}/issues/comments/{id}: 204 for an event comment, as Gitea. */
export async function get(req: Request, res: Response): Promise<void> {
  const view = await getComment(req.ctx.db, repoOf(req), req.ctx.doer, id(req));
  if (!view) res.status(204).end();
  else res.json(render(req, view));
}

/** PATCH /repos/{owner}/{repo}/issues/comments/{id} (and the deprecated .../issues/{index}/comments/{id}). */
export async function edit(req: Request, res: Response): Promise<void> {
  const { body } = parseBody(editSchema, req.body);
  const view = await editComment(req.ctx.db, repoOf(req), doerOf(req), id(req), body);
  if (!view) res.status(204).end();
  else res.json(render(req, view));
}

/** DELETE /repos/{owner}/{repo}/issues/comments/{id} (and the deprecated form). */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteComment(req.ctx.db, repoOf(req), doerOf(req), id(req));
  res.status(204).end();
}
