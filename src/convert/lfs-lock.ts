import { isoTime } from '../lib/time';
import type { LockWithOwner } from '../services/lfs/locks';

/** Gitea's ToLFSLock (api.LFSLock): the id as a string, the owner by name. */
export const toLfsLock = ({ lock, owner }: LockWithOwner) => ({
  id: String(lock.id),
  path: lock.path,
  locked_at: isoTime(lock.created_unix),
  owner: { name: owner?.name ?? '' },
});
