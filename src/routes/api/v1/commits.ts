import type { NextFunction, Request, Response } from 'express';
import * as z from 'zod';
import { toApiCommit, toApiCommits } from '../../../convert/commit';
import { toApiCombinedStatus, toApiCommitStatus, toApiCommitStatuses } from '../../../convert/commit-status';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { openCommitDiff } from '../../../services/repo/archive';
import { compareCommits, getCommit, listCommits } from '../../../services/repo/commits';
import { withVerifications } from '../../../services/signing/commit-verification';
import { combinedStatus, createCommitStatus, listStatuses, STATUS_STATES } from '../../../services/repo/commit-statuses';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders, setTotalCount } from '../../pagination';
import { queryString } from '../../query';
import { sendStream } from '../../stream';
import { pathParam } from '../../table';
import { named, parseBody } from '../../validate';

/** Gitea's ParseCommitOptions: absent or empty means true, otherwise strconv.ParseBool (bad text is false). */
export function toggle(req: Request, key: string): boolean {
  const v = queryString(req, key);
  if (!v) return true;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

const diffWanted = (req: Request) => ({ files: toggle(req, 'files'), stat: toggle(req, 'stat') });

function exposeHeaders(res: Response, names: string[]): void {
  const current = String(res.getHeader('Access-Control-Expose-Headers') ?? '');
  const list = current.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!list.includes(n)) list.push(n);
  res.setHeader('Access-Control-Expose-Headers', list.join(', '));
}

export async function list(req: Request, res: Response): Promise<void> {
  const { page, limit } = pageOf(req);
  const access = repoOf(req);
  const q = (k: string) => queryString(req, k) || undefined;
  const result = await listCommits(req.ctx.h, access, {
    sha: q('sha'), path: q('path'), not: q('not'), since: q('since'), until: q('until'), page, limit, ...diffWanted(req),
  });
  const { total, pageSize } = result;
  const pageCount = Math.ceil(total / pageSize);
  setPaginationHeaders(req, res, total, { page, limit: pageSize, offset: (page - 1) * pageSize });
  // Kept by Gitea for older clients.
  res.setHeader('X-Page', String(page));
  res.setHeader('X-PerPage', String(pageSize));
  res.setHeader('X-Total', String(total));
  res.setHeader('X-PageCount', String(pageCount));
  res.setHeader('X-HasMore', String(page < pageCount));
  exposeHeaders(res, ['X-Page', 'X-PerPage', 'X-Total', 'X-PageCount', 'X-HasMore']);
  const verification = toggle(req, 'verification');
  const checked = await withVerifications(req.ctx.h, access, result, verification);
  res.json(toApiCommits(req.ctx.config, access, checked, req.ctx.doer, { verification }));
}

export async function get(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const verification = toggle(req, 'verification');
  const found = await withVerifications(req.ctx.h, access, await getCommit(req.ctx.h, access, pathParam(req, 'sha'), diffWanted(req)), verification);
  const [c] = found.commits;
  res.json(toApiCommit(req.ctx.config, access, c!, found.users, req.ctx.doer, { verification, verifications: found.verifications }));
}

/** `{sha}.{diffType}`: only `diff` and `patch`; any other suffix is part of a ref name for `get`. */
export async function diff(req: Request, res: Response, next: NextFunction): Promise<void> {
  const type = pathParam(req, 'diffType');
  if (type !== 'diff' && type !== 'patch') return next('route');
  const d = await openCommitDiff(req.ctx.config, repoOf(req), pathParam(req, 'sha'), type);
  await sendStream(res, d, {});
}

export async function compare(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const want = { files: toggle(req, 'files'), stat: true };
  const verification = toggle(req, 'verification');
  const found = await withVerifications(req.ctx.h, access, await compareCommits(req.ctx.h, access, pathParam(req, 'basehead'), want), verification);
  const commits = toApiCommits(req.ctx.config, access, found, req.ctx.doer, { verification });
  res.json({ total_commits: commits.length, commits });
}

// Commit statuses

export const statusSchema = named('CreateStatusOption', z.object({
  state: z.enum(STATUS_STATES),
  target_url: z.string().nullish(),
  description: z.string().nullish(),
  context: z.string().nullish(),
}));

export async function createStatus(req: Request, res: Response): Promise<void> {
  const body = parseBody(statusSchema, req.body);
  const access = repoOf(req);
  const created = await createCommitStatus(req.ctx.h, access, doerOf(req), pathParam(req, 'sha'), {
    state: body.state, target_url: body.target_url ?? '', description: body.description ?? '', context: body.context ?? '',
  });
  res.status(201).json(toApiCommitStatus(req.ctx.config, access, created.rows[0]!, created.creators));
}

const statusList = (param: 'sha' | 'ref', byRef: boolean) => async (req: Request, res: Response): Promise<void> => {
  const page = pageOf(req);
  const access = repoOf(req);
  const found = await listStatuses(req.ctx.h, access, pathParam(req, param), byRef, {
    sort: queryString(req, 'sort')?.trim() ?? '', state: queryString(req, 'state')?.trim() ?? '',
    offset: page.offset, limit: page.limit,
  });
  setPaginationHeaders(req, res, found.total, page);
  res.json(toApiCommitStatuses(req.ctx.config, access, found));
};

export const listStatusesBySha = statusList('sha', false);
export const listStatusesByRef = statusList('ref', true);

export async function combined(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const access = repoOf(req);
  const c = await combinedStatus(req.ctx.h, access, pathParam(req, 'ref'), page);
  setTotalCount(res, c.total);
  const repository = toApiRepoWithParent(req.ctx.config, access, req.ctx.doer);
  res.json(toApiCombinedStatus(req.ctx.config, access, c, repository));
}
