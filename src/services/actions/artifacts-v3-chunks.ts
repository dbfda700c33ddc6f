import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ActionArtifact } from '../../db/schema';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { BadRequestError } from '../../lib/errors';
import { ARTIFACTS, artifactKey, concatStored, removeArtifactFile, removeUnder } from './artifact-files';

// The chunks of v3 uploads (Gitea's artifacts_chunks.go): each PUT is kept in the blob storage
// as actions_artifacts/tmpv3/<run>/<artifact>-<start>-<end>.chunk until the PATCH that confirms
// the artifact joins the chunks of each of its files, in byte order, into <run>/<artifact>-<random>.chunk
// (.chunk.gz when the client sent it gzip-encoded: it stays so, and is served with
// Content-Encoding: gzip). Any node may take any chunk, and any node the PATCH.

export type ChunkRange = { start: number; end: number; total: number };

/** Content-Range `bytes a-b/total`; an empty file comes as `bytes 0--1/0`. */
export function parseContentRange(header: string | undefined): ChunkRange {
  const m = /^bytes (\d+)-(-?\d+)\/(\d+)$/.exec((header ?? '').trim());
  if (!m) throw new BadRequestError('Error parse content range');
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (end < start - 1 || end >= total) throw new BadRequestError('Error parse content range');
  return { start, end, total };
}

const chunkPrefix = (runId: number) => `${ARTIFACTS}/tmpv3/${runId}/`;
const sizeMismatch = () => new BadRequestError('Error save upload chunk: size not match');

/**
 * Keeps one chunk. Its bytes must be as many as Content-Length says and, when the client sent
 * x-actions-results-md5 (@actions/artifact 1.1+), hash to it; a chunk that does not is dropped.
 */
export async function saveChunk(
  store: BlobStorage, runId: number, artifactId: number, range: ChunkRange, body: Readable,
  check: { contentLength?: number; md5?: string },
): Promise<void> {
  const key = `${chunkPrefix(runId)}${artifactId}-${range.start}-${range.end}.chunk`;
  const want = range.end - range.start + 1;
  // A body longer than its range stops there, not once the store has taken all of it.
  const r = await store.put(key, body, { maxSize: want, tooLarge: sizeMismatch });
  const badMd5 = check.md5 !== undefined && check.md5 !== Buffer.from(r.hashes.md5, 'hex').toString('base64');
  const badSize = (check.contentLength !== undefined && r.size !== check.contentLength) || r.size !== want;
  if (badMd5 || badSize) {
    await store.remove(key);
    throw badMd5 ? new BadRequestError('Error save upload chunk: md5 not match') : sizeMismatch();
  }
}

type Chunk = { start: number; end: number; key: string };

async function chunksOf(store: BlobStorage, runId: number, artifactId: number): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const e of store.list(`${chunkPrefix(runId)}${artifactId}-`)) {
    const m = /\/(\d+)-(\d+)-(-?\d+)\.chunk$/.exec(e.key);
    if (m && Number(m[1]) === artifactId) out.push({ start: Number(m[2]), end: Number(m[3]), key: e.key });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Joins the chunks of one file of an artifact when they cover it from byte 0 to its (compressed)
 * size; the storage path of the result, or null while some are missing (the file stays pending,
 * as Gitea's mergeChunksForArtifact). Repeated chunks (a retried PUT) are used once.
 */
export async function mergeChunks(store: BlobStorage, artifact: ActionArtifact): Promise<string | null> {
  const chunks = await chunksOf(store, artifact.run_id, artifact.id);
  if (!chunks.length) return null;
  const chain: Chunk[] = [];
  let at = -1;
  for (const c of chunks) {
    if (c.start !== at + 1) continue;
    chain.push(c);
    at = c.end;
  }
  if (at + 1 !== artifact.file_compressed_size) return null;
  const ext = artifact.content_encoding === 'gzip' ? 'chunk.gz' : 'chunk';
  const storagePath = `${artifact.run_id}/${artifact.id}-${crypto.randomBytes(4).toString('hex')}.${ext}`;
  const target = artifactKey(storagePath)!;
  const r = await store.put(target, concatStored(store, chain.map((c) => c.key)));
  if (r.size !== artifact.file_compressed_size) {
    await store.remove(target);
    throw new BadRequestError('Error merge chunks: merged file size is not equal to chunk length');
  }
  for (const c of chunks) await store.remove(c.key);
  // A file uploaded again in the same run replaces the one merged before.
  if (artifact.storage_path) await removeArtifactFile(store, artifact.storage_path);
  return storagePath;
}

/** Drops the chunks of one artifact that was never confirmed. */
export async function removeArtifactChunks(store: BlobStorage, runId: number, artifactId: number): Promise<void> {
  for (const c of await chunksOf(store, runId, artifactId)) await store.remove(c.key);
}

/** Drops what is left of a run's v3 uploads (chunks of files never confirmed). */
export async function removeRunChunks(store: BlobStorage, runId: number): Promise<void> {
  await removeUnder(store, chunkPrefix(runId));
}
