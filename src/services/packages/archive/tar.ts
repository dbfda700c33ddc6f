import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { BadRequestError } from '../../../lib/errors';

// A small streaming tar reader (ustar, with pax and GNU long names) for the tarballs registries
// read metadata from: a .gem, a chart, a pub or chef archive, a vagrant box. Only the entries a
// parser asks for are kept; the rest stream past. Reading stops once `done` says so.

export type TarEntry = { name: string; data: Buffer };
export type TarOptions = {
  gzip?: boolean;
  /** A byte cap for entries to keep, null to skip one. */
  want: (name: string) => number | null;
  /** Stop reading once this returns true (the entries kept so far). */
  done?: (kept: TarEntry[]) => boolean;
  /** Bytes of (decompressed) archive read at most: a zip bomb stops here. */
  maxScan?: number;
};

/** Pulls exact byte counts out of a chunk stream. */
class Chunks {
  private buf: Buffer = Buffer.alloc(0);
  private readonly it: AsyncIterator<Buffer>;
  scanned = 0;
  constructor(src: AsyncIterable<Buffer>, private readonly maxScan: number) { this.it = src[Symbol.asyncIterator](); }
  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n) {
      const r = await this.it.next();
      if (r.done) return false;
      this.scanned += r.value.length;
      if (this.scanned > this.maxScan) throw new BadRequestError('the archive is too large to read');
      this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    }
    return true;
  }
  async take(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) return null;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  async skip(n: number): Promise<boolean> {
    while (n > 0) {
      if (!this.buf.length && !(await this.fill(1))) return false;
      const k = Math.min(n, this.buf.length);
      this.buf = this.buf.subarray(k);
      n -= k;
    }
    return true;
  }
  close(): void { void this.it.return?.(); }
}

const str = (b: Buffer) => { const z = b.indexOf(0); return b.subarray(0, z < 0 ? b.length : z).toString('utf8'); };
const octal = (b: Buffer) => { const s = str(b).trim(); return s ? Number.parseInt(s, 8) : 0; };
const padded = (n: number) => Math.ceil(n / 512) * 512;

/** The path a pax header sets, if any. */
function paxPath(data: Buffer): string | null {
  for (const line of data.toString('utf8').split('\n')) {
    const m = /^\d+ path=(.*)$/.exec(line);
    if (m) return m[1]!;
  }
  return null;
}

/** The entries a parser asked for, read from a tar (or .tar.gz) stream. A broken archive is a 400. */
export async function tarEntries(input: Readable, o: TarOptions): Promise<TarEntry[]> {
  const src = o.gzip ? input.pipe(zlib.createGunzip()) : input;
  const chunks = new Chunks(src as AsyncIterable<Buffer>, o.maxScan ?? 1024 ** 3);
  const kept: TarEntry[] = [];
  let longName: string | null = null;
  try {
    for (;;) {
      const header = await chunks.take(512);
      if (!header || header.every((b) => b === 0)) break;
      const size = octal(header.subarray(124, 136));
      const type = String.fromCharCode(header[156] || 48);
      const prefix = header.subarray(257, 263).toString('latin1').startsWith('ustar') ? str(header.subarray(345, 500)) : '';
      const name = longName ?? (prefix ? `${prefix}/${str(header.subarray(0, 100))}` : str(header.subarray(0, 100)));
      longName = null;
      if (type === 'x' || type === 'L') {
        const data = await chunks.take(padded(size));
        if (!data) throw new BadRequestError('truncated archive');
        longName = type === 'L' ? str(data.subarray(0, size)) : paxPath(data.subarray(0, size));
        continue;
      }
      const cap = type === '0' || type === '\0' || type === '7' ? o.want(name.replace(/^\.\//, '')) : null;
      if (cap !== null) {
        if (size > cap) throw new BadRequestError(`${name} is too large`);
        const data = await chunks.take(padded(size));
        if (!data) throw new BadRequestError('truncated archive');
        kept.push({ name: name.replace(/^\.\//, ''), data: Buffer.from(data.subarray(0, size)) });
        if (o.done?.(kept)) break;
      } else if (!(await chunks.skip(padded(size)))) throw new BadRequestError('truncated archive');
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`not a valid archive: ${(err as Error).message}`);
  } finally {
    chunks.close();
    input.destroy();
  }
  return kept;
}

/** tarEntries over a stored file. */
export const tarFileEntries = (file: string, o: TarOptions) => tarEntries(fs.createReadStream(file), o);

/** Gunzips a small buffer with a cap (a .gem's metadata.gz): 400 when it is not gzip or too large. */
export function gunzipCapped(data: Buffer, cap: number): Buffer {
  try {
    return zlib.gunzipSync(data, { maxOutputLength: cap });
  } catch (err) {
    throw new BadRequestError(`not a valid gzip stream: ${(err as Error).message}`);
  }
}
