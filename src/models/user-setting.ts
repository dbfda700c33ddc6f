import type { DB } from '../db/connect';

// Gitea's user_setting rows (migration 0044): one value per user and key.

export async function getUserSetting(db: DB, userId: number, key: string): Promise<string | null> {
  const row = await db.selectFrom('user_setting').select('setting_value').where('user_id', '=', userId).where('setting_key', '=', key).executeTakeFirst();
  return row ? row.setting_value : null;
}

export async function setUserSetting(db: DB, userId: number, key: string, value: string): Promise<void> {
  await db.insertInto('user_setting').values({ user_id: userId, setting_key: key, setting_value: value })
    .onConflict((oc) => oc.columns(['user_id', 'setting_key']).doUpdateSet({ setting_value: value })).execute();
}

export const deleteUserSettings = (db: DB, userId: number) => db.deleteFrom('user_setting').where('user_id', '=', userId).execute();
