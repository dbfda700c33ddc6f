import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { addAbortSignal, Transform, type Readable } from 'node:stream';
import type { Config } from '../../config/schema';
import { CONFIG_ENTRY, DATA_SECTIONS, DB_ENTRY, MANIFEST, REPOS_PREFIX, SECRET_ENTRY, parseManifest, type DumpManifest, type ManifestEntry } from './manifest';
import type { Progress } from './progress';
import { readTar, type EntrySink, type TarEntry } from './tar';

/** A damaged or foreign archive: restore stops and removes what it wrote. */
export class ArchiveError extends Error {}

/** Where an archive entry goes in the target instance; null for an entry no dump writes. */
export function targetOf(config: Config, name: string): string | null {
  const parts = name.split('/');
  if (!name || name.startsWith('/') || parts.some((p) => p === '..' || p === '.' || p === '')) return null;
  const data = config.server.data_dir;
  if (name === DB_ENTRY) return config.database.path;
  if (name === SECRET_ENTRY) return path.join(data, 'secret_key');
  // The dumped config is kept beside the data, for reference: the target's own (--config) rules.
  if (name === CONFIG_ENTRY) return path.join(data, 'config.toml');
  if (name.startsWith(REPOS_PREFIX)) return path.join(config.repository.root, ...parts.slice(1));
  for (const rel of Object.values(DATA_SECTIONS)) {
    if (name === rel || name.startsWith(`${rel}/`)) return path.join(data, ...parts);
  }
  return null;
}

/** The archive's tar stream (gunzipped when it is gzip), counting the bytes read from disk. */
function openArchive(file: string, progress: Progress, signal?: AbortSignal): Readable {
  const fd = fs.openSync(file, 'r');
  const magic = Buffer.alloc(2);
  fs.readSync(fd, magic, 0, 2, 0);
  fs.closeSync(fd);
  const counted = fs.createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(new Transform({
    transform(chunk: Buffer, _enc, done) { progress.add(chunk.length); done(null, chunk); },
  }));
  const read = magic[0] === 0x1f && magic[1] === 0x8b ? counted.pipe(zlib.createGunzip()) : counted;
  return signal ? addAbortSignal(signal, read) : read;
}

/**
 * Unpacks the archive into the target's places, hashing every file as it is written, then checks
 * the result against the manifest: every listed entry present with its size and sha256, nothing
 * unlisted. Returns the manifest; throws ArchiveError on any difference.
 */
export async function extractArchive(config: Config, file: string, progress: Progress, signal?: AbortSignal): Promise<DumpManifest> {
  const seen = new Map<string, ManifestEntry>();
  let manifestText: string | null = null;
  const input = openArchive(file, progress, signal);
  const onEntry = (e: TarEntry): EntrySink | null => {
    if (e.name === MANIFEST && e.type === 'file') {
      const parts: Buffer[] = [];
      return { write: (c) => parts.push(Buffer.from(c)), end: () => { manifestText = Buffer.concat(parts).toString('utf8'); } };
    }
    const target = targetOf(config, e.name);
    if (!target) throw new ArchiveError(`unexpected entry in the archive: ${e.name}`);
    if (e.type === 'dir') {
      fs.mkdirSync(target, { recursive: true });
      return null;
    }
    return fileSink(e, target, seen, progress);
  };
  try {
    await readTar(input, onEntry);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (err instanceof ArchiveError) throw err;
    throw new ArchiveError(`cannot read ${file}: ${(err as Error).message}`);
  }
  if (manifestText === null) throw new ArchiveError(`${file} has no ${MANIFEST}: not a hearth dump`);
  let manifest: DumpManifest;
  try {
    manifest = parseManifest(manifestText);
  } catch (err) {
    throw new ArchiveError(`${file}: ${(err as Error).message}`);
  }
  verify(manifest, seen);
  return manifest;
}

function fileSink(e: TarEntry, target: string, seen: Map<string, ManifestEntry>, progress: Progress): EntrySink {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let fd: number;
  try {
    fd = fs.openSync(target, 'wx', e.mode & 0o777 || 0o644);
  } catch (err) {
    throw new ArchiveError(`${e.name}: ${(err as Error).message}`);
  }
  const hash = crypto.createHash('sha256');
  let size = 0;
  return {
    write: (chunk) => {
      hash.update(chunk);
      fs.writeSync(fd, chunk);
      size += chunk.length;
    },
    end: () => {
      fs.closeSync(fd);
      seen.set(e.name, { path: e.name, size, sha256: hash.digest('hex') });
      progress.item();
    },
  };
}

function verify(manifest: DumpManifest, seen: Map<string, ManifestEntry>): void {
  for (const want of manifest.entries) {
    const got = seen.get(want.path);
    if (!got) throw new ArchiveError(`the archive lacks ${want.path}, listed in its manifest`);
    if (got.size !== want.size || got.sha256 !== want.sha256) {
      throw new ArchiveError(`checksum mismatch for ${want.path}: the archive is damaged`);
    }
    seen.delete(want.path);
  }
  const extra = [...seen.keys()];
  if (extra.length) throw new ArchiveError(`${extra[0]} is in the archive but not in its manifest`);
}
