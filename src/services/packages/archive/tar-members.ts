import { Readable } from 'node:stream';
import { BadRequestError } from '../../../lib/errors';
import { tarStream } from '../../../lib/lazy-require';
import { MAX_METADATA_BYTES } from './decompress';

// Reading the wanted members of a (decompressed) tar archive held in memory, and writing one.

const clean = (name: string) => name.replace(/^\.\//, '').replace(/^\/+/, '');

/**
 * The regular files of a tar archive whose cleaned name (no leading `./`) `want` accepts, by that
 * name. Reading stops early once `stopAfter` members were found.
 */
export async function readTarMembers(input: Buffer | Readable, want: (name: string) => boolean, stopAfter = Infinity): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tarStream().extract();
  const source = Buffer.isBuffer(input) ? Readable.from([input]) : input;
  let total = 0;
  try {
    const done = (async () => {
      for await (const entry of extract) {
        const name = clean(entry.header.name);
        if (entry.header.type === 'file' && want(name) && out.size < stopAfter) {
          const chunks: Buffer[] = [];
          for await (const c of entry) {
            total += (c as Buffer).length;
            if (total > MAX_METADATA_BYTES) throw new BadRequestError('archive member too large');
            chunks.push(c as Buffer);
          }
          out.set(name, Buffer.concat(chunks));
          if (out.size >= stopAfter) { extract.destroy(); break; }
        } else {
          entry.resume();
        }
      }
    })();
    source.on('error', (e) => extract.destroy(e));
    source.pipe(extract);
    await done;
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    if (out.size >= stopAfter) return out;
    throw new BadRequestError(`broken tar archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  return out;
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
