import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { BlockedError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import * as collab from '../../models/collaboration';
import { getUserByName } from '../../models/user';
import { ACCESS, accessMode, ORG_TYPE, type AccessMode } from '../permissions';
import type { RepoAccess } from './repos';
import { markWatch } from './stars';
import { emit } from '../events/bus';
import { recordAudit, userTarget } from '../audit/record';

export const COLLABORATOR_MODES = { read: ACCESS.read, write: ACCESS.write, admin: ACCESS.admin } as const;
export type CollaboratorPermission = keyof typeof COLLABORATOR_MODES;

type Page = { offset: number; limit: number };

/** The user named in the path; Gitea answers 422 when it does not exist. */
async function namedUser(db: DB, name: string): Promise<User> {
  const user = await getUserByName(db, name);
  if (!user) throw new InvalidError(`user does not exist [name: ${name}]`, 'collaborator');
  return user;
}

export async function listRepoCollaborators(db: DB, access: RepoAccess, page: Page): Promise<{ users: User[]; total: number }> {
  const [users, total] = await Promise.all([
    collab.listCollaborators(db, access.repo.id, page.offset, page.limit),
    collab.countCollaborators(db, access.repo.id),
  ]);
  return { users, total };
}

export async function isRepoCollaborator(db: DB, access: RepoAccess, name: string): Promise<boolean> {
  const user = await namedUser(db, name);
  return !!(await collab.getCollaboration(db, access.repo.id, user.id));
}

/** PUT .../collaborators/{name}: adds the user or changes their mode (default write). */
export async function addCollaborator(db: DB, access: RepoAccess, name: string, permission?: CollaboratorPermission): Promise<void> {
  const { repo, owner } = access;
  const user = await namedUser(db, name);
  if (user.type === ORG_TYPE) throw new InvalidError('an organization cannot be a collaborator', 'collaborator');
  if (!user.is_active) throw new InvalidError('collaborator\'s account is inactive', 'collaborator');
  if (user.id === owner.id) throw new InvalidError('the owner of a repository cannot be its collaborator', 'collaborator');
  if ((await isBlockedBy(db, user.id, [owner.id])) || (await isBlockedBy(db, owner.id, [user.id]))) {
    throw new BlockedError('user is blocked');
  }
  const mode = COLLABORATOR_MODES[permission ?? 'write'];
  await db.transaction().execute(async (trx) => {
    const before = await collab.getCollaboration(trx, repo.id, user.id);
    await collab.upsertCollaboration(trx, repo.id, user.id, mode, nowUnix());
    await recordAudit(trx, {
      op: before ? 'repo.collaborator.update' : 'repo.collaborator.add', target: userTarget(user), repo,
      extra: { mode, ...(before ? { old_mode: before.mode } : {}) },
    });
  });
  await emit(db, 'collaborator.added', { repo, collaborator: user, mode });
}

/** DELETE .../collaborators/{name}: as Gitea, the user also stops watching the repository. */
export async function removeCollaborator(db: DB, access: RepoAccess, name: string): Promise<void> {
  const user = await namedUser(db, name);
  await db.transaction().execute(async (trx) => {
    if (!(await collab.deleteCollaboration(trx, access.repo.id, user.id))) return;
    await markWatch(trx, user.id, access.repo.id, false);
    await recordAudit(trx, { op: 'repo.collaborator.remove', target: userTarget(user), repo: access.repo });
  });
}

/**
 * The access mode `name` has on the repository. Site admins and repository admins may ask
 * about anyone, others only about themselves.
 */
export async function collaboratorPermission(db: DB, access: RepoAccess, doer: User, name: string): Promise<{ user: User; mode: AccessMode }> {
  if (!doer.is_admin && doer.lower_name !== name.toLowerCase() && access.mode < ACCESS.admin) {
    throw new ForbiddenError('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
  }
  const user = await getUserByName(db, name);
  if (!user) throw new NotFoundError(`user does not exist [name: ${name}]`);
  return { user, mode: await accessMode(db, user, access.repo, access.owner) };
}

/** Every collaborator with their access mode (the settings page lists and changes them). */
export async function collaboratorsWithModes(db: DB, access: RepoAccess): Promise<{ user: User; mode: AccessMode }[]> {
  const users = await collab.listCollaborators(db, access.repo.id, 0, 1000);
  const rows = await Promise.all(users.map((u) => collab.getCollaboration(db, access.repo.id, u.id)));
  return users.map((user, i) => ({ user, mode: (rows[i]?.mode ?? ACCESS.read) as AccessMode }));
}
