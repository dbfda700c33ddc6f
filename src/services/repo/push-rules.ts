import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { zeroId } from '../../git/repo';
import { checkBranchProtection } from './branch-protection';
import type { RepoAccess } from './repos';

/** Environment that lets git see the pushed objects while they are still quarantined. */
export function quarantineEnv(dir: string, quarantine: string): Record<string, string> {
  if (!quarantine) return {};
  return { GIT_OBJECT_DIRECTORY: quarantine, GIT_ALTERNATE_OBJECT_DIRECTORIES: `${dir}/objects` };
}

/**
 * Decides whether a push's ref updates may land (the pre-receive hook asks). Returns the
 * reason for refusing, shown to the pusher as `remote:` lines, or null.
 */
export async function checkRefUpdates(
  db: DB, access: RepoAccess, doer: User, dir: string, quarantine: string, updates: RefUpdate[],
  opts: { deployKey?: boolean } = {},
): Promise<string | null> {
  const zero = zeroId(access.repo.object_format_name);
  for (const u of updates) {
    if (u.newId === zero && u.ref === `refs/heads/${access.repo.default_branch}`) {
      return `branch ${access.repo.default_branch} is the default branch and cannot be deleted`;
    }
  }
  return checkBranchProtection(db, access, doer, { dir, env: quarantineEnv(dir, quarantine) }, updates, opts);
}
