import type yauzl from 'yauzl';
import { BadRequestError } from '../../../lib/errors';
import { yauzl as loadYauzl } from '../../../lib/lazy-require';
import { MAX_METADATA_BYTES } from './decompress';

// The wanted members of a zip stored on disk (a .nupkg's .nuspec, a CRAN binary's DESCRIPTION,
// a .conda's info archive), read entry by entry, each capped.

export async function readZipMembers(file: string, want: (name: string) => boolean, max = MAX_METADATA_BYTES): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      loadYauzl().open(file, { lazyEntries: true }, (err, z) => (err || !z ? reject(err ?? new Error('unreadable zip')) : resolve(z))));
  } catch (err) {
    throw new BadRequestError(`not a zip archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!want(entry.fileName) || /\/$/.test(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > max) return reject(new BadRequestError('archive member too large'));
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error(`unreadable entry ${entry.fileName}`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => { out.set(entry.fileName, Buffer.concat(chunks)); zip.readEntry(); });
        });
      });
      zip.readEntry();
    });
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`broken zip archive: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    zip.close();
  }
  return out;
}
