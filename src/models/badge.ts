import type { DB } from '../db/connect';
import type { Badge } from '../db/schema';

export async function insertBadge(db: DB, row: { slug: string; description: string; image_url: string }): Promise<Badge> {
  return db.insertInto('badge').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getBadgeBySlug(db: DB, slug: string): Promise<Badge | undefined> {
  return db.selectFrom('badge').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function badgesBySlugs(db: DB, slugs: string[]): Promise<Badge[]> {
  if (!slugs.length) return [];
  return db.selectFrom('badge').selectAll().where('slug', 'in', slugs).execute();
}

export async function listUserBadges(db: DB, userId: number): Promise<Badge[]> {
  return db.selectFrom('user_badge').innerJoin('badge', 'badge.id', 'user_badge.badge_id')
    .select(['badge.id', 'badge.slug', 'badge.description', 'badge.image_url'])
    .where('user_badge.user_id', '=', userId).orderBy('badge.id').execute();
}

/** Gives the badges; one already held stays once. */
export async function addUserBadges(db: DB, userId: number, badgeIds: number[]): Promise<void> {
  if (!badgeIds.length) return;
  await db.insertInto('user_badge').values(badgeIds.map((id) => ({ user_id: userId, badge_id: id })))
    .onConflict((oc) => oc.columns(['user_id', 'badge_id']).doNothing()).execute();
}

export async function removeUserBadges(db: DB, userId: number, badgeIds: number[]): Promise<void> {
  if (!badgeIds.length) return;
  await db.deleteFrom('user_badge').where('user_id', '=', userId).where('badge_id', 'in', badgeIds).execute();
}
