import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { EventBus } from '../events/bus';
import type { JobQueue } from '../jobs/queue';
import { attemptAutoMerge, AUTO_MERGE_JOB, autoMergeAfterReview, autoMergeAt, followPush } from './pull-auto-merge';

// Pull requests follow the domain events: moved refs re-test them (after the answer, queued
// per repository), and a success status, an approval or a dismissal may complete the checks
// of a scheduled merge, which then runs from the durable job queue (Gitea's automerge queue).

export function subscribePulls(bus: EventBus, db: DB, config: Config, jobs: JobQueue): void {
  bus.on('refs.moved', 'pull follow-ups', (e) => followPush(db, config, e.repo.id, e.doer.id));
  bus.on('commit.status', 'auto-merge', async (e) => { if (e.status.state === 'success') await autoMergeAt(db, e.repo.id, e.sha); });
  bus.on('pull.reviewed', 'auto-merge', async (e) => { if (e.verdict === 'approve') await autoMergeAfterReview(db, e.repo.id, e.issue.id); });
  bus.on('pull.review_dismissed', 'auto-merge', (e) => autoMergeAfterReview(db, e.repo.id, e.issue.id));
  jobs.register(AUTO_MERGE_JOB, {
    backoff: () => 10,
    handler: async ({ issueId, sha }) => { await attemptAutoMerge(db, config, issueId, sha); },
  });
}
