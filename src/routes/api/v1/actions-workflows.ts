import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiWorkflow } from '../../../convert/actions-workflow';
import { InvalidError } from '../../../lib/errors';
import { dispatchFromApi } from '../../../services/actions/api-dispatch';
import { getWorkflow, listWorkflows, setWorkflowEnabled } from '../../../services/actions/api-workflows';
import { doerOf, repoOf } from '../../context';
import { named, shownAs } from '../../validate';
import { bind } from '../../body-binding';

// /repos/{owner}/{repo}/actions/workflows: list, get, enable, disable, dispatches.

const workflowId = (req: Request) => String(req.params.workflow_id ?? '');
const repoName = (req: Request) => ({ owner: repoOf(req).owner.name, name: repoOf(req).repo.name });

// CreateActionWorkflowDispatch: `ref` required; inputs are strings (the workflow's declared
// inputs type and validate them).
export const dispatchSchema = named('CreateActionWorkflowDispatch', z.object({
  ref: shownAs({ type: 'string' }, z.unknown()),
  inputs: z.record(z.string(), z.unknown()).nullish(),
}));

export async function list(req: Request, res: Response): Promise<void> {
  const workflows = await listWorkflows(req.ctx.h, repoOf(req));
  res.json({ workflows: workflows.map((w) => toApiWorkflow(req.ctx.config, repoName(req), w)), total_count: workflows.length });
}

export async function get(req: Request, res: Response): Promise<void> {
  const w = await getWorkflow(req.ctx.h, repoOf(req), workflowId(req));
  res.json(toApiWorkflow(req.ctx.config, repoName(req), w));
}

export async function enable(req: Request, res: Response): Promise<void> {
  await setWorkflowEnabled(req.ctx.h, repoOf(req), workflowId(req), true);
  res.status(204).end();
}

export async function disable(req: Request, res: Response): Promise<void> {
  await setWorkflowEnabled(req.ctx.h, repoOf(req), workflowId(req), false);
  res.status(204).end();
}

/** 204 once the run is created; 422 without a ref or with inputs the workflow refuses. */
export async function dispatch(req: Request, res: Response): Promise<void> {
  const parsed = dispatchSchema.safeParse(bind(dispatchSchema, req.body ?? {}));
  const body = parsed.success ? parsed.data : { ref: undefined, inputs: undefined };
  if (typeof body.ref !== 'string' || !body.ref) throw new InvalidError('ref is required parameter', 'ref');
  const inputs = Object.fromEntries(Object.entries(body.inputs ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  await dispatchFromApi(req.ctx.h, repoOf(req), doerOf(req), workflowId(req), body.ref, inputs);
  res.status(204).end();
}
