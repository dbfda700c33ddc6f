import type { User } from '../db/schema';
import { isoTime } from '../lib/time';
import type { LockWithOwner } from '../services/lfs/locks';

/** Gitea's DisplayName: the full name, trimmed, when there is one; else the login name. */
const displayName = (u: User | undefined) => (u ? u.full_name.trim() || u.name : '');

/** Gitea's ToLFSLock (api.LFSLock): the id as a string, the owner by display name. */
export const toLfsLock = ({ lock, owner }: LockWithOwner) => ({
  id: String(lock.id),
  path: lock.path,
  locked_at: isoTime(lock.created_unix),
  owner: { name: displayName(owner) },
});
