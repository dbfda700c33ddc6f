import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { Release, ReleaseTable } from '../db/schema';

// Release rows. Tag names are matched case-insensitively through lower_tag_name, as Gitea.

export type ReleaseFilter = {
  repoId: number;
  /** Drafts are listed only for release writers. */
  includeDrafts: boolean;
  isDraft?: boolean;
  isPrerelease?: boolean;
};

function filtered(db: DB, f: ReleaseFilter) {
  let q = db.selectFrom('release').where('repo_id', '=', f.repoId).where('is_tag', '=', 0);
  if (!f.includeDrafts) q = q.where('is_draft', '=', 0);
  if (f.isDraft !== undefined) q = q.where('is_draft', '=', f.isDraft ? 1 : 0);
  if (f.isPrerelease !== undefined) q = q.where('is_prerelease', '=', f.isPrerelease ? 1 : 0);
  return q;
}

/** Newest first (created_unix, then id), as Gitea's FindReleasesOptions. */
export async function listReleaseRows(db: DB, f: ReleaseFilter, page: { offset: number; limit: number }): Promise<Release[]> {
  return filtered(db, f).selectAll().orderBy('created_unix', 'desc').orderBy('id', 'desc')
    .limit(page.limit).offset(page.offset).execute();
}

export async function countReleaseRows(db: DB, f: ReleaseFilter): Promise<number> {
  const row = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getReleaseRow(db: DB, repoId: number, id: number): Promise<Release | undefined> {
  return db.selectFrom('release').selectAll().where('id', '=', id).where('repo_id', '=', repoId).executeTakeFirst();
}

/** The row of a tag name (any case), tag-only rows included. */
export async function getReleaseRowByTag(db: DB, repoId: number, tag: string): Promise<Release | undefined> {
  return db.selectFrom('release').selectAll().where('repo_id', '=', repoId)
    .where('lower_tag_name', '=', tag.toLowerCase()).executeTakeFirst();
}

/** The newest published, non-prerelease release. */
export async function latestReleaseRow(db: DB, repoId: number): Promise<Release | undefined> {
  return filtered(db, { repoId, includeDrafts: false, isPrerelease: false }).selectAll()
    .orderBy('created_unix', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function insertReleaseRow(db: DB, row: Insertable<ReleaseTable>): Promise<Release> {
  return db.insertInto('release').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateReleaseRow(db: DB, id: number, patch: Updateable<ReleaseTable>): Promise<void> {
  await db.updateTable('release').set(patch).where('id', '=', id).execute();
}

export async function deleteReleaseRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('release').where('id', '=', id).execute();
}

/** Gitea's NumReleases: published releases, tag-only rows left out. */
export async function countPublishedReleases(db: DB, repoId: number): Promise<number> {
  return countReleaseRows(db, { repoId, includeDrafts: false });
}

/** Every release row of the repository that names a tag. */
export async function taggedReleaseRows(db: DB, repoId: number): Promise<Pick<Release, 'tag_name' | 'sha1' | 'is_draft'>[]> {
  return db.selectFrom('release').select(['tag_name', 'sha1', 'is_draft']).where('repo_id', '=', repoId).where('tag_name', '!=', '').execute();
}

/** Rows of these exact tag names (pushes report tags by exact name). */
export async function releaseRowsOfTags(db: DB, repoId: number, tags: string[]): Promise<Release[]> {
  if (!tags.length) return [];
  return db.selectFrom('release').selectAll().where('repo_id', '=', repoId).where('tag_name', 'in', tags).execute();
}
