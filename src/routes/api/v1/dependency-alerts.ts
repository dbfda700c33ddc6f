import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiDependencyAlert } from '../../../convert/dependency-alert';
import { dismissDependencyAlert, listDependencyAlerts } from '../../../services/security/alerts';
import { usersByIds } from '../../../services/security/users';
import { doerOf, repoOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { queryString } from '../../query';
import { extension, named, parseBody } from '../../validate';

export const dismissSchema = extension(named('DismissDependencyAlertOption', z.object({ dismiss_reason: z.string().max(1000).nullish().transform((v) => v ?? '') })));

/** GET /repos/{owner}/{repo}/security/dependency_alerts */
export async function list(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const { alerts, total } = await listDependencyAlerts(req.ctx.db, repoOf(req).repo, queryString(req, 'state') || undefined, page);
  const users = await usersByIds(req.ctx.db, alerts.map((a) => a.alert.dismissed_by));
  setPaginationHeaders(req, res, total, page);
  res.json(alerts.map((a) => toApiDependencyAlert(a, users.get(a.alert.dismissed_by))));
}

/** POST /repos/{owner}/{repo}/security/dependency_alerts/{index}/dismiss */
export async function dismiss(req: Request, res: Response): Promise<void> {
  const body = parseBody(dismissSchema, req.body ?? {});
  await dismissDependencyAlert(req.ctx.db, repoOf(req).repo, doerOf(req), Number(req.params.index), body.dismiss_reason);
  res.status(204).end();
}
