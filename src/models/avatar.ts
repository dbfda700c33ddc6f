import type { DB } from '../db/connect';

/** The user whose uploaded avatar has this hash. */
export async function getUserIdByAvatar(db: DB, hash: string): Promise<number | undefined> {
  const row = await db.selectFrom('user').select('id').where('avatar', '=', hash).executeTakeFirst();
  return row?.id;
}
