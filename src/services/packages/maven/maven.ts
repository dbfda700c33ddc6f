import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { DB } from '../../../db/connect';
import type { PackageBlob, PackageFile, PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256, findPackage, setVersionMetadata, versionsOf } from '../../../models/package';
import { removeBlobFile, withBlobFile, storeBlob, type StoredBlob } from '../blob-store';
import { PackageQuotaError, QUOTA, uploadSizeLimit } from '../limits';
import { createPackageAndAddFile } from '../packages';
import { getFileOfVersion, getVersion } from '../queries';
import { checksumExt, packageName, type ChecksumExt, type MavenCoordinates } from './coordinates';
import { checksumAlgorithm, hexDigest, metadataDocument } from './metadata-xml';
import { MAX_POM_SIZE, parsePom, type MavenMetadata } from './pom';
import type { Hearth } from '../../../hearth';

// Gitea's Maven registry (routers/api/packages/maven/maven.go): files are stored as uploaded;
// checksum uploads are compared with the stored file, never stored; the artifact's
// maven-metadata.xml is generated, a snapshot version's one is stored (and overwritten).

export const MAVEN = 'maven';
/** A checksum body is a hex digest; more than this is not one. */
const MAX_CHECKSUM_BODY = 1024;

export type UploadInput = { owner: User; doer: User; coords: MavenCoordinates; body: Readable };

async function readSmall(body: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > max) throw new BadRequestError('hash mismatch');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const blobHash = (blob: PackageBlob, ext: ChecksumExt) =>
  ({ md5: blob.hash_md5, sha1: blob.hash_sha1, sha256: blob.hash_sha256, sha512: blob.hash_sha512 })[checksumAlgorithm(ext)];

/** A checksum upload: 200 when it matches the stored file, 400 "hash mismatch" otherwise. */
async function verifyChecksum(db: DB, i: UploadInput, ext: ChecksumExt): Promise<void> {
  const { version } = await getVersion(db, i.owner, MAVEN, packageName(i.coords), i.coords.version);
  const { blob } = await getFileOfVersion(db, version, i.coords.filename.slice(0, -ext.length));
  const sent = await readSmall(i.body, MAX_CHECKSUM_BODY);
  if (sent !== blobHash(blob, ext)) throw new BadRequestError('hash mismatch');
}

/** The pom's metadata, read back from the stored blob (400 when it is not a pom). */
async function pomMetadata(h: Hearth, blob: StoredBlob): Promise<MavenMetadata> {
  if (blob.size > MAX_POM_SIZE) throw new BadRequestError('pom file is too large');
  return withBlobFile(h.blobs, blob.hashes.sha256, (f) => parsePom(fs.readFileSync(f)));
}

/** The blob's file goes when nothing committed references it (as the core does for its failures). */
async function dropOrphan(h: Hearth, blob: StoredBlob): Promise<void> {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
}

/** Stores a file of a version (creating package and version); a pom also sets the version's metadata. */
async function storeFile(h: Hearth, i: UploadInput): Promise<void> {
  const blob = await storeBlob(h.blobs, i.body, {
    maxSize: uploadSizeLimit(h.config, i.doer, MAVEN), tooLarge: () => new PackageQuotaError(QUOTA.typeSize),
  });
  const isPom = i.coords.filename.endsWith('.pom');
  let metadata: MavenMetadata | undefined;
  try {
    if (isPom) metadata = await pomMetadata(h, blob);
  } catch (err) {
    await dropOrphan(h, blob);
    throw err;
  }
  const out = await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.doer, type: MAVEN, name: packageName(i.coords), version: i.coords.version,
    versionMetadata: metadata, file: { name: i.coords.filename, isLead: isPom }, blob,
    // A snapshot's maven-metadata.xml is rewritten by every deploy (Gitea: OverwriteExisting).
    overwrite: i.coords.isMeta,
  });
  if (metadata && !out.versionCreated) await setVersionMetadata(h.db, out.version.id, JSON.stringify(metadata));
}

/**
 * Handles a PUT: 200 for the artifact's maven-metadata.xml (ignored: it is generated) and for a
 * matching checksum, 201 for a stored file. 400 hash mismatch or bad pom, 409 for an existing
 * file, 404 for a checksum of a missing file.
 */
export async function uploadMavenFile(h: Hearth, i: UploadInput): Promise<200 | 201> {
  if (i.coords.isMeta && i.coords.version === '') { i.body.resume(); return 200; }
  const ext = checksumExt(i.coords.filename);
  if (ext) { await verifyChecksum(h.db, i, ext); return 200; }
  await storeFile(h, i);
  return 201;
}

/** The versions of an artifact, oldest first (Maven and Gradle order by upload, not by version). */
async function versionsOldestFirst(db: DB, owner: User, coords: MavenCoordinates): Promise<PackageVersion[]> {
  const pkg = await findPackage(db, owner.id, MAVEN, packageName(coords));
  const versions = pkg ? await versionsOf(db, pkg.id) : [];
  return versions.reverse();
}

/** The generated maven-metadata.xml (or its checksum as hex text); 404 without versions. */
export async function artifactMetadata(db: DB, owner: User, coords: MavenCoordinates): Promise<{ body: Buffer | string; lastModified: number; checksum: boolean }> {
  const versions = await versionsOldestFirst(db, owner, coords);
  if (!versions.length) throw new NotFoundError('package does not exist');
  const doc = metadataDocument(versions, coords);
  const lastModified = versions[versions.length - 1]!.created_unix;
  const ext = checksumExt(coords.filename);
  return ext ? { body: hexDigest(ext, doc), lastModified, checksum: true } : { body: doc, lastModified, checksum: false };
}

export type MavenFile = { version: PackageVersion; file: PackageFile; blob: PackageBlob; checksum: string | null };

/** A stored file of a version, or the hex checksum of one when the name ends with a checksum extension. */
export async function mavenFile(db: DB, owner: User, coords: MavenCoordinates): Promise<MavenFile> {
  const { version } = await getVersion(db, owner, MAVEN, packageName(coords), coords.version);
  const ext = checksumExt(coords.filename.toLowerCase());
  const name = ext ? coords.filename.slice(0, -ext.length) : coords.filename;
  const { file, blob } = await getFileOfVersion(db, version, name);
  return { version, file, blob, checksum: ext ? blobHash(blob, ext) : null };
}
