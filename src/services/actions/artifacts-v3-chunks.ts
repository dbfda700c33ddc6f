import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config/schema';
import type { ActionArtifact } from '../../db/schema';
import { BadRequestError } from '../../lib/errors';
import { artifactFile, removeArtifactFile } from './artifact-files';

// The chunks of v3 uploads (Gitea's artifacts_chunks.go): each PUT is kept as
// tmpv3/<run>/<artifact>-<start>-<end>.chunk until the PATCH that confirms the artifact joins the
// chunks of each of its files, in byte order, into <run>/<artifact>-<random>.chunk (.chunk.gz
// when the client sent it gzip-encoded: it stays so, and is served with Content-Encoding: gzip).

export type ChunkRange = { start: number; end: number; total: number };

/** Content-Range `bytes a-b/total`; an empty file comes as `bytes 0--1/0`. */
export function parseContentRange(header: string | undefined): ChunkRange {
  const m = /^bytes (\d+)-(-?\d+)\/(\d+)$/.exec((header ?? '').trim());
  if (!m) throw new BadRequestError('Error parse content range');
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (end < start - 1 || end >= total) throw new BadRequestError('Error parse content range');
  return { start, end, total };
}

const chunkDir = (config: Config, runId: number) => path.join(config.server.data_dir, 'actions_artifacts', 'tmpv3', String(runId));

/**
 * Keeps one chunk. Its bytes must be as many as Content-Length says and, when the client sent
 * x-actions-results-md5 (@actions/artifact 1.1+), hash to it; a chunk that does not is dropped.
 */
export async function saveChunk(
  config: Config, runId: number, artifactId: number, range: ChunkRange, body: Readable,
  check: { contentLength?: number; md5?: string },
): Promise<void> {
  const dir = chunkDir(config, runId);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${artifactId}-${range.start}-${range.end}.chunk`);
  const md5 = crypto.createHash('md5');
  let size = 0;
  // Opened here, not by the stream: a stream destroyed while still opening would create the
  // file after the removal below.
  const out = fs.createWriteStream(file, { fd: fs.openSync(file, 'w') });
  try {
    await pipeline(body, async function* (src: AsyncIterable<Buffer>) {
      for await (const b of src) {
        md5.update(b);
        size += b.length;
        // A body longer than its range stops here, not once the disk has taken all of it.
        if (size > range.end - range.start + 1) throw new BadRequestError('Error save upload chunk: size not match');
        yield b;
      }
    }, out);
  } catch (err) {
    // A PUT cut short leaves no half chunk for the merge to pick up.
    fs.rmSync(file, { force: true });
    throw err;
  }
  const badMd5 = check.md5 !== undefined && check.md5 !== md5.digest('base64');
  const badSize = (check.contentLength !== undefined && size !== check.contentLength) || size !== range.end - range.start + 1;
  if (badMd5 || badSize) {
    fs.rmSync(file, { force: true });
    throw new BadRequestError(badMd5 ? 'Error save upload chunk: md5 not match' : 'Error save upload chunk: size not match');
  }
}

type Chunk = { start: number; end: number; file: string };

function chunksOf(config: Config, runId: number, artifactId: number): Chunk[] {
  const dir = chunkDir(config, runId);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const out: Chunk[] = [];
  for (const name of names) {
    const m = /^(\d+)-(\d+)-(-?\d+)\.chunk$/.exec(name);
    if (m && Number(m[1]) === artifactId) out.push({ start: Number(m[2]), end: Number(m[3]), file: path.join(dir, name) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Joins the chunks of one file of an artifact when they cover it from byte 0 to its (compressed)
 * size; the storage path of the result, or null while some are missing (the file stays pending,
 * as Gitea's mergeChunksForArtifact). Repeated chunks (a retried PUT) are used once.
 */
export function mergeChunks(config: Config, artifact: ActionArtifact): string | null {
  const chunks = chunksOf(config, artifact.run_id, artifact.id);
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
  const target = artifactFile(config, storagePath)!;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = fs.openSync(target, 'w');
  let written = 0;
  try {
    for (const c of chain) {
      const data = fs.readFileSync(c.file);
      fs.writeSync(out, data);
      written += data.length;
    }
  } finally {
    fs.closeSync(out);
  }
  if (written !== artifact.file_compressed_size) {
    fs.rmSync(target, { force: true });
    throw new BadRequestError('Error merge chunks: merged file size is not equal to chunk length');
  }
  for (const c of chunks) fs.rmSync(c.file, { force: true });
  // A file uploaded again in the same run replaces the one merged before.
  if (artifact.storage_path) removeArtifactFile(config, artifact.storage_path);
  return storagePath;
}

/** Drops the chunks of one artifact that was never confirmed. */
export function removeArtifactChunks(config: Config, runId: number, artifactId: number): void {
  for (const c of chunksOf(config, runId, artifactId)) fs.rmSync(c.file, { force: true });
}

/** Drops what is left of a run's v3 uploads (chunks of files never confirmed). */
export function removeRunChunks(config: Config, runId: number): void {
  fs.rmSync(chunkDir(config, runId), { recursive: true, force: true });
}
