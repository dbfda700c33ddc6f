import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiIssue } from '../../../convert/issue';
import { listPinned, moveIssuePin, newPinAllowed, pinIssue, unpinIssue } from '../../../services/issue/issue-pins';
import { setIssueLock } from '../../../services/issue/issue-lock';
import { doerOf, repoOf } from '../../context';
import { named, parseBody } from '../../validate';
import { indexOf, withoutNulls } from './issues';

/** POST .../issues/{index}/pin */
export async function pin(req: Request, res: Response): Promise<void> {
  await pinIssue(req.ctx.db, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** DELETE .../issues/{index}/pin */
export async function unpin(req: Request, res: Response): Promise<void> {
  await unpinIssue(req.ctx.db, repoOf(req), doerOf(req), indexOf(req));
  res.status(204).end();
}

/** PATCH .../issues/{index}/pin/{position} */
export async function move(req: Request, res: Response): Promise<void> {
  await moveIssuePin(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), Number(req.params.position));
  res.status(204).end();
}

/** GET .../issues/pinned */
export async function pinned(req: Request, res: Response): Promise<void> {
  const views = await listPinned(req.ctx.db, repoOf(req), req.ctx.doer, false);
  res.json(views.map((v) => toApiIssue(req.ctx.config, v, req.ctx.doer)));
}

export const lockSchema = named('LockIssueOption', z.object({ lock_reason: z.string().optional() }));

/** PUT .../issues/{index}/lock */
export async function lock(req: Request, res: Response): Promise<void> {
  const { lock_reason } = parseBody(lockSchema, withoutNulls(req.body ?? {}));
  await setIssueLock(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), true, lock_reason ?? '');
  res.status(204).end();
}

/** DELETE .../issues/{index}/lock */
export async function unlock(req: Request, res: Response): Promise<void> {
  await setIssueLock(req.ctx.db, repoOf(req), doerOf(req), indexOf(req), false);
  res.status(204).end();
}

/** GET .../new_pin_allowed */
export async function allowed(req: Request, res: Response): Promise<void> {
  res.json(await newPinAllowed(req.ctx.db, repoOf(req)));
}
