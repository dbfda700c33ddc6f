import type { DB } from '../../db/connect';
import type { Advisory, DependencyAlert, Repository, User } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getAdvisoriesByIds, hasAdvisories } from '../../models/advisory';
import { getAlertByIndex, listAlerts, setAlertState, type AlertState } from '../../models/dependency-alert';
import { hasPendingJob } from '../../models/job';
import { getRepoById } from '../../models/repo';
import { enqueueJob } from '../jobs/queue';
import { scanRepository } from './scan';
import type { Hearth } from '../../hearth';

export type AlertView = { alert: DependencyAlert; advisory: Advisory | undefined };

const STATES: readonly AlertState[] = ['open', 'dismissed', 'fixed'];

/** GET .../security/dependency_alerts: newest first, `state` narrows (open, dismissed, fixed). */
export async function listDependencyAlerts(db: DB, repo: Repository, state: string | undefined, page: { offset: number; limit: number }) {
  if (state && !STATES.includes(state as AlertState)) throw new InvalidError(`[state]: must be one of ${STATES.join(', ')}`, 'state');
  const { alerts, total } = await listAlerts(db, repo.id, state as AlertState | undefined, page);
  const advisories = new Map((await getAdvisoriesByIds(db, [...new Set(alerts.map((a) => a.advisory_id))])).map((a) => [a.id, a]));
  return { alerts: alerts.map((alert): AlertView => ({ alert, advisory: advisories.get(alert.advisory_id) })), total };
}

/** POST .../dependency_alerts/{index}/dismiss: 404 for no such alert; a fixed one stays fixed. */
export async function dismissDependencyAlert(db: DB, repo: Repository, doer: User, index: number, reason: string): Promise<void> {
  const alert = Number.isSafeInteger(index) ? await getAlertByIndex(db, repo.id, index) : undefined;
  if (!alert) throw new NotFoundError('dependency alert does not exist');
  if (alert.state === 'fixed') return;
  await setAlertState(db, alert.id, { state: 'dismissed', dismiss_reason: reason, dismissed_by: doer.id }, nowUnix());
}

export const DEPENDENCY_SCAN_JOB = 'security.dependency_scan';

/** Queues a scan of the repository (one waiting scan per repository is enough). */
export async function enqueueDependencyScan(db: DB, repoId: number): Promise<void> {
  // No advisories imported: nothing can match (and no alert exists to fix), so pushes cost nothing.
  if (!(await hasAdvisories(db))) return;
  const key = `dependency-scan:${repoId}`;
  if (await hasPendingJob(db, key)) return;
  await enqueueJob(db, { kind: DEPENDENCY_SCAN_JOB, key, payload: { repoId } });
}

export async function runDependencyScan(h: Hearth, payload: { repoId: number }): Promise<void> {
  const repo = await getRepoById(h.db, payload.repoId);
  if (repo) await scanRepository(h, repo);
}

/** Pushes to the default branch queue a scan (a durable job: it survives a restart). */
export function subscribeDependencyAlerts(h: Hearth): void {
  h.jobs.register(DEPENDENCY_SCAN_JOB, { handler: (payload) => runDependencyScan(h, payload), backoff: () => 30 });
  // Created from a template, forked, migrated: what the default branch already holds counts too.
  h.events.on('repo.created', 'dependency-alerts', (e) => enqueueDependencyScan(h.db, e.repo.id));
  h.events.on('repo.forked', 'dependency-alerts', (e) => enqueueDependencyScan(h.db, e.fork.id));
  h.events.on('refs.moved', 'dependency-alerts', async (e) => {
    if (e.updates.some((u) => u.ref === `refs/heads/${e.repo.default_branch}`)) await enqueueDependencyScan(h.db, e.repo.id);
  });
}
