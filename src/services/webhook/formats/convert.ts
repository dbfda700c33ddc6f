// Gitea's payloadConvertor (services/webhook/payloader.go): which converter method an event goes to.

import type { HookEvent } from './types';
import type {
  CommentPayload, ForkPayload, IssuePayload, PackagePayload, PullPayload, PushPayload, RefPayload, ReleasePayload,
  RepositoryPayload, StatusPayload, WikiPayload, WorkflowJobPayload, WorkflowRunPayload,
} from './payloads';

/** One chat format: a method per payload kind, each answering the body object to send (null: send nothing). */
export interface Convertor<T> {
  create(p: RefPayload): T;
  delete(p: RefPayload): T;
  fork(p: ForkPayload): T;
  push(p: PushPayload): T;
  issue(p: IssuePayload): T;
  issueComment(p: CommentPayload): T;
  pullRequest(p: PullPayload): T;
  /** Null where Gitea's parseHookPullRequestEventType fails and the delivery errors out. */
  review(p: PullPayload, event: HookEvent): T | null;
  repository(p: RepositoryPayload): T;
  release(p: ReleasePayload): T;
  wiki(p: WikiPayload): T;
  package(p: PackagePayload): T;
  status(p: StatusPayload): T;
  workflowRun(p: WorkflowRunPayload): T;
  workflowJob(p: WorkflowJobPayload): T;
}

const ISSUE_EVENTS = new Set<string>(['issues', 'issue_assign', 'issue_label', 'issue_milestone']);
const PULL_EVENTS = new Set<string>([
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone',
  'pull_request_sync', 'pull_request_review_request',
]);
const REVIEW_EVENTS = new Set<string>([
  'pull_request_review_approved', 'pull_request_review_rejected', 'pull_request_review_comment',
]);

type Loose = Record<string, unknown>;

/** Gitea's newPayload: routes the event's payload to the converter; null for an event it does not know. */
export function convert<T>(c: Convertor<T>, event: HookEvent, payload: Loose): T | null {
  const p = payload as never;
  if (ISSUE_EVENTS.has(event)) return c.issue(p);
  if (PULL_EVENTS.has(event)) return c.pullRequest(p);
  if (REVIEW_EVENTS.has(event)) return c.review(p, event);
  switch (event) {
    case 'create': return c.create(p);
    case 'delete': return c.delete(p);
    case 'fork': return c.fork(p);
    case 'push': return c.push(p);
    case 'issue_comment':
    case 'pull_request_comment': return c.issueComment(p);
    case 'repository': return c.repository(p);
    case 'release': return c.release(p);
    case 'wiki': return c.wiki(p);
    case 'package': return c.package(p);
    case 'status': return c.status(p);
    case 'workflow_run': return c.workflowRun(p);
    case 'workflow_job': return c.workflowJob(p);
    default: return null;
  }
}
