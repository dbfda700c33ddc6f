import type { DB } from '../../db/connect';
import type { Comment, Issue, Repository, User } from '../../db/schema';
import { backgroundError } from '../../lib/background-log';
import { mentionCandidates } from '../../lib/markdown';
import { nowUnix } from '../../lib/time';
import { accountsByNames } from '../../models/mentions';
import {
  assigneeIds, getIssueNotification, insertIssueNotification, issueWatcherIds, NOTIFY_SOURCE, participantIds,
  repoWatcherIds, touchIssueNotification,
} from '../../models/notification';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { usersByIds } from '../../models/user-lookup';
import { getUserById } from '../../models/user';
import { ACCESS, accessMode } from '../permissions';
import { settingsOf } from '../repo/repo-settings';

// Notification threads for issue events (Gitea's createOrUpdateIssueNotifications). Sent after
// the event's transaction: a failure is logged, never turned into a failed request.

export type IssueEvent = {
  issue: Issue; repo: Repository; doer: Pick<User, 'id'>; commentId?: number;
  /** Only these users (Gitea's receiverID, for assignments); default: everyone concerned. */
  receivers?: number[];
  /** The body or comment of the event: users `@mentioned` in it are told too, opted out or not. */
  text?: string;
};

/** Gitea leaves repository watchers out of work-in-progress pulls (default WIP prefixes). */
const isWip = (title: string) => ['wip:', '[wip]'].some((p) => title.toLowerCase().startsWith(p));

/** Everyone concerned: participants, assignees, issue and repository watchers minus opt-outs, the mentioned; never the doer. */
async function audience(db: DB, e: IssueEvent): Promise<Set<number>> {
  if (e.receivers) return new Set(e.receivers.filter((id) => id !== e.doer.id));
  // Independent reads, side by side: on PostgreSQL each is a round trip on a pool connection of
  // its own (SQLite runs them one after the other as before).
  const [participants, assignees, watching, repoWatchers, optedOut] = await Promise.all([
    participantIds(db, e.issue.id, e.issue.poster_id),
    assigneeIds(db, e.issue.id),
    issueWatcherIds(db, e.issue.id, true),
    e.issue.is_pull && isWip(e.issue.title) ? [] : repoWatcherIds(db, e.issue.repo_id),
    issueWatcherIds(db, e.issue.id, false),
  ]);
  const ids = new Set<number>([...participants, ...assignees, ...watching, ...repoWatchers]);
  for (const id of optedOut) ids.delete(id);
  const mentioned = e.text ? await accountsByNames(db, mentionCandidates(e.text)) : [];
  for (const u of mentioned) if (u.type === 0) ids.add(u.id);
  ids.delete(e.doer.id);
  return ids;
}

async function send(db: DB, e: IssueEvent, ids: Set<number>): Promise<void> {
  const owner = await getUserById(db, e.repo.owner_id);
  const unit = e.issue.is_pull ? 'repo.pulls' : 'repo.issues';
  const now = nowUnix();
  for (const user of await usersByIds(db, [...ids])) {
    if ((await accessMode(db, user, e.repo, owner, unit)) < ACCESS.read) continue;
    const existing = await getIssueNotification(db, user.id, e.issue.id);
    if (existing) {
      await touchIssueNotification(db, existing, e.commentId ?? 0, e.doer.id, now);
      continue;
    }
    await insertIssueNotification(db, {
      user_id: user.id, repo_id: e.repo.id, issue_id: e.issue.id, comment_id: e.commentId ?? 0, updated_by: e.doer.id,
      source: e.issue.is_pull ? NOTIFY_SOURCE.pull : NOTIFY_SOURCE.issue,
    }, now);
  }
}

/** Creates or refreshes the threads of an issue event; never throws. */
export async function notifyIssueEvent(db: DB, e: IssueEvent): Promise<void> {
  try {
    const s = settingsOf(e.repo);
    if (!(e.issue.is_pull ? s.has_pull_requests : s.has_issues)) return;
    // Read before the transaction: most events reach no one, and then none is begun.
    const ids = await audience(db, e);
    if (ids.size) await db.transaction().execute((trx) => send(trx, e, ids));
  } catch (err) {
    report(err, e.issue.id);
  }
}

function report(err: unknown, issueId: number): void {
  backgroundError({ err, issue: issueId }, 'issue notification failed');
}

/**
 * After an edit: a close or reopen reaches everyone concerned, a new assignment only the new
 * assignee (Gitea's IssueChangeStatus and IssueChangeAssignee), read from the edit's events.
 */
export async function notifyIssueChange(db: DB, e: Omit<IssueEvent, 'commentId' | 'receivers'> & { events: Comment[] }): Promise<void> {
  const events = e.events.filter((c) => c.poster_id === e.doer.id && NOTIFIED_CHANGES.has(c.type));
  const state = events.filter((c) => c.type !== COMMENT_TYPE.assignees).at(-1);
  if (state) await notifyIssueEvent(db, { ...e, commentId: state.id });
  for (const c of events.filter((x) => x.type === COMMENT_TYPE.assignees && !x.removed_assignee)) {
    await notifyIssueEvent(db, { ...e, commentId: c.id, receivers: [c.assignee_id] });
  }
}

const NOTIFIED_CHANGES = new Set<number>([COMMENT_TYPE.close, COMMENT_TYPE.reopen, COMMENT_TYPE.assignees]);
