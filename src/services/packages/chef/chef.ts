import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { tarFileEntries } from '../archive/tar';
import type { StoredBlob } from '../blob-store';
import { compareVersions } from '../npm/semver';
import { createPackageAndAddFile, deleteVersion } from '../packages';
import { getFilesOfVersion, getPackage, getVersion, getVersionsOfPackage, searchPackages } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Chef registry (routers/api/packages/chef, modules/packages/chef): cookbooks shared
// with `knife supermarket share` (a tarball whose {cookbook}/metadata.json names it), the
// universe document berkshelf resolves from, listing, search, show, download and unshare.

export const CHEF = 'chef';
const NAME = /^[a-zA-Z0-9_-]+$/;
const VERSION = /^\d+\.\d+(\.\d+)?$/;
export type ChefMetadata = { description?: string; long_description?: string; author?: string; license?: string; repository_url?: string; dependencies?: Record<string, string> };

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** metadata.json of a stored cookbook tarball: 400 without one or with a bad name or version. */
export async function parseCookbook(file: string): Promise<{ name: string; version: string; metadata: ChefMetadata }> {
  const [meta] = await tarFileEntries(file, { gzip: true, want: (n) => (/^[^/]+\/metadata\.json$/.test(n) ? 4 << 20 : null), done: (k) => k.length > 0 });
  if (!meta) throw new BadRequestError('metadata.json file is missing');
  let m: Record<string, unknown>;
  try { m = JSON.parse(meta.data.toString('utf8')) as Record<string, unknown>; } catch { throw new BadRequestError('metadata.json is not valid JSON'); }
  const name = str(m.name) ?? '';
  const version = str(m.version) ?? '';
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  if (!VERSION.test(version)) throw new BadRequestError('package version is invalid');
  const deps = m.dependencies && typeof m.dependencies === 'object' ? Object.fromEntries(Object.entries(m.dependencies).filter(([, v]) => typeof v === 'string')) as Record<string, string> : {};
  const source = str(m.source_url);
  return {
    name, version,
    metadata: {
      description: str(m.description), long_description: str(m.long_description), author: str(m.maintainer), license: str(m.license),
      repository_url: source && /^https?:\/\//.test(source) ? source : undefined, dependencies: deps,
    },
  };
}

/** Stores a shared cookbook: 400 when it is none, 409 when the version exists. */
export async function uploadCookbook(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob }): Promise<void> {
  await withStoredBlob(h, i.blob, async () => {
    const c = await readStoredBlob(h, i.blob, parseCookbook);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: CHEF, name: c.name, version: c.version, semverCompatible: true, failIfVersionExists: true,
      versionMetadata: c.metadata, file: { name: `${c.version}.tar.gz`, isLead: true }, blob: i.blob,
    });
  });
}

const metadataOf = (v: { metadata_json: string }): ChefMetadata => { try { return JSON.parse(v.metadata_json || '{}') as ChefMetadata; } catch { return {}; } };
export const chefApiUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${owner.name}/chef/api/v1`;

/** /universe: every cookbook version with where to download it and its dependencies. */
export async function chefUniverse(h: Hearth, owner: User) {
  const { rows } = await searchPackages(h.db, { ownerId: owner.id, type: CHEF, offset: 0, limit: 1_000_000 });
  const base = chefApiUrl(h.config, owner);
  const universe: Record<string, Record<string, unknown>> = {};
  for (const r of rows) {
    (universe[r.name] ??= {})[r.version] = {
      location_type: 'opscode', location_path: base, dependencies: metadataOf(r).dependencies ?? {},
      download_url: `${base}/cookbooks/${encodeURIComponent(r.name)}/versions/${r.version}/download`,
    };
  }
  return universe;
}

/** /cookbooks and /search: the newest version of each cookbook matching q, by name or newest first. */
export async function chefList(h: Hearth, owner: User, o: { q: string; start: number; items: number; order: string }) {
  const { rows } = await searchPackages(h.db, { ownerId: owner.id, type: CHEF, query: o.q, offset: 0, limit: 1_000_000 });
  const newest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) {
    const seen = newest.get(r.package_id);
    if (!seen || compareVersions(r.version, seen.version) > 0) newest.set(r.package_id, r);
  }
  const recent = ['recently_updated', 'recently_added'].includes(o.order.toLowerCase());
  const all = [...newest.values()].sort((a, b) => (recent ? b.created_unix - a.created_unix : a.lower_name.localeCompare(b.lower_name)));
  const base = `${chefApiUrl(h.config, owner)}/cookbooks/`;
  const items = all.slice(o.start, o.start + o.items).map((r) => {
    const m = metadataOf(r);
    return { cookbook_name: r.name, cookbook_maintainer: m.author ?? '', cookbook_description: m.description ?? '', cookbook: base + encodeURIComponent(r.name) };
  });
  return { start: o.start, total: all.length, items };
}

async function sortedVersions(db: DB, owner: User, name: string): Promise<PackageVersion[]> {
  const pkg = await getPackage(db, owner, CHEF, name);
  const { versions } = await getVersionsOfPackage(db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  return versions.sort((a, b) => compareVersions(a.version, b.version));
}

/** /cookbooks/{name}: the cookbook with its newest version and every version's URL. */
export async function chefCookbook(h: Hearth, owner: User, name: string) {
  const versions = await sortedVersions(h.db, owner, name);
  const pkg = await getPackage(h.db, owner, CHEF, name);
  const latest = versions[versions.length - 1]!;
  const m = metadataOf(latest);
  const base = `${chefApiUrl(h.config, owner)}/cookbooks/${encodeURIComponent(pkg.name)}/versions/`;
  const at = new Date(latest.created_unix * 1000).toISOString();
  return {
    name: pkg.name, maintainer: m.author ?? '', description: m.description ?? '', category: '', latest_version: base + latest.version,
    source_url: m.repository_url ?? '', created_at: at, updated_at: at, deprecated: false, versions: versions.map((v) => base + v.version),
  };
}

/** /cookbooks/{name}/versions/{version} (knife may write the dots of a version as "_"). */
export async function chefCookbookVersion(h: Hearth, owner: User, name: string, version: string) {
  const { pkg, version: v } = await getVersion(h.db, owner, CHEF, name, version.replace(/_/g, '.'));
  const [lead] = await getFilesOfVersion(h.db, v);
  const m = metadataOf(v);
  const base = `${chefApiUrl(h.config, owner)}/cookbooks/${encodeURIComponent(pkg.name)}`;
  return {
    version: v.version, tarball_file_size: lead?.blob.size ?? 0, published_at: new Date(v.created_unix * 1000).toISOString(),
    cookbook: base, file: `${base}/versions/${v.version}/download`, license: m.license ?? '', dependencies: m.dependencies ?? {},
  };
}

/** The tarball of a version. */
export async function chefTarball(db: DB, owner: User, name: string, version: string) {
  const { version: v } = await getVersion(db, owner, CHEF, name, version.replace(/_/g, '.'));
  const [lead] = await getFilesOfVersion(db, v);
  if (!lead) throw new NotFoundError('package file does not exist');
  return { version: v, ...lead };
}

/** knife supermarket unshare: one version, or (without one) every version. */
export async function chefUnshare(h: Hearth, doer: User, owner: User, name: string, version?: string): Promise<void> {
  const versions = version ? [(await getVersion(h.db, owner, CHEF, name, version.replace(/_/g, '.'))).version] : await sortedVersions(h.db, owner, name);
  for (const v of versions) await deleteVersion(h, doer, v);
}
