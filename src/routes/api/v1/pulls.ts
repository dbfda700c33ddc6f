import type { NextFunction, Request, Response } from 'express';
import * as z from 'zod';
import { toApiCommits } from '../../../convert/commit';
import { toApiChangedFile, toApiPull, type PullView } from '../../../convert/pull';
import { editPull, listPulls } from '../../../services/pull/pull-edit';
import { pullCommits, pullFiles, pullRawDiff } from '../../../services/pull/pull-files';
import { assertMerged, MERGE_DO } from '../../../services/pull/pull-merge';
import { cancelAutoMerge, mergeOrSchedule } from '../../../services/pull/pull-auto-merge';
import { getPull } from '../../../services/pull/pull-views';
import { createPull, getPullByBranches, listPinnedPulls, listReviewers, pullOfMergeCommit } from '../../../services/pull/pulls';
import { toApiUser } from '../../../convert/user';
import { updatePullBranch } from '../../../services/pull/pull-update';
import {
  cancelReviewRequests, getPullReviewWithTeam, listPullReviewsWithTeams, requestReviews,
} from '../../../services/pull/pull-review-requests';
import { InvalidError } from '../../../lib/errors';
import { toApiPullReview, toApiReviewComment } from '../../../convert/pull-review';
import {
  createPullReview, deletePullReview, dismissPullReview, pullReviewComments, submitPullReview,
} from '../../../services/pull/pull-reviews';
import type { TeamReviewView } from '../../../services/pull/review-teams';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool, queryInt, queryString } from '../../query';
import { pathParam } from '../../table';
import { sendStream } from '../../stream';
import { extension, formatted, named, parseBody } from '../../validate';
import { indexOf, withoutNulls } from './issues';
import { withVerifications } from '../../../services/signing/commit-verification';

export const createSchema = named('CreatePullRequestOption', z.object({
  head: z.string().min(1), base: z.string().min(1), title: z.string(), body: z.string().optional(),
  assignee: z.string().optional(), assignees: z.array(z.string()).optional(), labels: z.array(z.number().int()).optional(),
  milestone: z.number().int().optional(), due_date: formatted('date-time', z.string()).optional(),
  reviewers: z.array(z.string()).optional(), team_reviewers: z.array(z.string()).optional(),
}));

export const editSchema = named('EditPullRequestOption', z.object({
  title: z.string().optional(), body: z.string().optional(), base: z.string().optional(), state: z.string().optional(),
  assignee: z.string().optional(), assignees: z.array(z.string()).optional(), labels: z.array(z.number().int()).optional(),
  milestone: z.number().int().optional(), due_date: formatted('date-time', z.string()).optional(), unset_due_date: z.boolean().optional(),
  allow_maintainer_edit: z.boolean().optional(), content_version: extension(z.number().int()).optional(),
}));

export const mergeSchema = named('MergePullRequestOption', z.object({
  Do: z.enum(MERGE_DO), MergeTitleField: z.string().optional(), MergeMessageField: z.string().optional(),
  MergeCommitID: z.string().optional(), delete_branch_after_merge: z.boolean().optional(), force_merge: z.boolean().optional(),
  head_commit_id: z.string().optional(), merge_when_checks_succeed: z.boolean().optional(),
}));

const render = (req: Request, v: PullView) => toApiPull(req.ctx.config, v, req.ctx.doer);

/** GET /repos/{owner}/{repo}/pulls */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const labels = ([] as unknown[]).concat(req.query.labels ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  const { views, total } = await listPulls(req.ctx.h, repoOf(req), req.ctx.doer, {
    state: queryString(req, 'state'), sort: queryString(req, 'sort'), milestone: queryInt(req, 'milestone'),
    labels, poster: queryString(req, 'poster'), baseBranch: queryString(req, 'base_branch'), page,
  });
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => render(req, v)));
}

/** POST /repos/{owner}/{repo}/pulls */
export async function create(req: Request, res: Response): Promise<void> {
  const view = await createPull(req.ctx.h, repoOf(req), doerOf(req), parseBody(createSchema, withoutNulls(req.body)));
  res.status(201).json(render(req, view));
}

