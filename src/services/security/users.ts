import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { getUserById } from '../../models/user';

/** The users of some ids (0 skipped), for the dismissed_by of alerts. */
export async function usersByIds(db: DB, ids: number[]): Promise<Map<number, User>> {
  const out = new Map<number, User>();
  for (const id of new Set(ids)) {
    const u = id > 0 ? await getUserById(db, id) : undefined;
    if (u) out.set(id, u);
  }
  return out;
}
