import type { DB } from '../../db/connect';
import type { EventBus } from '../events/bus';
import { notifyIssueChange, notifyIssueEvent } from './notify';
import { notifyTransferRecipients } from './repo-admins';

// Notification threads follow the domain events (Gitea's mail/UI notifiers).

export function subscribeNotifications(bus: EventBus, db: DB): void {
  bus.on('issue.opened', 'notifications', (e) => notifyIssueEvent(db, { issue: e.issue, repo: e.repo, doer: e.doer, text: e.issue.content }));
  bus.on('comment.created', 'notifications', (e) =>
    notifyIssueEvent(db, { issue: e.issue, repo: e.repo, doer: e.doer, commentId: e.comment.id, text: e.comment.content }));
  bus.on('issue.changed', 'notifications', (e) => notifyIssueChange(db, { issue: e.issue, repo: e.repo, doer: e.doer, events: e.events }));
  bus.on('repo.transfer_pending', 'notifications', (e) => notifyTransferRecipients(db, e.repo, e.recipient, e.doer.id));
  bus.on('pull.review_requested', 'notifications', async (e) => {
    if (e.notify.length) await notifyIssueEvent(db, { issue: e.issue, repo: e.repo, doer: e.doer, receivers: e.notify });
  });
}
