import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { USER_TYPE_INDIVIDUAL } from './user';

/** Users (not organizations) never activated, or deactivated, created before `createdBefore` (unix s). */
export async function listInactiveUsers(db: DB, createdBefore: number): Promise<User[]> {
  return db.selectFrom('user').selectAll()
    .where('type', '=', USER_TYPE_INDIVIDUAL).where('is_active', '=', 0).where('created_unix', '<', createdBefore)
    .orderBy('id').execute();
}
