import type { DB } from '../../db/connect';
import type { Comment, Issue, Notification, Repository, User } from '../../db/schema';
import { parseRfc3339 } from '../../lib/dates';
import { BadRequestError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { issuesByIds } from '../../models/issue';
import {
  countNotifications, getNotificationById, lastCommentsOf, listNotifications, NOTIFY_SOURCE, NOTIFY_STATUS,
  setNotificationStatus, type NotificationFilter,
} from '../../models/notification';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';

// A user's notification threads (Gitea's routers/api/v1/notify): listing, counting, marking.

/** A thread with what its subject needs: the repository, and the issue with its latest comment. */
export type NotificationView = {
  n: Notification; repo: Repository; owner: User; issue?: Issue; lastComment?: Comment; merged?: boolean;
};

export type ListQuery = {
  all?: boolean; statusTypes: string[]; subjectTypes: string[]; since?: string; before?: string;
};
export type MarkQuery = { lastReadAt?: string; all?: boolean; statusTypes: string[]; toStatus?: string };

/** A thread's status when pinned (pages show it apart). */
export const PINNED = NOTIFY_STATUS.pinned;

const STATUS: Record<string, number> = { unread: NOTIFY_STATUS.unread, read: NOTIFY_STATUS.read, pinned: NOTIFY_STATUS.pinned };
const SOURCE: Record<string, number> = {
  issue: NOTIFY_SOURCE.issue, pull: NOTIFY_SOURCE.pull, commit: NOTIFY_SOURCE.commit, repository: NOTIFY_SOURCE.repository,
};

const statusOf = (s: string | undefined) => STATUS[(s ?? '').trim().toLowerCase()] ?? 0;

/** Gitea's statusStringsToNotificationStatuses: unknown names dropped; none given is the default. */
function statuses(names: string[], defaults: string[]): number[] {
  return (names.length ? names : defaults).map(statusOf).filter((s) => s > 0);
}

function time(field: string, value: string | undefined): number | undefined {
  if (!value) return undefined;
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError(`[${field}]: invalid time, expected RFC 3339`, field);
  return unix;
}

function listFilter(user: User, q: ListQuery, repoId?: number): NotificationFilter {
  return {
    userId: user.id, repoId,
    statuses: q.all ? undefined : statuses(q.statusTypes, ['unread', 'pinned']),
    sources: q.subjectTypes.map((t) => SOURCE[t.toLowerCase()] ?? 0).filter((s) => s > 0),
    updatedSince: time('since', q.since), updatedBefore: time('before', q.before),
  };
}

/** What the converter needs for each thread, loaded in bulk. */
async function views(db: DB, rows: Notification[]): Promise<NotificationView[]> {
  const issueIds = [...new Set(rows.map((n) => n.issue_id).filter((id) => id > 0))];
  const issues = new Map((await issuesByIds(db, issueIds)).map((i) => [i.id, i]));
  const lastComments = await lastCommentsOf(db, issueIds);
  const out: NotificationView[] = [];
  for (const n of rows) {
    const repo = await getRepoById(db, n.repo_id);
    const owner = repo && (await getUserById(db, repo.owner_id));
    if (!repo || !owner) continue;
    out.push({ n, repo, owner, issue: issues.get(n.issue_id), lastComment: lastComments.get(n.issue_id) });
  }
  return out;
}

/** GET /notifications and /repos/{owner}/{repo}/notifications. */
export async function listThreads(
  db: DB, user: User, q: ListQuery, page: { offset: number; limit: number }, repoId?: number,
): Promise<{ views: NotificationView[]; total: number }> {
  const f = listFilter(user, q, repoId);
  const [rows, total] = await Promise.all([listNotifications(db, f, page), countNotifications(db, f)]);
  return { views: await views(db, rows), total };
}

/** GET /notifications/new: unread threads. */
export async function countNew(db: DB, user: User): Promise<number> {
  return countNotifications(db, { userId: user.id, statuses: [NOTIFY_STATUS.unread] });
}

/** PUT /notifications and /repos/{owner}/{repo}/notifications: 400 for a bad last_read_at, as Gitea. */
export async function markThreads(db: DB, user: User, q: MarkQuery, repoId?: number): Promise<NotificationView[]> {
  let lastRead: number | undefined;
  if (q.lastReadAt) {
    const unix = parseRfc3339(q.lastReadAt);
    if (unix === null) throw new BadRequestError(`parsing time "${q.lastReadAt}": invalid RFC 3339 time`);
    lastRead = unix;
  }
  const f: NotificationFilter = {
    userId: user.id, repoId, updatedBefore: lastRead, statuses: q.all ? undefined : statuses(q.statusTypes, ['unread']),
  };
  const target = statusOf(q.toStatus) || NOTIFY_STATUS.read;
  const now = nowUnix();
  const rows = await db.transaction().execute(async (trx) => {
    const found = await listNotifications(trx, f);
    for (const n of found) await setNotificationStatus(trx, n.id, target, now);
    return found.map((n) => ({ ...n, status: target, updated_unix: now }));
  });
  return views(db, rows);
}

/** The caller's own thread (site administrators may read anyone's); 404 when missing. */
async function threadOf(db: DB, user: User, id: number, write: boolean): Promise<Notification> {
  const n = Number.isSafeInteger(id) && id > 0 ? await getNotificationById(db, id) : undefined;
  if (!n) throw new NotFoundError(`notification does not exist [id: ${id}]`);
  if (n.user_id !== user.id && (write || !user.is_admin)) {
    throw new ForbiddenError(`only user itself and admin are allowed to read/change this thread ${id}`);
  }
  return n;
}

/** GET /notifications/threads/{id} */
export async function getThread(db: DB, user: User, id: number): Promise<NotificationView> {
  const [view] = await views(db, [await threadOf(db, user, id, false)]);
  if (!view) throw new NotFoundError(`notification does not exist [id: ${id}]`);
  return view;
}

/** PATCH /notifications/threads/{id}: to-status, read by default. */
export async function markThread(db: DB, user: User, id: number, toStatus: string | undefined): Promise<NotificationView> {
  const n = await threadOf(db, user, id, true);
  const status = statusOf(toStatus) || NOTIFY_STATUS.read;
  const now = nowUnix();
  await setNotificationStatus(db, n.id, status, now);
  const [view] = await views(db, [{ ...n, status, updated_unix: now }]);
  if (!view) throw new NotFoundError(`notification does not exist [id: ${id}]`);
  return view;
}
