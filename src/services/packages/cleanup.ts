import type { DB } from '../../db/connect';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { deleteBlobRow, isBlobReferenced, unreferencedBlobs } from '../../models/package';
import { oidInUse } from '../../models/lfs';
import { blobTouchedAt, removeBlobFile, removeStaleTempFiles } from './blob-store';
import { removeStaleUploads } from './upload-session';
import { queueAllIndexRebuilds } from './repo-index/jobs';

// Gitea's cleanup_packages (services/packages/cleanup): blobs no file references and upload
// sessions untouched for older_than go, with temp files of uploads a crash cut short. Only old
// ones: a younger blob may be between its file's write and its row's commit.

export async function cleanupPackages(db: DB, store: BlobStorage, dataDir: string, olderThanMs: number): Promise<string> {
  const before = Math.floor((Date.now() - olderThanMs) / 1000);
  let blobs = 0;
  for (const blob of await unreferencedBlobs(db, before)) {
    // An upload of the same bytes may be about to reference it again (storeBlob touched it).
    if ((await blobTouchedAt(store, blob.hash_sha256)) > before * 1000) continue;
    const gone = await db.transaction().execute(async (trx) => {
      if (await isBlobReferenced(trx, blob.id)) return false;
      await deleteBlobRow(trx, blob.id);
      return true;
    });
    if (!gone) continue;
    blobs++;
    // The store is shared with LFS: the same bytes may be an object of some repository.
    if (!(await oidInUse(db, blob.hash_sha256))) await removeBlobFile(store, blob.hash_sha256);
  }
  const uploads = await removeStaleUploads(db, store, before);
  const temps = removeStaleTempFiles(dataDir, olderThanMs);
  // The signed repository indexes (apt, rpm, pacman, apk) are built again: one whose job failed
  // for good (or whose packages a crash changed between two builds) heals by the next run.
  const indexes = await queueAllIndexRebuilds(db);
  return `removed ${blobs} unreferenced package blob(s), ${uploads} stale upload session(s) and ${temps} temp file(s); ${indexes} repository index(es) queued for a rebuild`;
}
