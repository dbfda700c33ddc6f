import type { Hearth } from '../hearth';
import { subscribeFeed } from './activity/subscribers';
import { eventBus } from './events/bus';
import { JobQueue } from './jobs/queue';
import { subscribeClosingKeywords } from './issue/closing-keywords';
import { subscribeNotifications } from './notification/subscribers';
import { subscribePulls } from './pull/subscribers';
import { subscribePushMirrors } from './mirror/push-mirror-sync';
import { subscribeWebhooks } from './webhook/subscribers';
import { registerPullMirrorJobs } from './mirror/pull-mirror';
import { subscribeLicenses } from './repo/licenses';
import { subscribeDeletedBranches } from './repo/deleted-branch-record';
import { subscribeActions } from './actions/triggers';
import { subscribeDependencyAlerts } from './security/alerts';
import { registerRecoveryJobs } from './recovery/unclean-stop';
import { registerPackageIndexJobs } from './packages/repo-index/jobs';

// What runs beside the requests: the event subscribers (registered in this order: the feed,
// notifications, pull requests, closing keywords, webhooks) and the durable job queue's workers.

export type Background = { jobs: JobQueue; start: () => Promise<void>; stop: () => Promise<void> };

/** Registers the subscribers and job kinds; the workers start with start() (once the server listens). */
export function setUpBackground(h: Hearth): Background {
  const bus = eventBus(h.db);
  const jobs = new JobQueue(h.db, h.log, h.config.queue.workers);
  subscribeFeed(bus, h.db);
  subscribeNotifications(bus, h.db);
  subscribePulls(bus, h.db, h.config, jobs);
  subscribeClosingKeywords(bus, h.db, h.config);
  subscribeWebhooks(bus, h.db, h.config, h.secret, jobs);
  subscribePushMirrors(bus, h.db, h.config, h.secret, jobs);
  registerPullMirrorJobs(jobs, h);
  subscribeLicenses(bus, h.db, h.config);
  subscribeDeletedBranches(bus, h.db);
  subscribeActions(bus, h.db, h.config, h.secret, jobs);
  subscribeDependencyAlerts(bus, h.db, h.config, jobs);
  registerRecoveryJobs(jobs, h);
  registerPackageIndexJobs(jobs, h);
  return { jobs, start: () => jobs.start(), stop: () => jobs.stop() };
}
