import type { Hearth } from '../hearth';
import { subscribeOnFirstEmit } from './events/bus';
import type { JobQueue } from './jobs/queue';

// What runs beside the requests: the event subscribers (registered in this order: the feed,
// notifications, pull requests, closing keywords, webhooks) and the durable job queue's workers.
// The subscribers' modules (webhooks, Actions, mirrors, alerts and the services they call) load
// with the first event emitted or the first job due, not at start: most of a start's modules
// were theirs, and a start that serves no write never needs them.

export type Background = { jobs: JobQueue; start: () => Promise<void>; stop: () => Promise<void> };

/** Registers the subscribers and job kinds on first use; the workers start with start() (once the server listens). */
export function setUpBackground(h: Hearth): Background {
  const jobs = h.jobs;
  let loading: Promise<void> | undefined;
  const load = () => (loading ??= registerAll(h).catch((err: unknown) => { loading = undefined; throw err; }));
  subscribeOnFirstEmit(h.db, load);
  jobs.registerOnFirstJob(load);
  return { jobs, start: () => jobs.start(), stop: () => jobs.stop() };
}

async function registerAll(h: Hearth): Promise<void> {

  const jobs = h.jobs;
  const [feed, notifications, pulls, closing, webhooks, pushMirrors, pullMirrors, licenses, actions, alerts, recovery] = await Promise.all([
    import('./activity/subscribers'), import('./notification/subscribers'), import('./pull/subscribers'),
    import('./issue/closing-keywords'), import('./webhook/subscribers'), import('./mirror/push-mirror-sync'),
    import('./mirror/pull-mirror'), import('./repo/licenses'), import('./actions/triggers'), import('./security/alerts'),
    import('./recovery/unclean-stop'),
  ]);
  const [deletedBranches, packageIndexes] = await Promise.all([import('./repo/deleted-branch-record'), import('./packages/repo-index/jobs')]);
  feed.subscribeFeed(h);
  notifications.subscribeNotifications(h);
  pulls.subscribePulls(h);
  closing.subscribeClosingKeywords(h);
  webhooks.subscribeWebhooks(h);
  pushMirrors.subscribePushMirrors(h);
  pullMirrors.registerPullMirrorJobs(jobs, h);
  licenses.subscribeLicenses(h);
  deletedBranches.subscribeDeletedBranches(h);
  actions.subscribeActions(h);
  alerts.subscribeDependencyAlerts(h);
  recovery.registerRecoveryJobs(jobs, h);
  packageIndexes.registerPackageIndexJobs(jobs, h);
}
