import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { notifyRepoAdmins } from '../notification/repo-admins';

/** New dependency alerts: the repository's admins are told (one thread per repository). */
export async function notifyNewAlerts(db: DB, repo: Repository): Promise<void> {
  await notifyRepoAdmins(db, repo);
}
