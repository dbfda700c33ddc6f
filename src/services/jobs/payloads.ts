import type { TriggerJob } from '../actions/triggers';
import type { IndexJob, INDEX_JOB_KINDS } from '../packages/repo-index/jobs';
import type { AutoMergeJob } from '../pull/pull-auto-merge';
import type { FollowUpJob } from '../pull/pull-follow-queue';
import type { PushMirrorJob } from '../mirror/push-mirror-sync';
import type { DeliverJob } from '../webhook/dispatch';
import type { PushJob } from '../webhook/push-dispatch';

// Each durable job kind with the payload its handler reads, as the events have DomainEvents:
// enqueueJob and JobQueue.register take a kind of this map, so a payload and its handler cannot
// drift apart. An interface, so that a test may add kinds of its own (declaration merging).

type IndexKinds = { [K in (typeof INDEX_JOB_KINDS)[keyof typeof INDEX_JOB_KINDS]]: IndexJob };

export interface JobPayloads extends IndexKinds {
  'webhook.push': PushJob;
  'webhook.deliver': DeliverJob;
  'actions.trigger': TriggerJob;
  'pull.auto-merge': AutoMergeJob;
  'pull.follow-up': FollowUpJob;
  'mirror.pull': { repoId: number };
  'mirror.push': PushMirrorJob;
  'recovery.branch-rows': Record<string, never>;
  'security.dependency_scan': { repoId: number };
}

export type JobKindName = keyof JobPayloads;
