import type { DB } from '../../db/connect';
import type { Attachment, Release, User } from '../../db/schema';
import { ConflictError, NotFoundError } from '../../lib/errors';
import {
  countPublishedReleases, countReleaseRows, deleteReleaseRow, getReleaseRow, getReleaseRowByTag, latestReleaseRow, listReleaseRows,
  type ReleaseFilter,
} from '../../models/release';
import { assetsOfReleases } from '../../models/release-asset';
import { updateRepo } from '../../models/repo';
import { usersByIds } from '../../models/user-lookup';
import { ACCESS, type AccessMode } from '../permissions';
import { unitModeOf, type RepoAccess } from '../repo/repos';

// Reading releases (Gitea's routers/api/v1/repo/release.go). Tag-only rows (a tag whose
// release was deleted) never show; drafts show only to those who may write releases.

export type ReleaseView = { release: Release; publisher: User | null; assets: Attachment[] };

/** The caller's mode on the releases unit: teams of an organization may grant it apart. */
export function releaseMode(db: DB, access: RepoAccess, doer: User | null): Promise<AccessMode> {
  return unitModeOf(db, access, doer, 'repo.releases');
}

export const mayWriteReleases = async (db: DB, access: RepoAccess, doer: User | null) =>
  (await releaseMode(db, access, doer)) >= ACCESS.write;

export async function releaseViews(db: DB, rows: Release[]): Promise<ReleaseView[]> {
  const publishers = new Map((await usersByIds(db, [...new Set(rows.map((r) => r.publisher_id))])).map((u) => [u.id, u]));
  const assets = await assetsOfReleases(db, rows.map((r) => r.id));
  return rows.map((release) => ({
    release,
    publisher: publishers.get(release.publisher_id) ?? null,
    assets: assets.filter((a) => a.release_id === release.id),
  }));
}

export const releaseView = async (db: DB, row: Release): Promise<ReleaseView> => (await releaseViews(db, [row]))[0]!;

export type ReleaseListQuery = { draft?: boolean; prerelease?: boolean; offset: number; limit: number };

export async function listReleases(
  db: DB, access: RepoAccess, doer: User | null, q: ReleaseListQuery,
): Promise<{ items: ReleaseView[]; total: number }> {
  const filter: ReleaseFilter = {
    repoId: access.repo.id, includeDrafts: await mayWriteReleases(db, access, doer), isDraft: q.draft, isPrerelease: q.prerelease,
  };
  const rows = await listReleaseRows(db, filter, q);
  return { items: await releaseViews(db, rows), total: await countReleaseRows(db, filter) };
}

/** A row the caller may see: not tag-only, and a draft only for release writers. */
async function visible(db: DB, access: RepoAccess, doer: User | null, row: Release | undefined): Promise<Release> {
  if (!row || row.is_tag || (row.is_draft && !(await mayWriteReleases(db, access, doer)))) throw new NotFoundError();
  return row;
}

/** `{id}` of the repository as the caller may see it, else 404. */
export async function visibleRelease(db: DB, access: RepoAccess, doer: User | null, id: number): Promise<Release> {
  const row = Number.isSafeInteger(id) && id > 0 ? await getReleaseRow(db, access.repo.id, id) : undefined;
  return visible(db, access, doer, row);
}

export async function getRelease(db: DB, access: RepoAccess, doer: User | null, id: number): Promise<ReleaseView> {
  return releaseView(db, await visibleRelease(db, access, doer, id));
}

export async function visibleReleaseByTag(db: DB, access: RepoAccess, doer: User | null, tag: string): Promise<Release> {
  return visible(db, access, doer, tag ? await getReleaseRowByTag(db, access.repo.id, tag) : undefined);
}

export async function getReleaseByTag(db: DB, access: RepoAccess, doer: User | null, tag: string): Promise<ReleaseView> {
  return releaseView(db, await visibleReleaseByTag(db, access, doer, tag));
}

/** The newest published release that is not a prerelease, else 404. */
export async function getLatestRelease(db: DB, access: RepoAccess): Promise<ReleaseView> {
  const row = await latestReleaseRow(db, access.repo.id);
  if (!row) throw new NotFoundError();
  return releaseView(db, row);
}

/** repository.num_releases (release_counter) recounted: published releases only, as Gitea. */
export async function syncReleaseCounter(db: DB, repoId: number): Promise<void> {
  await updateRepo(db, repoId, { num_releases: await countPublishedReleases(db, repoId) });
}

/** The tag API may not delete a tag that carries a release (Gitea answers 409). */
export async function assertTagHasNoRelease(db: DB, repoId: number, tag: string): Promise<void> {
  const row = await getReleaseRowByTag(db, repoId, tag);
  if (row && !row.is_tag && row.tag_name === tag) {
    throw new ConflictError('a tag attached to a release cannot be deleted directly');
  }
}

/** After the tag API deleted a tag: its tag-only row goes with it (Gitea deletes the row). */
export async function forgetDeletedTag(db: DB, repoId: number, tag: string): Promise<void> {
  const row = await getReleaseRowByTag(db, repoId, tag);
  if (row?.is_tag && row.tag_name === tag) await deleteReleaseRow(db, row.id);
}
