import { notifyIssueChange, notifyIssueEvent } from './notify';
import { notifyTransferRecipients } from './repo-admins';
import type { Hearth } from '../../hearth';

// Notification threads follow the domain events (Gitea's mail/UI notifiers).

export function subscribeNotifications(h: Hearth): void {
  h.events.on('issue.opened', 'notifications', (e) => notifyIssueEvent(h.db, { issue: e.issue, repo: e.repo, doer: e.doer, text: e.issue.content }));
  h.events.on('comment.created', 'notifications', (e) =>
    notifyIssueEvent(h.db, { issue: e.issue, repo: e.repo, doer: e.doer, commentId: e.comment.id, text: e.comment.content }));
  h.events.on('issue.changed', 'notifications', (e) => notifyIssueChange(h.db, { issue: e.issue, repo: e.repo, doer: e.doer, events: e.events }));
  h.events.on('repo.transfer_pending', 'notifications', (e) => notifyTransferRecipients(h.db, e.repo, e.recipient, e.doer.id));
  h.events.on('pull.review_requested', 'notifications', async (e) => {
    if (e.notify.length) await notifyIssueEvent(h.db, { issue: e.issue, repo: e.repo, doer: e.doer, receivers: e.notify });
  });
}
