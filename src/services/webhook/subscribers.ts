import type { DB } from '../../db/connect';
import type { Comment } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { labelIdsOfIssue } from '../../models/issue-label';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import type { DomainEvents } from '../events/types';
import { DELIVER_JOB, dispatch, type Delivery } from './dispatch';
import { deliverJob } from './deliver';
import type { HookEvent } from './formats';
import { activeHooksFor } from '../../models/webhook';
import { apiUser, commentPayload, issuePayload, payloadContext, releasePayload, repositoryPayload, statusPayload } from './payloads';
import { pushDeliveries, PUSH_JOB, type PushJob } from './push-dispatch';
import { enqueueJob } from '../jobs/queue';
import { repoDir } from '../../git/repo';
import type { Hearth } from '../../hearth';

// Webhooks follow the domain events, as Gitea's webhook notifier: each event becomes the
// deliveries Gitea would make (event type, action, payload). Pushes are read from git in a
// durable job, so a push answers as fast with hooks as without.

type Kind = 'issues' | 'pull_request';
const kindOf = (isPull: number): Kind => (isPull ? 'pull_request' : 'issues');
const sub = (isPull: number, what: 'assign' | 'label' | 'milestone' | 'comment'): HookEvent =>
  (isPull ? `pull_request_${what}` : what === 'comment' ? 'issue_comment' : `issue_${what}`) as HookEvent;

/** What an issue change delivers: edited, closed/reopened, labels, milestone, assignees (Gitea's notifier). */
async function changeDeliveries(db: DB, e: DomainEvents['issue.changed']): Promise<Delivery[]> {
  const { issue, before, events } = e;
  const out: Delivery[] = [];
  const has = (t: number) => events.some((c: Comment) => c.type === t);
  const changes: Record<string, { from: string }> = {};
  if (has(COMMENT_TYPE.changeTitle)) changes.title = { from: before.title };
  if (issue.content !== before.content) changes.body = { from: before.content };
  if (Object.keys(changes).length) out.push({ event: kindOf(issue.is_pull), build: (c) => issuePayload(c, issue, 'edited', { changes }) });
  const labels = events.filter((c) => c.type === COMMENT_TYPE.label);
  if (labels.length) {
    const cleared = labels.every((c) => !c.content) && (await labelIdsOfIssue(db, issue.id)).length === 0;
    out.push({ event: sub(issue.is_pull, 'label'), build: (c) => issuePayload(c, issue, cleared ? 'label_cleared' : 'label_updated') });
  }
  for (const m of events.filter((c) => c.type === COMMENT_TYPE.milestone)) {
    out.push({ event: sub(issue.is_pull, 'milestone'), build: (c) => issuePayload(c, issue, m.milestone_id ? 'milestoned' : 'demilestoned') });
  }
  for (const a of events.filter((c) => c.type === COMMENT_TYPE.assignees)) {
    out.push({ event: sub(issue.is_pull, 'assign'), build: (c) => issuePayload(c, issue, a.removed_assignee ? 'unassigned' : 'assigned') });
  }
  if (issue.is_closed !== before.is_closed) {
    out.push({ event: kindOf(issue.is_pull), build: (c) => issuePayload(c, issue, issue.is_closed ? 'closed' : 'reopened') });
  }
  return out;
}

const REVIEW_EVENT: Record<string, HookEvent> = {
  approve: 'pull_request_review_approved', reject: 'pull_request_review_rejected', comment: 'pull_request_review_comment',
};

function subscribeIssues(h: Hearth): void {
  const to = (e: DomainEvents['issue.opened'], ds: Delivery[]) => dispatch(h, e.repo, e.doer, ds);
  h.events.on('issue.opened', 'webhooks', (e) => to(e, [{ event: kindOf(e.issue.is_pull), build: (c) => issuePayload(c, e.issue, 'opened') }]));
  h.events.on('issue.changed', 'webhooks', async (e) => to(e, await changeDeliveries(h.db, e)));
  h.events.on('comment.created', 'webhooks', (e) => to(e, [{ event: sub(e.issue.is_pull, 'comment'), build: (c) => commentPayload(c, e.issue, e.comment, 'created') }]));
  h.events.on('comment.edited', 'webhooks', (e) => to(e, [{
    event: sub(e.issue.is_pull, 'comment'), build: (c) => commentPayload(c, e.issue, e.comment, 'edited', { changes: { body: { from: e.from } } }),
  }]));
  h.events.on('comment.deleted', 'webhooks', (e) => to(e, [{ event: sub(e.issue.is_pull, 'comment'), build: (c) => commentPayload(c, e.issue, e.comment, 'deleted') }]));
}