/** GET /repos/{owner}/{repo}/pulls/{index} */
export async function get(req: Request, res: Response): Promise<void> {
  res.json(render(req, await getPull(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req))));
}

/** GET /repos/{owner}/{repo}/pulls/pinned */
export async function pinned(req: Request, res: Response): Promise<void> {
  res.json((await listPinnedPulls(req.ctx.h, repoOf(req), req.ctx.doer)).map((v) => render(req, v)));
}

/** GET /repos/{owner}/{repo}/commits/{sha}/pull */
export async function ofMergeCommit(req: Request, res: Response): Promise<void> {
  res.json(render(req, await pullOfMergeCommit(req.ctx.h, repoOf(req), req.ctx.doer, pathParam(req, 'sha'))));
}

/** GET /repos/{owner}/{repo}/reviewers */
export async function reviewers(req: Request, res: Response): Promise<void> {
  res.json((await listReviewers(req.ctx.db, repoOf(req))).map((u) => toApiUser(req.ctx.config, u, req.ctx.doer)));
}

/** GET /repos/{owner}/{repo}/pulls/{base}/{head} */
export async function getByBranches(req: Request, res: Response): Promise<void> {
  const view = await getPullByBranches(req.ctx.h, repoOf(req), req.ctx.doer, pathParam(req, 'base'), pathParam(req, 'head'));
  res.json(render(req, view));
}

/** PATCH /repos/{owner}/{repo}/pulls/{index}: 201, as Gitea. */
export async function edit(req: Request, res: Response): Promise<void> {
  const view = await editPull(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), parseBody(editSchema, withoutNulls(req.body)));
  res.status(201).json(render(req, view));
}

/** GET /repos/{owner}/{repo}/pulls/{index}.{diffType} */
export async function rawDiff(req: Request, res: Response, next: NextFunction): Promise<void> {
  const type = pathParam(req, 'diffType');
  if ((type !== 'diff' && type !== 'patch') || !/^\d+$/.test(pathParam(req, 'index'))) return next('route');
  const d = await pullRawDiff(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req), type, queryBool(req, 'binary') ?? false);
  await sendStream(res, d, {});
}

/** GET /repos/{owner}/{repo}/pulls/{index}/commits */
export async function commits(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const want = { files: queryBool(req, 'files') ?? true, stat: queryBool(req, 'stat') ?? true };
  const found = await pullCommits(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req), page, want);
  setPaginationHeaders(req, res, found.total, page);
  const verification = queryBool(req, 'verification') ?? true;
  const checked = await withVerifications(req.ctx.h, repoOf(req), found, verification);
  res.json(toApiCommits(req.ctx.config, repoOf(req), checked, req.ctx.doer, { verification }));
}

/** GET /repos/{owner}/{repo}/pulls/{index}/files */
export async function files(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const access = repoOf(req);
  const found = await pullFiles(req.ctx.h, access, req.ctx.doer, indexOf(req), page, {
    skipTo: queryString(req, 'skip-to'), whitespace: queryString(req, 'whitespace'),
  });
  setPaginationHeaders(req, res, found.total, page);
  res.json(found.files.map((f) => toApiChangedFile(req.ctx.config, access, found.head, f)));
}

/** POST /repos/{owner}/{repo}/pulls/{index}/merge: 200 merged, 201 scheduled to merge when checks succeed. */
export async function merge(req: Request, res: Response): Promise<void> {
  const outcome = await mergeOrSchedule(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), parseBody(mergeSchema, withoutNulls(req.body)));
  res.status(outcome === 'scheduled' ? 201 : 200).end();
}

/** GET /repos/{owner}/{repo}/pulls/{index}/merge: 204 merged, 404 not. */
export async function isMerged(req: Request, res: Response): Promise<void> {
  await assertMerged(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req));
  res.status(204).end();
}

