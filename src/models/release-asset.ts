import type { DB } from '../db/connect';
import type { Attachment } from '../db/schema';

// Release assets: attachment rows with release_id set (the files: services/attachment-files.ts).

/** Assets of these releases, by name within each, as Gitea's GetReleaseAttachments. */
export async function assetsOfReleases(db: DB, releaseIds: number[]): Promise<Attachment[]> {
  if (!releaseIds.length) return [];
  return db.selectFrom('attachment').selectAll().where('release_id', 'in', releaseIds)
    .orderBy('release_id', 'desc').orderBy('name', 'asc').orderBy('id', 'asc').execute();
}

/** The first asset of a release with this file name (Gitea's GetAttachmentByReleaseIDFileName). */
export async function assetByName(db: DB, releaseId: number, name: string): Promise<Attachment | undefined> {
  return db.selectFrom('attachment').selectAll().where('release_id', '=', releaseId).where('name', '=', name)
    .orderBy('id', 'asc').limit(1).executeTakeFirst();
}

/** Deletes a release's asset rows, returning their UUIDs so the files go with them. */
export async function deleteAssetsOfRelease(db: DB, releaseId: number): Promise<string[]> {
  const rows = await db.deleteFrom('attachment').where('release_id', '=', releaseId).returning('uuid').execute();
  return rows.map((r) => r.uuid);
}
