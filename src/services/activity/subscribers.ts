import type { DB } from '../../db/connect';
import type { DomainEvents } from '../events/types';
import {
  feedComment, feedForked, feedIssueCreated, feedMerged, feedReleasePublished, feedRepoRenamed, feedRepoTransferred,
  feedReview, feedReviewDismissed, feedStateChange,
} from './issue-feed';
import { recordRepoCreated } from './activity';
import { feedBranchCreated, feedRefUpdates } from './push-feed';
import type { Hearth } from '../../hearth';

// The activity feed follows the domain events (Gitea's feed notifier).

const isZero = (id: string) => /^0+$/.test(id);

/** A branch created through the API names the ref without commits (Gitea's CreateRef); the rest as a push. */
async function feedRefsMoved(db: DB, e: DomainEvents['refs.moved']): Promise<void> {
  const created = e.source === 'branch' && e.updates.length === 1 && isZero(e.updates[0]!.oldId) && e.updates[0]!.ref.startsWith('refs/heads/');
  if (created) return feedBranchCreated(db, e.repo, e.doer, e.updates[0]!.ref.slice('refs/heads/'.length));
  return feedRefUpdates(db, e.repo.id, e.doer, e.dir, e.updates);
}

export function subscribeFeed(h: Hearth): void {
  h.events.on('refs.moved', 'feed', (e) => feedRefsMoved(h.db, e));
  h.events.on('issue.opened', 'feed', (e) => feedIssueCreated(h.db, e.doer, e.repo, e.issue));
  h.events.on('issue.changed', 'feed', async (e) => {
    if (e.issue.is_closed !== e.before.is_closed) await feedStateChange(h.db, e.doer, e.repo, e.issue, e.issue.is_closed === 1);
  });
  h.events.on('comment.created', 'feed', (e) => feedComment(h.db, e.doer, e.repo, e.issue, e.comment));
  h.events.on('pull.merged', 'feed', (e) => feedMerged(h.db, e.repo.id, e.doer.id, e.issue, e.auto));
  h.events.on('pull.reviewed', 'feed', async (e) => { if (e.event) await feedReview(h.db, e.doer, e.repo, e.issue, e.verdict, e.event); });
  h.events.on('pull.review_dismissed', 'feed', async (e) => {
    if (e.dismissed) await feedReviewDismissed(h.db, e.doer, e.repo, e.issue, e.reviewer, e.message);
  });
  h.events.on('release.published', 'feed', (e) => feedReleasePublished(h.db, e.doer, e.repo, e.release.title, e.release.tag_name));
  h.events.on('repo.renamed', 'feed', (e) => feedRepoRenamed(h.db, e.doer, e.repo, e.oldName));
  h.events.on('repo.transferred', 'feed', (e) => feedRepoTransferred(h.db, e.doer, e.repo, e.oldOwner));
  h.events.on('repo.forked', 'feed', (e) => feedForked(h.db, e.doer, e.fork));
  // Best effort: the repository exists whatever happens to its feed row.
  h.events.on('repo.created', 'feed', (e) => recordRepoCreated(h.db, e.doer, e.repo));
}