/** DELETE /repos/{owner}/{repo}/pulls/{index}/merge: cancels a scheduled auto-merge. */
export async function cancelMerge(req: Request, res: Response): Promise<void> {
  await cancelAutoMerge(req.ctx.h, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** POST /repos/{owner}/{repo}/pulls/{index}/update?style=merge|rebase */
export async function update(req: Request, res: Response): Promise<void> {
  const style = queryString(req, 'style') || 'merge';
  if (style !== 'merge' && style !== 'rebase') throw new InvalidError(`[style]: unknown update style ${style}`, 'style');
  await updatePullBranch(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), style);
  res.status(200).end();
}

// Reviews

export const ReviewStateType = named('ReviewStateType', z.string());
export const reviewSchema = named('CreatePullReviewOptions', z.object({
  body: z.string().optional(), event: ReviewStateType.optional(), commit_id: z.string().optional(),
  comments: z.array(named('CreatePullReviewComment', z.object({
    path: z.string(), body: z.string().optional(), new_position: z.number().int().optional(), old_position: z.number().int().optional(),
  }))).optional(),
}));
export const submitSchema = named('SubmitPullReviewOptions', z.object({ body: z.string().optional(), event: ReviewStateType.optional() }));
const reviewId = (req: Request) => Number(req.params.id);
const renderReview = (req: Request, v: TeamReviewView) => toApiPullReview(req.ctx.config, v, req.ctx.doer);

/** GET .../pulls/{index}/reviews */
export async function listReviews(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await listPullReviewsWithTeams(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json(views.map((v) => renderReview(req, v)));
}

/** POST .../pulls/{index}/reviews: 200, as Gitea. */
export async function createReview(req: Request, res: Response): Promise<void> {
  const v = await createPullReview(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), parseBody(reviewSchema, withoutNulls(req.body)));
  res.json(renderReview(req, v));
}

export async function getReview(req: Request, res: Response): Promise<void> {
  res.json(renderReview(req, await getPullReviewWithTeam(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req), reviewId(req))));
}

export async function submitReview(req: Request, res: Response): Promise<void> {
  const v = await submitPullReview(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), reviewId(req), parseBody(submitSchema, withoutNulls(req.body)));
  res.json(renderReview(req, v));
}

export async function deleteReview(req: Request, res: Response): Promise<void> {
  await deletePullReview(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), reviewId(req));
  res.status(204).end();
}

export async function reviewComments(req: Request, res: Response): Promise<void> {
  const v = await pullReviewComments(req.ctx.h, repoOf(req), req.ctx.doer, indexOf(req), reviewId(req));
  res.json(v.comments.map((c) => toApiReviewComment(req.ctx.config, v, c, req.ctx.doer)));
}

export const dismissSchema = named('DismissPullReviewOptions', z.object({ message: z.string().optional(), priors: z.boolean().optional() }));

export const dismissReview = (dismissed: boolean) => async (req: Request, res: Response): Promise<void> => {
  const { message } = dismissed ? parseBody(dismissSchema, withoutNulls(req.body ?? {})) : { message: '' };
  const v = await dismissPullReview(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), reviewId(req), dismissed, message ?? '');
  res.json(renderReview(req, v));
};

export const requestSchema = named('PullReviewRequestOptions', z.object({ reviewers: z.array(z.string()).optional(), team_reviewers: z.array(z.string()).optional() }));

/** POST .../pulls/{index}/requested_reviewers: 201 with the new requests. */
export async function requestReviewers(req: Request, res: Response): Promise<void> {
  const body = parseBody(requestSchema, withoutNulls(req.body));
  const views = await requestReviews(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), body);
  res.status(201).json(views.map((v) => renderReview(req, v)));
}

/** DELETE .../pulls/{index}/requested_reviewers */
export async function cancelReviewers(req: Request, res: Response): Promise<void> {
  const body = parseBody(requestSchema, withoutNulls(req.body));
  await cancelReviewRequests(req.ctx.h, repoOf(req), doerOf(req), indexOf(req), body);
  res.status(204).end();
}
