import type { Request, Response } from 'express';
import { toApiActionTask, toApiWorkflowJob, toApiWorkflowRun } from '../../../convert/actions-run';
import { approveFromApi, cancelFromApi } from '../../../services/actions/api-dispatch';
import { getJob as findJob, getRun as findRun, listJobs, listRuns, listTasks as findTasks, type ListScope } from '../../../services/actions/api-runs';
import { deleteRun as deleteRunRow, jobLog } from '../../../services/actions/api-runs-write';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { actionsScopes } from './actions-scope';

// Runs, jobs, tasks and job logs: .../actions/runs and .../actions/jobs at repository,
// organization, user and admin level; a repository's tasks; the cancel and approve extensions.

const idParam = (req: Request, name: string) => (/^\d+$/.test(String(req.params[name])) ? Number(req.params[name]) : 0);

/** `status` may repeat (Gitea's FormStrings). */
function statusesOf(req: Request): string[] {
  const v = req.query.status;
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.filter((x): x is string => typeof x === 'string' && x !== '');
}

function listRoutes(scopeOf: (req: Request) => ListScope) {
  return {
    async listRuns(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { views, total } = await listRuns(req.ctx.db, scopeOf(req), {
        event: queryString(req, 'event') || undefined,
        branch: queryString(req, 'branch') || undefined,
        status: statusesOf(req),
        actor: queryString(req, 'actor') || undefined,
        headSha: queryString(req, 'head_sha') || undefined,
      }, page);
      setPaginationHeaders(req, res, total, page);
      res.json({ workflow_runs: views.map((v) => toApiWorkflowRun(req.ctx.config, v, req.ctx.doer)), total_count: total });
    },
    async listJobs(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { views, total } = await listJobs(req.ctx.db, scopeOf(req), statusesOf(req), page);
      setPaginationHeaders(req, res, total, page);
      res.json({ jobs: views.map((v) => toApiWorkflowJob(req.ctx.config, v)), total_count: total });
    },
  };
}

export const repo = listRoutes(actionsScopes.repo);
export const org = listRoutes(actionsScopes.org);
export const user = listRoutes(actionsScopes.user);
export const admin = listRoutes(actionsScopes.admin);

export async function getRun(req: Request, res: Response): Promise<void> {
  const v = await findRun(req.ctx.db, repoOf(req).repo.id, idParam(req, 'run'));
  res.json(toApiWorkflowRun(req.ctx.config, v, req.ctx.doer));
}

/** 204; a run still going is a 400, as Gitea. */
export async function deleteRun(req: Request, res: Response): Promise<void> {
  await deleteRunRow(req.ctx.h, repoOf(req).repo.id, idParam(req, 'run'));
  res.status(204).end();
}

/** POST .../runs/{run}/cancel (hearth extension): cancels the run's unfinished jobs, 204. */
export async function cancelRun(req: Request, res: Response): Promise<void> {
  await cancelFromApi(req.ctx.h, repoOf(req).repo.id, idParam(req, 'run'), doerOf(req));
  res.status(204).end();
}

/** POST .../runs/{run}/approve (hearth extension, as Gitea after 1.25): the run's JSON, 200 also when it needed no approval. */
export async function approveRun(req: Request, res: Response): Promise<void> {
  const v = await approveFromApi(req.ctx.h, repoOf(req).repo.id, idParam(req, 'run'), doerOf(req));
  res.json(toApiWorkflowRun(req.ctx.config, v, req.ctx.doer));
}

export async function listRunJobs(req: Request, res: Response): Promise<void> {
  const { run } = await findRun(req.ctx.db, repoOf(req).repo.id, idParam(req, 'run'));
  const page = pageOf(req);
  const { views, total } = await listJobs(req.ctx.db, { ownerId: 0, repoId: run.repo_id, runId: run.id }, statusesOf(req), page);
  setPaginationHeaders(req, res, total, page);
  res.json({ jobs: views.map((v) => toApiWorkflowJob(req.ctx.config, v)), total_count: total });
}

export async function getJob(req: Request, res: Response): Promise<void> {
  res.json(toApiWorkflowJob(req.ctx.config, await findJob(req.ctx.db, repoOf(req).repo.id, idParam(req, 'job_id'))));
}

/** The job's latest task log as plain text, an attachment as Gitea serves it. */
export async function jobLogs(req: Request, res: Response): Promise<void> {
  const log = await jobLog(req.ctx.db, repoOf(req).repo.id, idParam(req, 'job_id'));
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(log.filename)}`);
  res.send(log.text);
}

export async function listTasks(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { views, total } = await findTasks(req.ctx.db, repoOf(req).repo.id, page);
  setPaginationHeaders(req, res, total, page);
  res.json({ workflow_runs: views.map((v) => toApiActionTask(req.ctx.config, v)), total_count: total });
}
