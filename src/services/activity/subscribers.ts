import type { DB } from '../../db/connect';
import type { EventBus } from '../events/bus';
import type { DomainEvents } from '../events/types';
import {
  feedComment, feedForked, feedIssueCreated, feedMerged, feedReleasePublished, feedRepoRenamed, feedRepoTransferred,
  feedReview, feedReviewDismissed, feedStateChange,
} from './issue-feed';
import { recordRepoCreated } from './activity';
import { feedBranchCreated, feedRefUpdates } from './push-feed';

// The activity feed follows the domain events (Gitea's feed notifier).

const isZero = (id: string) => /^0+$/.test(id);

/** A branch created through the API names the ref without commits (Gitea's CreateRef); the rest as a push. */
async function feedRefsMoved(db: DB, e: DomainEvents['refs.moved']): Promise<void> {
  const created = e.source === 'branch' && e.updates.length === 1 && isZero(e.updates[0]!.oldId) && e.updates[0]!.ref.startsWith('refs/heads/');
  if (created) return feedBranchCreated(db, e.repo, e.doer, e.updates[0]!.ref.slice('refs/heads/'.length));
  return feedRefUpdates(db, e.repo.id, e.doer, e.dir, e.updates);
}

export function subscribeFeed(bus: EventBus, db: DB): void {
  bus.on('refs.moved', 'feed', (e) => feedRefsMoved(db, e));
  bus.on('issue.opened', 'feed', (e) => feedIssueCreated(db, e.doer, e.repo, e.issue));
  bus.on('issue.changed', 'feed', async (e) => {
    if (e.issue.is_closed !== e.before.is_closed) await feedStateChange(db, e.doer, e.repo, e.issue, e.issue.is_closed === 1);
  });
  bus.on('comment.created', 'feed', (e) => feedComment(db, e.doer, e.repo, e.issue, e.comment));
  bus.on('pull.merged', 'feed', (e) => feedMerged(db, e.repo.id, e.doer.id, e.issue, e.auto));
  bus.on('pull.reviewed', 'feed', async (e) => { if (e.event) await feedReview(db, e.doer, e.repo, e.issue, e.verdict, e.event); });
  bus.on('pull.review_dismissed', 'feed', async (e) => {
    if (e.dismissed) await feedReviewDismissed(db, e.doer, e.repo, e.issue, e.reviewer, e.message);
  });
  bus.on('release.published', 'feed', (e) => feedReleasePublished(db, e.doer, e.repo, e.release.title, e.release.tag_name));
  bus.on('repo.renamed', 'feed', (e) => feedRepoRenamed(db, e.doer, e.repo, e.oldName));
  bus.on('repo.transferred', 'feed', (e) => feedRepoTransferred(db, e.doer, e.repo, e.oldOwner));
  bus.on('repo.forked', 'feed', (e) => feedForked(db, e.doer, e.fork));
  // Best effort: the repository exists whatever happens to its feed row.
  bus.on('repo.created', 'feed', (e) => recordRepoCreated(db, e.doer, e.repo));
}
