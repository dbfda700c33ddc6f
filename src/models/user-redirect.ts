import type { DB } from '../db/connect';

// Old names of renamed users and organizations (user_redirect), by lower-cased name.

export async function getUserRedirect(db: DB, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('user_redirect').select('redirect_user_id')
    .where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  return row?.redirect_user_id;
}

/** `oldName` now points at `userId`, replacing whatever it pointed at before. */
export async function setUserRedirect(db: DB, oldName: string, userId: number): Promise<void> {
  await deleteUserRedirect(db, oldName);
  await db.insertInto('user_redirect').values({ lower_name: oldName.toLowerCase(), redirect_user_id: userId }).execute();
}

export async function deleteUserRedirect(db: DB, name: string): Promise<void> {
  await db.deleteFrom('user_redirect').where('lower_name', '=', name.toLowerCase()).execute();
}

export async function deleteRedirectsToUser(db: DB, userId: number): Promise<void> {
  await db.deleteFrom('user_redirect').where('redirect_user_id', '=', userId).execute();
}
