import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiRepoTransfer } from '../../../convert/repo-social';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { acceptTransfer, rejectTransfer, startTransfer, type TransferView } from '../../../services/repo/transfer';
import { doerOf, repoOf } from '../../context';
import { named, parseBody } from '../../validate';

export const transferSchema = named('TransferRepoOption', z.object({ new_owner: z.string().min(1), team_ids: z.array(z.number().int()).nullish() }));

function reply(req: Request, res: Response, status: number, view: TransferView): void {
  const transfer = view.pending && toApiRepoTransfer(req.ctx.config, view.pending, req.ctx.doer);
  res.status(status).json(toApiRepoWithParent(req.ctx.config, { ...view.access, transfer }, req.ctx.doer));
}

/** 202 when moved at once; 201 when the recipient must accept, as Gitea answers. */
export async function start(req: Request, res: Response): Promise<void> {
  const body = parseBody(transferSchema, req.body);
  const view = await startTransfer(req.ctx.h, doerOf(req), repoOf(req), {
    newOwner: body.new_owner, teamIds: body.team_ids ?? undefined,
  });
  reply(req, res, view.pending ? 201 : 202, view);
}

export async function accept(req: Request, res: Response): Promise<void> {
  reply(req, res, 202, await acceptTransfer(req.ctx.h, doerOf(req), repoOf(req)));
}

export async function reject(req: Request, res: Response): Promise<void> {
  reply(req, res, 200, await rejectTransfer(req.ctx.db, doerOf(req), repoOf(req)));
}
