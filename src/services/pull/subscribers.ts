import { attemptAutoMerge, AUTO_MERGE_JOB, autoMergeAfterReview, autoMergeAt, followPush, runFollowPush } from './pull-auto-merge';
import { FOLLOW_UP_JOB } from './pull-follow-queue';
import type { Hearth } from '../../hearth';

// Pull requests follow the domain events: moved refs re-test them (after the answer, a durable
// job per repository), and a success status, an approval or a dismissal may complete the checks
// of a scheduled merge, which then runs from the durable job queue (Gitea's automerge queue).

export function subscribePulls(h: Hearth): void {
  h.events.on('refs.moved', 'pull follow-ups', (e) => followPush(h, e.repo.id, e.doer.id));
  h.events.on('commit.status', 'auto-merge', async (e) => { if (e.status.state === 'success') await autoMergeAt(h.db, e.repo.id, e.sha); });
  h.events.on('pull.reviewed', 'auto-merge', async (e) => { if (e.verdict === 'approve') await autoMergeAfterReview(h.db, e.repo.id, e.issue.id); });
  h.events.on('pull.review_dismissed', 'auto-merge', (e) => autoMergeAfterReview(h.db, e.repo.id, e.issue.id));
  h.jobs.register(AUTO_MERGE_JOB, {
    backoff: () => 10,
    handler: async ({ issueId, sha }) => { await attemptAutoMerge(h, issueId, sha); },
  });
  h.jobs.register(FOLLOW_UP_JOB, { backoff: () => 10, handler: (payload, ctx) => runFollowPush(h, payload, ctx.jobId) });
}
