import type { DB } from '../../db/connect';
import type { Badge, User } from '../../db/schema';
import { ConflictError, InvalidError } from '../../lib/errors';
import * as model from '../../models/badge';

// User badges (Gitea's models/user/badge.go). Gitea 1.25 has no way to create one and answers 500
// for an unknown slug; here the CLI creates them and an unknown slug is a 422 naming it, with
// nothing changed.

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export async function createBadge(db: DB, input: { slug: string; description: string; imageUrl: string }): Promise<Badge> {
  const slug = input.slug.trim();
  if (!SLUG.test(slug) || slug.length > 255) throw new InvalidError(`invalid badge slug: ${input.slug}`, 'slug');
  if (input.imageUrl && !URL.canParse(input.imageUrl)) throw new InvalidError(`invalid image URL: ${input.imageUrl}`, 'image_url');
  if (await model.getBadgeBySlug(db, slug)) throw new ConflictError(`badge already exists [slug: ${slug}]`);
  return model.insertBadge(db, { slug, description: input.description, image_url: input.imageUrl });
}

export const listBadgesOf = (db: DB, user: User): Promise<Badge[]> => model.listUserBadges(db, user.id);

/** The badges of these slugs, all of them, or a 422 naming the unknown ones. */
async function resolve(db: DB, slugs: string[]): Promise<number[]> {
  const unique = [...new Set(slugs)];
  const found = await model.badgesBySlugs(db, unique);
  const known = new Set(found.map((b) => b.slug));
  const missing = unique.filter((s) => !known.has(s));
  if (missing.length) throw new InvalidError(`badge does not exist [slug: ${missing.join(', ')}]`, 'badge_slugs');
  return found.map((b) => b.id);
}

export async function addBadgesTo(db: DB, user: User, slugs: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => model.addUserBadges(trx, user.id, await resolve(trx, slugs)));
}

export async function removeBadgesFrom(db: DB, user: User, slugs: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => model.removeUserBadges(trx, user.id, await resolve(trx, slugs)));
}
