import type { Request, Response } from 'express';
import { toApiDelivery, toApiDeliveryDetail } from '../../../convert/hook-delivery';
import { getDelivery, listDeliveries, redeliver, testHook } from '../../../services/webhook/deliveries';
import { getHook, type HookScope } from '../../../services/webhook/hooks';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { scopes } from './hooks';

// A hook's deliveries (hearth extensions: Gitea shows them only in its web UI), for repository,
// organization, user and site hooks, and POST .../hooks/{id}/tests.

const hookOf = async (req: Request, scope: HookScope) => (await getHook(req.ctx.db, req.ctx.secret, scope, Number(req.params.id))).hook;
const deliveryId = (req: Request) => Number(req.params.delivery_id);

function deliveryRoutes(scopeOf: (req: Request) => HookScope) {
  return {
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { items, total } = await listDeliveries(req.ctx.db, await hookOf(req, scopeOf(req)), page);
      setPaginationHeaders(req, res, total, page);
      res.json(items.map(toApiDelivery));
    },
    async get(req: Request, res: Response): Promise<void> {
      res.json(toApiDeliveryDetail(await getDelivery(req.ctx.db, await hookOf(req, scopeOf(req)), deliveryId(req))));
    },
    /** Redelivers now (202): a new delivery with the same UUID, marked a redelivery. */
    async redeliver(req: Request, res: Response): Promise<void> {
      const task = await redeliver(req.ctx.h, await hookOf(req, scopeOf(req)), deliveryId(req));
      res.status(202).json(toApiDelivery(task));
    },
  };
}

export const repo = deliveryRoutes(scopes.repo);
export const org = deliveryRoutes(scopes.org);
export const user = deliveryRoutes(scopes.user);
export const admin = deliveryRoutes(scopes.admin);

/** POST /repos/{owner}/{repo}/hooks/{id}/tests?ref=: a push payload of the ref's head (204). */
export async function test(req: Request, res: Response): Promise<void> {
  const access = repoOf(req);
  const hook = await hookOf(req, scopes.repo(req));
  await testHook(req.ctx.h, access, hook, doerOf(req), queryString(req, 'ref') || undefined);
  res.status(204).end();
}