function subscribePullEvents(h: Hearth): void {
  const to = (e: DomainEvents['issue.opened'], ds: Delivery[]) => dispatch(h, e.repo, e.doer, ds);
  h.events.on('pull.merged', 'webhooks', (e) => to(e, [{ event: 'pull_request', build: (c) => issuePayload(c, e.issue, 'closed') }]));
  h.events.on('pull.synchronized', 'webhooks', (e) => to(e, [{ event: 'pull_request_sync', build: (c) => issuePayload(c, e.issue, 'synchronized') }]));
  h.events.on('pull.reviewed', 'webhooks', (e) => to(e, [{
    event: REVIEW_EVENT[e.verdict]!,
    build: (c) => issuePayload(c, e.issue, 'reviewed', { review: { type: REVIEW_EVENT[e.verdict], content: e.review.content } }),
  }]));
  h.events.on('pull.review_requested', 'webhooks', (e) => to(e, e.reviewers.map((r) => ({
    event: 'pull_request_review_request' as HookEvent,
    build: (c) => issuePayload(c, e.issue, e.removed ? 'review_request_removed' : 'review_requested', { requested_reviewer: apiUser(c, r) }),
  }))));
}

function subscribeRepos(h: Hearth): void {
  const release = (action: string) => (e: DomainEvents['release.published']) =>
    dispatch(h, e.repo, e.doer, [{ event: 'release', build: (c) => releasePayload(c, e.release, action) }]);
  h.events.on('release.published', 'webhooks', release('published'));
  h.events.on('release.updated', 'webhooks', release('updated'));
  h.events.on('release.deleted', 'webhooks', release('deleted'));
  h.events.on('repo.created', 'webhooks', (e) => dispatch(h, e.repo, e.doer, [{ event: 'repository', build: (c) => repositoryPayload(c, 'created') }]));
  h.events.on('repo.deleted', 'webhooks', (e) => dispatch(h, e.repo, e.doer, [{ event: 'repository', build: (c) => repositoryPayload(c, 'deleted') }]));
  h.events.on('wiki.page', 'webhooks', (e) => dispatch(h, e.repo, e.doer, [{
    event: 'wiki', build: (c) => ({ action: e.action, repository: c.repository, sender: c.sender, page: e.page, comment: e.comment }),
  }]));
  h.events.on('commit.status', 'webhooks', (e) => dispatch(h, e.repo, e.doer, [{ event: 'status', build: (c) => statusPayload(c, e.sha, e.status) }]));
  h.events.on('repo.forked', 'webhooks', (e) => dispatch(h, e.repo, e.doer, [{
    event: 'fork', build: async (c) => {
      const fork = await payloadContext(h, e.fork, e.doer);
      return { forkee: c.repository, repo: fork?.repository ?? null, sender: c.sender };
    },
  }]));
}

/** A push: only a cheap look for hooks in the request; the payloads are read from git in a job. */
function subscribePushes(h: Hearth): void {
  h.events.on('refs.moved', 'webhooks', async (e) => {
    if (!(await activeHooksFor(h.db, e.repo.id, e.repo.owner_id)).length) return;
    const job: PushJob = { repoId: e.repo.id, doerId: e.doer.id, updates: e.updates };
    await enqueueJob(h.db, { kind: PUSH_JOB, key: `repo:${e.repo.id}:hooks`, payload: job, maxAttempts: 3 });
  });
  h.jobs.register(PUSH_JOB, {
    backoff: () => 5,
    handler: async (p) => {
      const [repo, doer] = await Promise.all([getRepoById(h.db, p.repoId), getUserById(h.db, p.doerId)]);
      if (!repo || !doer) return;
      const owner = await getUserById(h.db, repo.owner_id);
      if (!owner) return;
      const dir = repoDir(h.config.repository.root, owner.name, repo.name);
      await dispatch(h, repo, doer, pushDeliveries(dir, doer, p.updates));
    },
  });
}

export function subscribeWebhooks(h: Hearth): void {
  subscribeIssues(h);
  subscribePullEvents(h);
  subscribeRepos(h);
  subscribePushes(h);
  h.jobs.register(DELIVER_JOB, { backoff: () => h.config.webhook.retry_backoff, handler: deliverJob(h, h.secret) });
}
