import { Readable } from 'node:stream';
import type { DB } from '../../../db/connect';
import type { Package, PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { deleteProperties, insertProperty } from '../../../models/package-search';
import { PROPERTY_REF } from '../../../models/package';
import { storeBlob } from '../blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../limits';
import { createPackageAndAddFile, deleteVersion } from '../packages';
import { getFilesOfVersion, getPackage, getProperties, getVersion, getVersionsOfPackage, searchPackages } from '../queries';
import { packageDocument, searchDocument, toSemver, type NpmDescriptor } from './document';
import { parseNpmUpload, TAG_PROPERTY, type NpmMetadata } from './metadata';
import { parseSemver } from './semver';
import type { Hearth } from '../../../hearth';

// Gitea's npm registry rules (routers/api/packages/npm/npm.go): publish, the packument, dist-tags
// (version properties "npm.tag"), unpublish and search.

export const NPM = 'npm';

/** Gitea's setPackageTag check: a tag is not empty and not a version. */
function assertTag(tag: string): void {
  if (!tag || parseSemver(tag)) throw new BadRequestError('The tag name is invalid');
}

/** Publishes one version from a parsed publish document: 400 bad document, 409 version exists. */
export async function publishNpm(h: Hearth, i: { owner: User; doer: User; document: unknown }): Promise<void> {
  const upload = parseNpmUpload(i.document);
  upload.distTags.forEach(assertTag);
  const blob = await storeBlob(h.blobs, Readable.from([upload.data]), {
    maxSize: uploadSizeLimit(h.config, i.doer, NPM), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
  const { version } = await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.doer, type: NPM, name: upload.name, version: upload.version, semverCompatible: true,
    versionMetadata: upload.metadata, file: { name: upload.filename, isLead: true }, blob, failIfVersionExists: true,
  });
  for (const tag of upload.distTags) await moveTag(h.db, i.owner, version, tag, false);
}

/** Moves `tag` to `version` (or only removes it), in one transaction. */
async function moveTag(db: DB, owner: User, version: PackageVersion, tag: string, deleteOnly: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { rows } = await searchPackages(trx, { ownerId: owner.id, packageId: version.package_id, property: { name: TAG_PROPERTY, value: tag }, offset: 0, limit: 100 });
    for (const row of rows) {
      const tags = (await getProperties(trx, PROPERTY_REF.version, row.id, TAG_PROPERTY)).map((p) => p.value);
      await deleteProperties(trx, PROPERTY_REF.version, [row.id], TAG_PROPERTY);
      for (const t of tags.filter((x) => x !== tag)) await insertProperty(trx, PROPERTY_REF.version, row.id, TAG_PROPERTY, t);
    }
    if (!deleteOnly) await insertProperty(trx, PROPERTY_REF.version, version.id, TAG_PROPERTY, tag);
  });
}

async function describe(db: DB, owner: User, pkg: Package, version: PackageVersion): Promise<NpmDescriptor> {
  const files = await getFilesOfVersion(db, version);
  const lead = files.find((f) => f.file.is_lead) ?? files[0];
  const tags = (await getProperties(db, PROPERTY_REF.version, version.id, TAG_PROPERTY)).map((p) => p.value);
  let metadata = {} as NpmMetadata;
  try { metadata = JSON.parse(version.metadata_json || '{}') as NpmMetadata; } catch { /* an unreadable row reads as empty */ }
  return { pkg, version, owner, blob: lead?.blob ?? null, fileName: lead?.file.name ?? '', tags, metadata, semver: toSemver(version) };
}

/** Every version of a package with its lead file, tags and metadata; 404 without any. */
async function descriptorsOf(db: DB, owner: User, name: string): Promise<NpmDescriptor[]> {
  const pkg = await getPackage(db, owner, NPM, name);
  const { versions } = await getVersionsOfPackage(db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  return Promise.all(versions.map((v) => describe(db, owner, pkg, v)));
}

/** The packument (GET /{id}). */
export async function npmPackageDocument(h: Hearth, owner: User, name: string) {
  return packageDocument(h.config.server.root_url, await descriptorsOf(h.db, owner, name));
}

/** dist-tags of a package: {tag: version}. */
export async function listNpmTags(db: DB, owner: User, name: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const d of await descriptorsOf(db, owner, name)) for (const t of d.tags) out[t] = d.version.version;
  return out;
}

export async function addNpmTag(db: DB, owner: User, name: string, version: string, tag: string): Promise<void> {
  const v = await getVersion(db, owner, NPM, name, version);
  assertTag(tag);
  await moveTag(db, owner, v.version, tag, false);
}

/** Removes a tag; a package without versions is fine (Gitea answers 200 too). */
export async function deleteNpmTag(db: DB, owner: User, name: string, tag: string): Promise<void> {
  assertTag(tag);
  const pkg = await getPackage(db, owner, NPM, name).catch(() => null);
  const first = pkg && (await getVersionsOfPackage(db, pkg)).versions[0];
  if (first) await moveTag(db, owner, first, tag, true);
}

/** Unpublishes one version. */
export async function deleteNpmVersion(h: Hearth, doer: User, owner: User, name: string, version: string): Promise<void> {
  const v = await getVersion(h.db, owner, NPM, name, version);
  await deleteVersion(h, doer, v.version);
}

/** Unpublishes every version (and so the package); 404 when there is none. */
export async function deleteNpmPackage(h: Hearth, doer: User, owner: User, name: string): Promise<void> {
  const pkg = await getPackage(h.db, owner, NPM, name);
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  for (const v of versions) await deleteVersion(h, doer, v);
}

/** The version of a package holding a file of that name (GET /{id}/-/{filename}). */
export async function npmVersionByFile(db: DB, owner: User, name: string, filename: string): Promise<PackageVersion> {
  for (const d of await descriptorsOf(db, owner, name)) {
    if (d.fileName.toLowerCase() === filename.toLowerCase()) return d.version;
  }
  throw new NotFoundError('package file does not exist');
}

/** /-/v1/search: the newest version of each package whose name contains `text`. */
export async function searchNpm(h: Hearth, owner: User, q: { text: string; from: number; size: number }) {
  const { rows } = await searchPackages(h.db, { ownerId: owner.id, type: NPM, query: q.text, offset: 0, limit: 10_000 });
  const newest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) if (!newest.has(r.package_id)) newest.set(r.package_id, r);
  const page = [...newest.values()].slice(q.from, q.from + q.size);
  const descriptors = await Promise.all(page.map(async (r) => {
    const pkg = await getPackage(h.db, owner, NPM, r.name);
    const { version } = await getVersion(h.db, owner, NPM, r.name, r.version);
    return describe(h.db, owner, pkg, version);
  }));
  return searchDocument(h.config.server.root_url, descriptors, newest.size);
}
