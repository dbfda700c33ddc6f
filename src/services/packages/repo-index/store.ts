import { Readable } from 'node:stream';
import type { DB } from '../../../db/connect';
import type { PackageBlob } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import * as m from '../../../models/package';
import { deleteFilesWithKey, indexFileRows, renameFileKey } from '../../../models/package-index';
import type { BlobStorage } from '../../../lib/blob-storage/storage';
import { removeBlobFile, storeBlob, type StoredBlob } from '../blob-store';

// The built index files of a package repository (apt's dists/, dnf's repodata/, pacman's and
// apk's databases). Each scope (a distribution, a group, a repository) is a version of one
// internal package per owner and type, its files blobs like any package file: the whole new set
// is written to the blob store first, then one transaction makes it current. The set it
// replaces stays one generation as `previous`, so a client that read the old Release can still
// fetch what it listed by hash (apt's Acquire-By-Hash) while the new one takes over.

const CURRENT = 'current';
const PREVIOUS = 'previous';
export type IndexFileInput = { path: string; data: Buffer };
export type IndexFile = { path: string; blob: PackageBlob; createdUnix: number };

/** The internal package's name for a type: `_` + type (no client's package name starts so). */
export const indexPackageName = (type: string) => `_${type}`;
const scopeVersion = (scope: string) => `s:${scope}`;
export const scopeOfVersion = (version: string) => version.slice(2);

async function ensureScope(db: DB, ownerId: number, type: string, scope: string) {
  const name = indexPackageName(type);
  const pkg = (await m.findPackage(db, ownerId, type, name))
    ?? (await m.insertPackage(db, { ownerId, type, name, semverCompatible: false, isInternal: true }));
  const version = (await m.findVersion(db, pkg.id, scopeVersion(scope)))
    ?? (await m.insertVersion(db, { packageId: pkg.id, creatorId: 0, version: scopeVersion(scope), metadataJson: '', isInternal: true }));
  return version;
}

/**
 * Asked first in the write's transaction: false when this node lost the job's lease, so an index
 * built from older rows is not written over the one the node that took the job over built.
 */
export type WriteFence = (trx: DB) => Promise<boolean>;
const always: WriteFence = async () => true;

/**
 * Makes `files` the scope's index at once; the set before stays reachable by hash for one
 * generation. False (nothing written) when the fence refused.
 */
export async function publishIndex(
  db: DB, store: BlobStorage, where: { ownerId: number; type: string; scope: string }, files: IndexFileInput[], fence = always,
): Promise<boolean> {
  const { ownerId, type, scope } = where;
  const stored: { path: string; blob: StoredBlob }[] = [];
  for (const f of files) stored.push({ path: f.path, blob: await storeBlob(store, Readable.from([f.data])) });
  const dropStored = async () => {
    for (const s of stored) if (s.blob.created && !(await m.blobBySha256(db, s.blob.hashes.sha256))) await removeBlobFile(store, s.blob.hashes.sha256);
  };
  try {
    const written = await db.transaction().execute(async (trx) => {
      if (!(await fence(trx))) return false;
      const version = await ensureScope(trx, ownerId, type, scope);
      await deleteFilesWithKey(trx, version.id, PREVIOUS);
      await renameFileKey(trx, version.id, CURRENT, PREVIOUS);
      for (const s of stored) {
        const row = await m.ensureBlob(trx, { size: s.blob.size, ...s.blob.hashes });
        await m.insertFile(trx, { versionId: version.id, blobId: row.id, name: s.path, compositeKey: CURRENT, isLead: false });
      }
      return true;
    });
    if (!written) await dropStored();
    return written;
  } catch (err) {
    await dropStored();
    throw err;
  }
}

/** Drops a scope's index (its last package is gone); false when the fence refused. */
export async function dropIndex(db: DB, where: { ownerId: number; type: string; scope: string }, fence = always): Promise<boolean> {
  const { ownerId, type, scope } = where;
  const pkg = await m.findPackage(db, ownerId, type, indexPackageName(type));
  const version = pkg && (await m.findVersion(db, pkg.id, scopeVersion(scope)));
  if (!pkg || !version) return true;
  return db.transaction().execute(async (trx) => {
    if (!(await fence(trx))) return false;
    await m.deleteVersionRow(trx, version.id);
    if (!(await m.anyVersionOf(trx, pkg.id))) await m.deletePackageRow(trx, pkg.id);
    return true;
  });
}

async function scopeVersionRow(db: DB, ownerId: number, type: string, scope: string) {
  const pkg = await m.findPackage(db, ownerId, type, indexPackageName(type));
  return pkg && pkg.is_internal ? m.findVersion(db, pkg.id, scopeVersion(scope)) : undefined;
}

type Row = Awaited<ReturnType<typeof indexFileRows>>[number];
const toIndexFile = (r: Row): IndexFile => ({
  path: r.name, createdUnix: r.created_unix,
  blob: { id: r.blob_id, size: r.size, hash_md5: r.hash_md5, hash_sha1: r.hash_sha1, hash_sha256: r.hash_sha256, hash_sha512: r.hash_sha512, created_unix: r.blob_created },
});

/** The current index files of a scope (empty when never built). */
export async function currentIndexFiles(db: DB, ownerId: number, type: string, scope: string): Promise<IndexFile[]> {
  const version = await scopeVersionRow(db, ownerId, type, scope);
  return version ? (await indexFileRows(db, version.id, CURRENT)).map(toIndexFile) : [];
}

/** One current index file by path, or NotFoundError. */
export async function getIndexFile(db: DB, ownerId: number, type: string, scope: string, path: string): Promise<IndexFile> {
  const file = (await currentIndexFiles(db, ownerId, type, scope)).find((f) => f.path === path);
  if (!file) throw new NotFoundError('package file does not exist');
  return file;
}

const HASH_COLUMN = { md5: 'hash_md5', sha1: 'hash_sha1', sha256: 'hash_sha256', sha512: 'hash_sha512' } as const;

/**
 * An index file of the current or the previous generation under `dir` (a path prefix, '' for
 * the scope's top) by one of its hashes, or NotFoundError: apt's by-hash requests.
 */
export async function getIndexFileByHash(db: DB, ownerId: number, type: string, scope: string, dir: string, algorithm: string, hash: string): Promise<IndexFile> {
  const column = HASH_COLUMN[algorithm.toLowerCase() as keyof typeof HASH_COLUMN];
  const version = column && (await scopeVersionRow(db, ownerId, type, scope));
  const rows = version ? await indexFileRows(db, version.id) : [];
  const prefix = dir ? `${dir}/` : '';
  const row = rows.find((r) => r[column] === hash.toLowerCase() && r.name.startsWith(prefix) && !r.name.slice(prefix.length).includes('/'));
  if (!row) throw new NotFoundError('package file does not exist');
  return toIndexFile(row);
}
