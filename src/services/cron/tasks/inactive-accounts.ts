import { listInactiveUsers } from '../../../models/inactive-users';
import { InvalidError } from '../../../lib/errors';
import { deleteUser } from '../../user/users';
import type { CronContext } from '../types';

/**
 * delete_inactive_accounts (Gitea's DeleteInactiveUsers): accounts not active, created more than
 * `olderThanMs` ago (0: any age), are deleted. As Gitea, one that still owns repositories or
 * belongs to organizations (or is the last admin) is kept and logged.
 */
export async function deleteInactiveAccounts(ctx: CronContext, olderThanMs: number): Promise<string> {
  const before = olderThanMs > 0 ? Math.floor((Date.now() - olderThanMs) / 1000) : Number.MAX_SAFE_INTEGER;
  const users = await listInactiveUsers(ctx.db, before);
  const kept: string[] = [];
  for (const user of users) {
    if (ctx.signal.aborted) throw new Error(`cancelled before deleting ${user.name}`);
    try {
      await deleteUser(ctx.db, user);
    } catch (err) {
      if (!(err instanceof InvalidError)) throw err;
      ctx.log.warn({ user: user.name, reason: err.message }, 'inactive account kept');
      kept.push(user.name);
    }
  }
  const deleted = users.length - kept.length;
  return `deleted ${deleted} inactive accounts${kept.length ? `; kept ${kept.join(', ')} (repositories, organizations or last admin)` : ''}`;
}
