import { Readable } from 'node:stream';
import type { BlobStat, BlobStorage } from '../../lib/blob-storage/storage';
import { checkKey } from '../../lib/blob-storage/storage';

// Where artifact bytes live: the blob storage under actions_artifacts/<storage_path> (on local
// disk <data_dir>/actions_artifacts/..., the layout data directories always had), uploads being
// received under actions_artifacts/tmpv3 and tmpv4, so any node takes any chunk and serves any
// artifact. storage_path is relative and made by the server (never from a runner's input as is).

export const ARTIFACTS = 'actions_artifacts';

/** The key of a stored artifact file, or null for a path that cannot be one (none yet, or unsafe). */
export function artifactKey(storagePath: string): string | null {
  if (!storagePath) return null;
  try {
    return checkKey(`${ARTIFACTS}/${storagePath}`);
  } catch {
    return null;
  }
}

/** The stored file's size, or null when it is missing. */
export async function statArtifact(store: BlobStorage, storagePath: string): Promise<(BlobStat & { key: string }) | null> {
  const key = artifactKey(storagePath);
  const st = key ? await store.stat(key) : null;
  return key && st ? { key, ...st } : null;
}

export async function removeArtifactFile(store: BlobStorage, storagePath: string): Promise<void> {
  const key = artifactKey(storagePath);
  if (key) await store.remove(key);
}

/** Removes every object under `prefix` (a run's or an artifact's upload leftovers). */
export async function removeUnder(store: BlobStorage, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const e of store.list(prefix)) keys.push(e.key);
  for (const k of keys) await store.remove(k);
}

/** The objects' bytes one after another, each opened only when the one before is read whole. */
export function concatStored(store: BlobStorage, keys: string[]): Readable {
  // Lazy: an S3 GET per key held open at once would exhaust the client's sockets.
  return Readable.from((async function* () {
    for (const k of keys) yield* (await store.open(k)) as AsyncIterable<Buffer>;
  })());
}
