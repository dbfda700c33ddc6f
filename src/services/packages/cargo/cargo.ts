import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { PROPERTY_REF } from '../../../models/package';
import { VISIBILITY } from '../../visibility';
import type { StoredBlob } from '../blob-store';
import { compareVersions } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFilesOfVersion, getPackage, getProperties, getVersion, getVersionsOfPackage, searchPackages, setProperty } from '../queries';
import { withStoredBlob } from '../stored-upload';
import type { CargoMetadata, CargoPublish } from './metadata';
import type { Hearth } from '../../../hearth';

// Gitea's Cargo registry (routers/api/packages/cargo, services/packages/cargo): the sparse index
// (config.json and one file of JSON lines per crate, built from the rows on each read, so it is
// consistent at every moment), publish, yank and unyank (the version property "cargo.yanked").

export const CARGO = 'cargo';
const YANKED = 'cargo.yanked';

export const cargoRegistryUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${owner.name}/cargo`;

/** The sparse index's config.json: downloads, the API, and whether cargo must send its token. */
export function cargoConfig(config: Config, owner: User) {
  const base = cargoRegistryUrl(config, owner);
  return { dl: `${base}/api/v1/crates`, api: base, 'auth-required': owner.visibility !== VISIBILITY.public };
}

/** Where the index keeps a crate (1/a, 2/ab, 3/a/abc, ab/cd/abcd...), lowercased as cargo asks. */
export function cargoIndexPath(name: string): string {
  const n = name.toLowerCase();
  if (n.length <= 2) return `${n.length}/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

const metadataOf = (json: string): CargoMetadata => { try { return JSON.parse(json || '{}') as CargoMetadata; } catch { return {}; } };

/** A crate's index file: one JSON line per version, oldest version first; 404 without versions. */
export async function cargoIndexFile(db: DB, owner: User, name: string): Promise<string> {
  const pkg = await getPackage(db, owner, CARGO, name);
  const { versions } = await getVersionsOfPackage(db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => compareVersions(a.version, b.version));
  const lines: string[] = [];
  for (const v of versions) {
    const m = metadataOf(v.metadata_json);
    const [lead] = await getFilesOfVersion(db, v);
    const yanked = (await getProperties(db, PROPERTY_REF.version, v.id, YANKED))[0]?.value === 'true';
    const entry: Record<string, unknown> = {
      name: pkg.name, vers: v.version, deps: m.dependencies ?? [], cksum: lead?.blob.hash_sha256 ?? '',
      features: m.features ?? {}, yanked,
    };
    if (m.links) entry.links = m.links;
    if (m.rust_version) entry.rust_version = m.rust_version;
    lines.push(JSON.stringify(entry));
  }
  return `${lines.join('\n')}\n`;
}

/** Publishes a crate whose bytes are stored: 400 when they are not what the request said, 409 when the version exists. */
export async function publishCargo(h: Hearth, i: { owner: User; doer: User; crate: CargoPublish; blob: StoredBlob; declaredSize: number }): Promise<void> {
  await withStoredBlob(h, i.blob, async () => {
    if (i.blob.size !== i.declaredSize) throw new BadRequestError('invalid content size');
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: CARGO, name: i.crate.name, version: i.crate.version, semverCompatible: true,
      versionMetadata: i.crate.metadata, versionProperties: { [YANKED]: 'false' }, failIfVersionExists: true,
      file: { name: `${i.crate.name}-${i.crate.version}.crate`.toLowerCase(), isLead: true }, blob: i.blob,
    });
  });
}

/** Marks a version yanked (or not): the index tells cargo not to pick it for new lockfiles. */
export async function yankCargo(db: DB, owner: User, name: string, version: string, yanked: boolean): Promise<void> {
  const v = await getVersion(db, owner, CARGO, name, version);
  await setProperty(db, PROPERTY_REF.version, v.version.id, YANKED, String(yanked));
}

/** /api/v1/crates?q=: the newest version of each crate whose name contains q. */
export async function searchCargo(db: DB, owner: User, q: string, page: number, perPage: number) {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: CARGO, query: q, offset: 0, limit: 100_000 });
  const newest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) {
    const seen = newest.get(r.package_id);
    if (!seen || compareVersions(r.version, seen.version) > 0) newest.set(r.package_id, r);
  }
  const all = [...newest.values()].sort((a, b) => a.lower_name.localeCompare(b.lower_name));
  const crates = all.slice((page - 1) * perPage, page * perPage)
    .map((r) => ({ name: r.name, max_version: r.version, description: metadataOf(r.metadata_json).description ?? '' }));
  return { crates, meta: { total: all.length } };
}

/** The one "owner" cargo's owner list shows: the package owner. */
export const cargoOwners = (owner: User) => ({ users: [{ id: owner.id, login: owner.name, name: owner.full_name || owner.name }] });

