import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiRunner } from '../../../convert/actions-settings';
import { InvalidError } from '../../../lib/errors';
import { registrationToken } from '../../../services/actions/registration-tokens';
import { deleteRunner, getRunner, listRunners, setRunnerDisabled } from '../../../services/actions/runners';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryBool } from '../../query';
import { actionsScopes, type ScopeOf } from './actions-scope';
import { extension, named } from '../../validate';
import { bind } from '../../body-binding';

// .../actions/runners at admin, organization, repository and user level (Gitea's shared/runners.go).

// EditActionRunnerOption: `disabled` is required (Gitea answers "[Disabled]: Required", 422).
export const editSchema = extension(named('EditActionRunnerOption', z.object({ disabled: z.boolean().nullish() })));
const runnerId = (req: Request) => (/^\d+$/.test(String(req.params.runner_id)) ? Number(req.params.runner_id) : 0);

function runnerRoutes(scopeOf: ScopeOf) {
  return {
    /** GET and POST .../runners/registration-token: `{token}`. */
    async registrationToken(req: Request, res: Response): Promise<void> {
      const t = await registrationToken(req.ctx.db, scopeOf(req));
      res.json({ token: t.token });
    },
    async list(req: Request, res: Response): Promise<void> {
      const page = pageOf(req);
      const { views, total } = await listRunners(req.ctx.db, scopeOf(req), page, queryBool(req, 'disabled'));
      setPaginationHeaders(req, res, total, page);
      res.json({ runners: views.map(toApiRunner), total_count: total });
    },
    async get(req: Request, res: Response): Promise<void> {
      res.json(toApiRunner(await getRunner(req.ctx.db, scopeOf(req), runnerId(req))));
    },
    async remove(req: Request, res: Response): Promise<void> {
      await deleteRunner(req.ctx.db, scopeOf(req), runnerId(req));
      res.status(204).end();
    },
    async edit(req: Request, res: Response): Promise<void> {
      await getRunner(req.ctx.db, scopeOf(req), runnerId(req));
      const parsed = editSchema.safeParse(bind(editSchema, req.body ?? {}));
      const disabled = parsed.success ? parsed.data.disabled : undefined;
      if (typeof disabled !== 'boolean') throw new InvalidError('[Disabled]: Required', 'disabled');
      res.json(toApiRunner(await setRunnerDisabled(req.ctx.db, scopeOf(req), runnerId(req), disabled)));
    },
  };
}

export const runners = {
  repo: runnerRoutes(actionsScopes.repo),
  org: runnerRoutes(actionsScopes.org),
  user: runnerRoutes(actionsScopes.user),
  admin: runnerRoutes(actionsScopes.admin),
};
