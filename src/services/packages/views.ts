import type { DB } from '../../db/connect';
import type { Package, PackageVersion, User } from '../../db/schema';
import type { PackageView } from '../../convert/package';
import { NotFoundError } from '../../lib/errors';
import { searchVersions, type VersionSearch } from '../../models/package-search';
import { usersByIds } from '../../models/user-lookup';
import { canSeeOwner } from '../permissions';
import { resolvePackageOwner } from './access';
import { getPackage, packageView, type ViewLookups } from './queries';

// What the packages REST API (/api/v1/packages/{owner}) reads: views of versions for the converter.

/** The owner of `/packages/{owner}`: 404 when missing or hidden from the caller (Gitea's UserAssignmentAPI). */
export async function visiblePackageOwner(db: DB, name: string, viewer: User | null): Promise<User> {
  const owner = await resolvePackageOwner(db, name);
  if (!(await canSeeOwner(db, owner, viewer))) throw new NotFoundError('owner does not exist');
  return owner;
}

/** Views of the versions a search finds (newest first) and the total. */
export async function searchPackageViews(db: DB, owner: User, viewer: User | null, s: Omit<VersionSearch, 'ownerId'>): Promise<{ views: PackageView[]; total: number }> {
  const { rows, total } = await searchVersions(db, { ...s, ownerId: owner.id });
  // The page's creators in one query, each linked repository once.
  const creatorIds = [...new Set(rows.map((r) => r.creator_id).filter((id) => id > 0))];
  const lookups: ViewLookups = { creators: new Map((await usersByIds(db, creatorIds)).map((u) => [u.id, u])), repos: new Map() };
  const views: PackageView[] = [];
  for (const r of rows) {
    const pkg: Package = { id: r.package_id, owner_id: r.owner_id, repo_id: r.repo_id, type: r.type, name: r.name, lower_name: r.lower_name, semver_compatible: r.semver_compatible, is_internal: 0 };
    const version: PackageVersion = {
      id: r.id, package_id: r.package_id, creator_id: r.creator_id, version: r.version, lower_version: r.lower_version,
      created_unix: r.created_unix, is_internal: r.is_internal, metadata_json: r.metadata_json, download_count: r.download_count,
    };
    views.push(await packageView(db, pkg, version, owner, viewer, lookups));
  }
  return { views, total };
}

/** The versions of one package (404 when there is no such package). */
export async function packageVersionViews(db: DB, owner: User, viewer: User | null, type: string, name: string, page: { offset: number; limit: number }) {
  const pkg = await getPackage(db, owner, type, name);
  return searchPackageViews(db, owner, viewer, { packageId: pkg.id, ...page });
}

/** The newest version of a package (404 when none). */
export async function latestPackageView(db: DB, owner: User, viewer: User | null, type: string, name: string): Promise<PackageView> {
  const { views } = await packageVersionViews(db, owner, viewer, type, name, { offset: 0, limit: 1 });
  if (!views[0]) throw new NotFoundError('package does not exist');
  return views[0];
}
