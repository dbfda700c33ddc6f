import type { Comment, Issue, Release, Repository } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { repoDir } from '../../git/repo';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { getIssueById } from '../../models/issue';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { enqueueJob } from '../jobs/queue';
import { payloadContext } from '../webhook/payloads';
import { detectRuns } from './detect';
import { actionsEnabled } from './enabled';
import { refreshSchedules } from './schedules';
import { commentDetections, issueDetections, refDetections, releaseDetections, type Base } from './trigger-events';
import { WorkflowPresence } from './workflow-presence';
import type { Hearth } from '../../hearth';

// Workflows follow the domain events. The subscriber only checks that Actions are on for the
// repository and queues a durable job (one key per repository: its events run in order); the
// job reads the workflow files from git and creates the runs, so a push answers as fast with
// workflows as without.

export const TRIGGER_JOB = 'actions.trigger';

export type TriggerJob =
  | { type: 'refs'; repoId: number; doerId: number; updates: RefUpdate[] }
  | { type: 'issue'; repoId: number; doerId: number; issueId: number; isPull?: boolean; action: string }
  | { type: 'comment'; repoId: number; doerId: number; issueId: number; comment: Comment; action: string }
  | { type: 'release'; repoId: number; doerId: number; release: Release; action: string };

async function handle(h: Hearth, presence: WorkflowPresence, job: TriggerJob): Promise<void> {
  const generation = presence.generation(job.repoId);
  const [repo, doer] = await Promise.all([getRepoById(h.db, job.repoId), getUserById(h.db, job.doerId)]);
  if (!repo || !doer || !actionsEnabled(h.config, repo)) return;
  const owner = await getUserById(h.db, repo.owner_id);
  const c = owner ? await payloadContext(h, repo, doer) : null;
  if (!owner || !c) return;
  const base: Base = { repo, owner, doer, dir: repoDir(h.config.repository.root, owner.name, repo.name) };
  const skip = h.config.actions.skip_workflow_strings;
  let found;
  if (job.type === 'refs') {
    found = (await Promise.all(job.updates.map((u) => refDetections(base, c, u, skip)))).flat();
    if (job.updates.some((u) => u.ref === `refs/heads/${repo.default_branch}`)) await refreshSchedules(h, base);
  } else if (job.type === 'release') {
    found = await releaseDetections(base, c, job.release, job.action);
  } else {
    const issue = await getIssueById(h.db, job.issueId);
    if (!issue) return;
    found = job.type === 'issue' ? await issueDetections(base, c, issue, job.action, skip)
      : await commentDetections(base, c, issue, job.comment, job.action);
    // Both read the default branch's workflows, except for a pull request's own events.
    if (!found.length && (job.type === 'comment' || !issue.is_pull)) presence.recordEmpty(repo.id, generation, repo.default_branch);
  }
  for (const d of found) await detectRuns(h, { ...base, ...d });
}

/** The Gitea hook actions an issue change stands for (as its notifier sends them). */
function changeActions(before: Issue, issue: Issue, events: Comment[]): string[] {
  const out: string[] = [];
  const has = (t: number) => events.some((c) => c.type === t);
  if (has(COMMENT_TYPE.changeTitle) || issue.content !== before.content) out.push('edited');
  if (has(COMMENT_TYPE.label)) out.push('label_updated');
  for (const m of events.filter((c) => c.type === COMMENT_TYPE.milestone)) out.push(m.milestone_id ? 'milestoned' : 'demilestoned');
  for (const a of events.filter((c) => c.type === COMMENT_TYPE.assignees)) out.push(a.removed_assignee ? 'unassigned' : 'assigned');
  if (issue.is_closed !== before.is_closed) out.push(issue.is_closed ? 'closed' : 'reopened');
  return out;
}

export function subscribeActions(h: Hearth): void {
  const presence = new WorkflowPresence();
  const queue = async (repo: Repository, job: TriggerJob) => {
    if (!actionsEnabled(h.config, repo)) return;
    // Issue and comment events run the default branch's workflows: none there, nothing to queue.
    if ((job.type === 'comment' || (job.type === 'issue' && !job.isPull)) && presence.knownEmpty(repo.id, repo.default_branch)) return;
    await enqueueJob(h.db, { kind: TRIGGER_JOB, key: `repo:${repo.id}:actions`, payload: job, maxAttempts: 3 });
  };
  const ids = (e: { repo: { id: number }; doer: { id: number } }) => ({ repoId: e.repo.id, doerId: e.doer.id });
  const issueJob = (e: { repo: { id: number }; doer: { id: number }; issue: Issue }, action: string): TriggerJob => ({
    type: 'issue', ...ids(e), issueId: e.issue.id, isPull: !!e.issue.is_pull, action,
  });
  h.events.on('refs.moved', 'actions', (e) => {
    presence.moved(e.repo.id);
    return queue(e.repo, { type: 'refs', ...ids(e), updates: e.updates });
  });
  h.events.on('issue.opened', 'actions', (e) => queue(e.repo, issueJob(e, 'opened')));
  h.events.on('issue.changed', 'actions', async (e) => {
    for (const action of changeActions(e.before, e.issue, e.events)) await queue(e.repo, issueJob(e, action));
  });
  h.events.on('pull.synchronized', 'actions', (e) => queue(e.repo, issueJob(e, 'synchronized')));
  h.events.on('pull.merged', 'actions', (e) => queue(e.repo, issueJob(e, 'closed')));
  h.events.on('pull.review_requested', 'actions', (e) => queue(e.repo, issueJob(e, e.removed ? 'review_request_removed' : 'review_requested')));
  for (const [name, action] of [['comment.created', 'created'], ['comment.edited', 'edited'], ['comment.deleted', 'deleted']] as const) {
    h.events.on(name, 'actions', (e) => queue(e.repo, { type: 'comment', ...ids(e), issueId: e.issue.id, comment: e.comment, action }));
  }
  for (const [name, action] of [['release.published', 'published'], ['release.updated', 'updated'], ['release.deleted', 'deleted']] as const) {
    h.events.on(name, 'actions', (e) => queue(e.repo, { type: 'release', ...ids(e), release: e.release, action }));
  }
  h.jobs.register(TRIGGER_JOB, { backoff: () => 5, handler: (payload) => handle(h, presence, payload) });
}
