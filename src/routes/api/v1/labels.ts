import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiLabel } from '../../../convert/label';
import { toIssueLabel } from '../../../convert/issue';
import {
  addIssueLabels, clearIssueLabels, listIssueLabels, removeIssueLabelById, replaceIssueLabels, type IssueLabelsView,
} from '../../../services/issue/issue-labels';
import { createRepoLabel, deleteRepoLabel, editRepoLabel, getRepoLabel, listRepoLabels } from '../../../services/issue/repo-labels';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { named, parseBody } from '../../validate';
import { indexOf } from './issues';

export const createSchema = named('CreateLabelOption', z.object({
  name: z.string(),
  color: z.string(),
  description: z.string().optional(),
  exclusive: z.boolean().optional(),
  is_archived: z.boolean().optional(),
}));
export const editSchema = named('EditLabelOption', createSchema.partial());
/** IssueLabelsOption: label ids or label names. */
export const issueLabelsSchema = named('IssueLabelsOption', z.object({ labels: z.array(z.union([z.number().int(), z.string()])).nullish() }));

const owner = (req: Request) => ({ repo: { owner: repoOf(req).owner.name, name: repoOf(req).repo.name } });
const id = (req: Request) => String(req.params.id ?? '');

/** GET /repos/{owner}/{repo}/labels */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { labels, total } = await listRepoLabels(req.ctx.db, repoOf(req), queryString(req, 'sort'), page);
  setPaginationHeaders(req, res, total, page);
  res.json(labels.map((l) => toApiLabel(req.ctx.config, l, owner(req))));
}

/** POST /repos/{owner}/{repo}/labels */
export async function create(req: Request, res: Response): Promise<void> {
  const label = await createRepoLabel(req.ctx.db, repoOf(req), doerOf(req), parseBody(createSchema, req.body));
  res.status(201).json(toApiLabel(req.ctx.config, label, owner(req)));
}

/** GET /repos/{owner}/{repo}/labels/{id}: by id, or by name when `{id}` is not a number. */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(toApiLabel(req.ctx.config, await getRepoLabel(req.ctx.db, repoOf(req), id(req)), owner(req)));
}

/** PATCH /repos/{owner}/{repo}/labels/{id} */
export async function edit(req: Request, res: Response): Promise<void> {
  const label = await editRepoLabel(req.ctx.db, repoOf(req), doerOf(req), id(req), parseBody(editSchema, req.body));
  res.json(toApiLabel(req.ctx.config, label, owner(req)));
}

/** DELETE /repos/{owner}/{repo}/labels/{id} */
export async function remove(req: Request, res: Response): Promise<void> {
  await deleteRepoLabel(req.ctx.db, repoOf(req), doerOf(req), id(req));
  res.status(204).end();
}

const renderIssueLabels = (req: Request, view: IssueLabelsView) =>
  view.labels.map((l) => toIssueLabel(req.ctx.config, l, view.ctx.owner, view.ctx.repo));
const refs = (req: Request) => parseBody(issueLabelsSchema, req.body).labels ?? [];

/** GET /repos/{owner}/{repo}/issues/{index}/labels */
export async function issueList(req: Request, res: Response): Promise<void> {
  res.json(renderIssueLabels(req, await listIssueLabels(req.ctx.db, repoOf(req), req.ctx.doer, indexOf(req))));
}

/** POST /repos/{owner}/{repo}/issues/{index}/labels: adds; answers every label of the issue. */
export async function issueAdd(req: Request, res: Response): Promise<void> {
  res.json(renderIssueLabels(req, await addIssueLabels(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), refs(req))));
}

/** PUT /repos/{owner}/{repo}/issues/{index}/labels: replaces. */
export async function issueReplace(req: Request, res: Response): Promise<void> {
  res.json(renderIssueLabels(req, await replaceIssueLabels(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), refs(req))));
}

/** DELETE /repos/{owner}/{repo}/issues/{index}/labels */
export async function issueClear(req: Request, res: Response): Promise<void> {
  await clearIssueLabels(req.ctx.db, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** DELETE /repos/{owner}/{repo}/issues/{index}/labels/{id} */
export async function issueRemove(req: Request, res: Response): Promise<void> {
  await removeIssueLabelById(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), Number(id(req)));
  res.status(204).end();
}
