import type { DB } from '../db/connect';
import type { Repository, User } from '../db/schema';
import { getCollaboratorMode } from '../models/repo';
import { getUserById } from '../models/user';
import { isUserVisibleTo } from './visibility';

// Gitea's access modes, in order: every check compares against these.
export const ACCESS = { none: 0, read: 1, write: 2, admin: 3, owner: 4 } as const;
export type AccessMode = (typeof ACCESS)[keyof typeof ACCESS];
export const accessName = (m: number) => (['none', 'read', 'write', 'admin', 'owner'] as const)[m] ?? 'none';

/**
 * The one access function: what `user` (null: anonymous) may do on `repo`.
 * Site admins and owners are owner; collaborators get their mode; public repositories of
 * visible owners give read to everyone but restricted users. Organizations plug in here.
 */
export async function accessMode(db: DB, user: User | null, repo: Repository, owner?: User): Promise<AccessMode> {
  if (user?.is_admin) return ACCESS.owner;
  if (user && user.id === repo.owner_id) return ACCESS.owner;
  let mode: AccessMode = ACCESS.none;
  if (user) mode = ((await getCollaboratorMode(db, repo.id, user.id)) ?? ACCESS.none) as AccessMode;
  if (mode > ACCESS.none) return mode;
  if (repo.is_private) return ACCESS.none;
  const repoOwner = owner ?? (await getUserById(db, repo.owner_id));
  if (!repoOwner || !isUserVisibleTo(repoOwner, user)) return ACCESS.none;
  if (user?.is_restricted) return ACCESS.none;
  return ACCESS.read;
}
