import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { BadRequestError } from '../../../lib/errors';
import { tarStream } from '../../../lib/lazy-require';
import { MAX_METADATA_BYTES } from './decompress';

// Reading the members a registry's parser wants out of a tar (or .tar.gz) archive, through
// tar-stream: a .gem, a chart, a pub or chef archive, a vagrant box, a .deb's control, an
// .apk's or a .pkg.tar's info, a conda or CRAN package. Only the wanted regular files are kept,
// each capped; the rest stream past; reading stops once `done` says so, and a decompressed
// archive larger than `maxScan` (a zip bomb) stops with a 400. A broken archive is a 400.

export type TarEntry = { name: string; data: Buffer };
export type TarOptions = {
  gzip?: boolean;
  /** A byte cap for entries to keep, null to skip one. */
  want: (name: string) => number | null;
  /** Stop reading once this returns true (the entries kept so far). */
  done?: (kept: TarEntry[]) => boolean;
  /** Bytes of (decompressed) archive read at most. */
  maxScan?: number;
};

const clean = (name: string) => name.replace(/^\.\//, '').replace(/^\/+/, '');

/** The wanted entries of a tar stream, in archive order. */
export async function tarEntries(input: Readable, o: TarOptions): Promise<TarEntry[]> {
  const src: Readable = o.gzip ? input.pipe(zlib.createGunzip()) : input;
  const extract = tarStream().extract();
  const kept: TarEntry[] = [];
  const maxScan = o.maxScan ?? 1024 ** 3;
  let scanned = 0;
  let finished = false;
  src.on('data', (c: Buffer) => {
    scanned += c.length;
    if (scanned > maxScan) extract.destroy(new BadRequestError('the archive is too large to read'));
  });
  const fail = (e: Error) => extract.destroy(e);
  input.on('error', fail);
  src.on('error', fail);
  try {
    const reading = (async () => {
      for await (const entry of extract) {
        const name = clean(entry.header.name);
        const regular = entry.header.type === 'file' || entry.header.type === 'contiguous-file';
        const cap = regular ? o.want(name) : null;
        if (cap === null) { entry.resume(); continue; }
        if ((entry.header.size ?? 0) > cap) throw new BadRequestError(`${name} is too large`);
        const chunks: Buffer[] = [];
        for await (const c of entry) chunks.push(c as Buffer);
        kept.push({ name, data: Buffer.concat(chunks) });
        if (o.done?.(kept)) { finished = true; break; }
      }
    })();
    src.pipe(extract);
    await reading;
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`not a valid archive: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (finished || !extract.destroyed) extract.destroy();
    input.destroy();
  }
  return kept;
}

/** tarEntries over a stored file. */
export const tarFileEntries = (file: string, o: TarOptions) => tarEntries(fs.createReadStream(file), o);

/**
 * The regular files of a (decompressed) tar archive whose cleaned name `want` accepts, by that
 * name, all of them together within MAX_METADATA_BYTES; reading stops once `stopAfter` were found.
 */
export async function readTarMembers(input: Buffer | Readable, want: (name: string) => boolean, stopAfter = Infinity): Promise<Map<string, Buffer>> {
  let used = 0;
  const kept = await tarEntries(Buffer.isBuffer(input) ? Readable.from([input]) : input, {
    want: (name) => (want(name) ? MAX_METADATA_BYTES - used : null),
    done: (k) => { used += k[k.length - 1]!.data.length; return k.length >= stopAfter; },
  });
  return new Map(kept.map((e) => [e.name, e.data]));
}

/** A tar archive of these files (mode 0644, the given mtime). */
export async function writeTar(files: { name: string; data: Buffer }[], mtime = new Date()): Promise<Buffer> {
  const pack = tarStream().pack();
  const chunks: Buffer[] = [];
  const collected = (async () => { for await (const c of pack) chunks.push(c as Buffer); })();
  for (const f of files) {
    await new Promise<void>((resolve, reject) => pack.entry({ name: f.name, size: f.data.length, mode: 0o644, mtime }, f.data, (e) => (e ? reject(e) : resolve())));
  }
  pack.finalize();
  await collected;
  return Buffer.concat(chunks);
}

/** Gunzips a small buffer with a cap (a .gem's metadata.gz): 400 when it is not gzip or too large. */
export function gunzipCapped(data: Buffer, cap: number): Buffer {
  try {
    return zlib.gunzipSync(data, { maxOutputLength: cap });
  } catch (err) {
    throw new BadRequestError(`not a valid gzip stream: ${err instanceof Error ? err.message : String(err)}`);
  }
}
