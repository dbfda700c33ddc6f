import type yauzl from 'yauzl';
import { BadRequestError } from '../../../lib/errors';
import { yauzl as loadYauzl } from '../../../lib/lazy-require';
import { MAX_METADATA_BYTES } from './decompress';

// Reading a stored zip (a Go module, a Composer package, a Swift source archive, a .nupkg, a
// CRAN binary, a .conda): every entry's name, and the bytes of the few entries a parser asks
// for, each capped.

export type ZipEntry = { name: string; size: number; data?: Buffer };

function open(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => loadYauzl().open(file, { lazyEntries: true, strictFileNames: false }, (err, z) => {
    if (err || !z) reject(new BadRequestError(`not a valid zip archive: ${err?.message ?? 'unreadable'}`));
    else resolve(z);
  }));
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, cap: number): Promise<Buffer> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => {
    if (err || !stream) return reject(new BadRequestError(`unreadable zip entry ${entry.fileName}`));
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > cap) { stream.destroy(); reject(new BadRequestError(`${entry.fileName} is too large`)); return; }
      chunks.push(c);
    });
    stream.on('error', (e) => reject(new BadRequestError(`unreadable zip entry ${entry.fileName}: ${e.message}`)));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  }));
}

/**
 * The entries of a zip file, in order; `want(name)` returns a byte cap for entries whose data is
 * read (a larger entry is a 400), or null to list the entry only. A broken zip is a 400.
 */
export async function zipEntries(file: string, want: (name: string) => number | null, maxEntries = 100_000): Promise<ZipEntry[]> {
  const zip = await open(file);
  const out: ZipEntry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (e: Error) => reject(new BadRequestError(`not a valid zip archive: ${e.message}`)));
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (out.length >= maxEntries) return reject(new BadRequestError('too many files in the archive'));
        const item: ZipEntry = { name: entry.fileName, size: entry.uncompressedSize };
        out.push(item);
        const cap = entry.fileName.endsWith('/') ? null : want(entry.fileName);
        if (cap === null) return zip.readEntry();
        if (entry.uncompressedSize > cap) return reject(new BadRequestError(`${entry.fileName} is too large`));
        readEntry(zip, entry, cap).then((data) => { item.data = data; zip.readEntry(); }, reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return out;
}

/** The bytes of the entries `want` accepts, by name, each within `max`. */
export async function readZipMembers(file: string, want: (name: string) => boolean, max = MAX_METADATA_BYTES): Promise<Map<string, Buffer>> {
  const entries = await zipEntries(file, (name) => (want(name) ? max : null));
  return new Map(entries.flatMap((e) => (e.data ? [[e.name, e.data] as const] : [])));
}
