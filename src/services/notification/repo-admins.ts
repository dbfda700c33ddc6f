import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { nowUnix } from '../../lib/time';
import { listCollaboratorIds } from '../../models/collaboration';
import { insertIssueNotification, NOTIFY_SOURCE } from '../../models/notification';
import { getUserById } from '../../models/user';
import { orgMemberIds, touchThread, unreadRepoThread } from '../../models/repo-admin-notice';
import { orgRepoCreatorIds } from '../../models/team-rights';
import { accessMode, ACCESS, ORG_TYPE } from '../permissions';

/** The users with admin access to the repository: its owner, or its organization's admins, and admin collaborators. */
export async function repoAdminIds(db: DB, repo: Repository): Promise<number[]> {
  const owner = await getUserById(db, repo.owner_id);
  if (!owner) return [];
  const candidates = new Set<number>(await listCollaboratorIds(db, repo.id));
  if (owner.type === ORG_TYPE) {
    for (const uid of await orgMemberIds(db, owner.id)) candidates.add(uid);
  } else {
    candidates.add(owner.id);
  }
  const out: number[] = [];
  for (const id of candidates) {
    const user = await getUserById(db, id);
    if (user && user.is_active && (await accessMode(db, user, repo, owner)) >= ACCESS.admin) out.push(id);
  }
  return out;
}

/**
 * A pending transfer's recipient is told in a repository thread: the user, or each member of the
 * organization who may create repositories in it, as Gitea's CreateRepoTransferNotification.
 */
export async function notifyTransferRecipients(db: DB, repo: Repository, recipient: User, doerId: number): Promise<void> {
  const ids = recipient.type === ORG_TYPE ? await orgRepoCreatorIds(db, recipient.id) : [recipient.id];
  await threadsFor(db, repo, ids.filter((id) => id !== doerId), doerId);
}

async function threadsFor(db: DB, repo: Repository, ids: number[], updatedBy: number): Promise<void> {
  const now = nowUnix();
  for (const uid of ids) {
    const unread = await unreadRepoThread(db, uid, repo.id);
    if (unread) await touchThread(db, unread.id, now);
    else await insertIssueNotification(db, { user_id: uid, repo_id: repo.id, issue_id: 0, source: NOTIFY_SOURCE.repository, comment_id: 0, updated_by: updatedBy }, now);
  }
}

/**
 * A repository thread in each admin's notifications (subject type Repository), as Gitea notifies
 * of repository events; an unread one already there is only moved up.
 */
export async function notifyRepoAdmins(db: DB, repo: Repository): Promise<number> {
  const ids = await repoAdminIds(db, repo);
  await threadsFor(db, repo, ids, 0);
  return ids.length;
}
