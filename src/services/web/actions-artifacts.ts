import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ActionArtifact } from '../../db/schema';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import type { Hearth } from '../../hearth';
import { NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { yazl } from '../../lib/lazy-require';
import { isV4Artifact } from '../../models/actions-artifacts-v4';
import * as q from '../../models/actions-run-query';
import { concatStored, statArtifact } from '../actions/artifact-files';
import type { RepoAccess } from '../repo/repos';

// A run's artifact as the run page downloads it (Gitea's ArtifactsDownloadView): by name, only
// when every file of it is uploaded and not expired. A v4 upload is one zip, answered as it is;
// a v1-v3 upload is a file per row (some gzip-encoded), zipped on the way out.

export type ArtifactDownload = {
  filename: string; size?: number; open: () => Readable;
  /** A v4 upload's one stored zip (what [storage] serve_direct may redirect to). */
  key?: string;
};

type StoredFile = { row: ActionArtifact; key: string; size: number };

async function stored(store: BlobStorage, row: ActionArtifact): Promise<StoredFile> {
  const st = await statArtifact(store, row.storage_path);
  if (!st) throw new NotFoundError('artifact not found');
  return { row, key: st.key, size: st.size };
}

/** A stored gzip file decoded, opened only when the zip reaches it. */
function gunzipped(store: BlobStorage, key: string): Readable {
  return Readable.from((async function* () {
    yield* (await store.open(key)).pipe(zlib.createGunzip()) as AsyncIterable<Buffer>;
  })());
}

/** The files under their paths in the artifact, each decoded from gzip if it was sent so. */
function zipOf(store: BlobStorage, files: StoredFile[]): Readable {
  const zip = new (yazl().ZipFile)();
  for (const { row, key } of files) {
    zip.addReadStream(row.content_encoding === 'gzip' ? gunzipped(store, key) : concatStored(store, [key]), row.artifact_path);
  }
  zip.end();
  return zip.outputStream as Readable;
}

/**
 * Deletes the artifact `name` of the run numbered `runIndex`, as the API's DELETE
 * .../actions/artifacts/{id} does (marked; cleanup_actions removes the bytes), by name as
 * Gitea's run page does, which also reaches v1-v3 uploads; 404 unless it is uploaded (or expired).
 */
export async function deleteRunArtifact(h: Hearth, access: RepoAccess, runIndex: number, name: string): Promise<void> {
  const run = Number.isSafeInteger(runIndex) && runIndex > 0 ? await q.getRunByIndex(h.db, access.repo.id, runIndex) : undefined;
  if (!run) throw new NotFoundError('run not found');
  const rows = await q.artifactRows(h.db, run.id, name);
  if (!rows.some((r) => r.status === 'confirmed' || r.status === 'expired')) throw new NotFoundError('artifact not found');
  await q.markArtifactsDeleted(h.db, run.id, name, nowUnix());
}

/** The artifact `name` of the run numbered `runIndex` in the repository. */
export async function runArtifactDownload(h: Hearth, access: RepoAccess, runIndex: number, name: string): Promise<ArtifactDownload> {
  const { db } = h;
  const run = Number.isSafeInteger(runIndex) && runIndex > 0 ? await q.getRunByIndex(db, access.repo.id, runIndex) : undefined;
  if (!run) throw new NotFoundError('run not found');
  const rows = await q.artifactRows(db, run.id, name);
  if (!rows.length || rows.some((r) => r.status !== 'confirmed')) throw new NotFoundError('artifact not found');
  const files = await Promise.all(rows.map((r) => stored(h.blobs, r)));
  const filename = `${name}.zip`;
  if (files.length === 1 && isV4Artifact(rows[0]!)) {
    const { key, size } = files[0]!;
    return { filename, size, key, open: () => concatStored(h.blobs, [key]) };
  }
  return { filename, open: () => zipOf(h.blobs, files) };
}
