import crypto from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

// A small POSIX tar (ustar, with pax records for long names and sizes) written and read here
// rather than through a dependency: the dump needs only regular files and directories, and
// hashing each entry while it streams (the manifest's sha256) is easiest inside the writer.
// GNU tar, bsdtar and node-tar all read what this writes.

const BLOCK = 512;
const ZERO = Buffer.alloc(BLOCK);
const CHUNK = 1024 * 1024;

export type EntryType = 'file' | 'dir';

function octal(buf: Buffer, value: number, offset: number, width: number): void {
  buf.write(value.toString(8).padStart(width - 1, '0'), offset, width - 1, 'ascii');
}

function header(name: string, type: EntryType | 'pax', size: number, mode: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name.slice(0, 100), 0, 100, 'utf8');
  octal(h, mode, 100, 8);
  octal(h, 0, 108, 8);
  octal(h, 0, 116, 8);
  octal(h, size <= 0o77777777777 ? size : 0, 124, 12);
  octal(h, Math.floor(mtime), 136, 12);
  h.write(type === 'file' ? '0' : type === 'dir' ? '5' : 'x', 156, 1, 'ascii');
  h.write('ustar\u000000', 257, 8, 'ascii');
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return h;
}

/** A pax record "<len> key=value\n" whose length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len += 1;
  return `${len}${body}`;
}

/** Writes entries to `out` (a file or a gzip stream), honouring back-pressure. */
export class TarWriter {
  bytes = 0;
  constructor(private readonly out: Writable) {}

  private async write(buf: Buffer): Promise<void> {
    this.bytes += buf.length;
    if (!this.out.write(buf)) await once(this.out, 'drain');
  }

  private async head(name: string, type: EntryType, size: number, mode: number, mtime: number): Promise<void> {
    const long = Buffer.byteLength(name) > 100 || size > 0o77777777777;
    if (long) {
      const pax = Buffer.from(paxRecord('path', name) + (size > 0o77777777777 ? paxRecord('size', String(size)) : ''));
      await this.write(header('PaxHeader', 'pax', pax.length, 0o644, mtime));
      await this.write(pax);
      await this.pad(pax.length);
    }
    await this.write(header(name, type, size, mode, mtime));
  }

  private async pad(size: number): Promise<void> {
    if (size % BLOCK) await this.write(ZERO.subarray(0, BLOCK - (size % BLOCK)));
  }

  async dir(name: string, mtime = Date.now() / 1000): Promise<void> {
    await this.head(name.endsWith('/') ? name : `${name}/`, 'dir', 0, 0o755, mtime);
  }

  /** An entry from memory; returns its sha256. */
  async buffer(name: string, data: Buffer, mode = 0o644, mtime = Date.now() / 1000): Promise<string> {
    await this.head(name, 'file', data.length, mode, mtime);
    await this.write(data);
    await this.pad(data.length);
    return crypto.createHash('sha256').update(data).digest('hex');
  }

  /**
   * An entry from an open file of known size (the size in the header is fixed before the bytes
   * stream, so a file that grows meanwhile is cut at that size; one that shrinks is an error).
   */
  async file(name: string, fd: number, size: number, mode: number, mtime: number, onBytes?: (n: number) => void): Promise<string> {
    await this.head(name, 'file', size, mode, mtime);
    const hash = crypto.createHash('sha256');
    let done = 0;
    while (done < size) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, size - done));
      const n = fs.readSync(fd, buf, 0, buf.length, done);
      if (n === 0) throw new Error(`${name}: file shrank while it was read`);
      const part = buf.subarray(0, n);
      hash.update(part);
      await this.write(part);
      done += n;
      onBytes?.(n);
    }
    await this.pad(size);
    return hash.digest('hex');
  }

  /** The two zero blocks that end an archive; then ends `out` and waits for it to flush. */
  async finish(): Promise<void> {
    await this.write(Buffer.concat([ZERO, ZERO]));
    this.out.end();
    if (!this.out.writableFinished) await once(this.out, 'finish');
  }
}

export type TarEntry = { name: string; type: EntryType; size: number; mode: number };
/** Receives one entry's bytes; `end` is awaited before the next entry starts. */
export type EntrySink = { write(chunk: Buffer): void; end(): void | Promise<void> };

function parseOctal(buf: Buffer, offset: number, width: number): number {
  const s = buf.toString('ascii', offset, offset + width).replace(/\0.*$/s, '').trim();
  return s ? parseInt(s, 8) : 0;
}

function cString(buf: Buffer, offset: number, width: number): string {
  const end = buf.indexOf(0, offset);
  return buf.toString('utf8', offset, end >= 0 && end < offset + width ? end : offset + width);
}

function parsePax(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

function parseHeader(h: Buffer): { name: string; flag: string; size: number; mode: number } {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (sum !== parseOctal(h, 148, 8)) throw new Error('not a tar archive (bad header checksum)');
  const prefix = h.toString('ascii', 257, 262) === 'ustar' ? cString(h, 345, 155) : '';
  const name = cString(h, 0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, flag: String.fromCharCode(h[156]!), size: parseOctal(h, 124, 12), mode: parseOctal(h, 100, 8) };
}

/**
 * Reads a tar stream, calling `onEntry` for each file or directory; the sink it returns gets the
 * bytes. Throws on a damaged header, an unsupported entry type, or a truncated archive.
 */
export async function readTar(input: Readable, onEntry: (e: TarEntry) => EntrySink | null): Promise<void> {
  let buf: Buffer = Buffer.alloc(0);
  let pax: Record<string, string> = {};
  let state: { kind: 'header' } | { kind: 'body'; left: number; pad: number; sink: EntrySink | null; paxBody?: Buffer[] } = { kind: 'header' };
  let ended = false;
  for await (const chunk of input) {
    buf = buf.length ? Buffer.concat([buf, chunk as Buffer]) : (chunk as Buffer);
    for (;;) {
      if (ended) { buf = Buffer.alloc(0); break; }
      if (state.kind === 'header') {
        if (buf.length < BLOCK) break;
        const h = buf.subarray(0, BLOCK);
        buf = buf.subarray(BLOCK);
        if (h.equals(ZERO)) { ended = true; continue; }
        const p = parseHeader(h);
        const size = pax.size ? Number(pax.size) : p.size;
        const name = pax.path ?? p.name;
        const padTo = size % BLOCK ? BLOCK - (size % BLOCK) : 0;
        if (p.flag === 'x') { state = { kind: 'body', left: size, pad: padTo, sink: null, paxBody: [] }; continue; }
        pax = {};
        const type: EntryType | null = p.flag === '0' || p.flag === '\0' ? 'file' : p.flag === '5' ? 'dir' : null;
        if (!type) throw new Error(`${name}: unsupported tar entry type '${p.flag}'`);
        state = { kind: 'body', left: size, pad: padTo, sink: onEntry({ name: name.replace(/\/$/, ''), type, size, mode: p.mode }) };
      }
      if (state.kind === 'body') {
        const take = Math.min(state.left, buf.length);
        if (take > 0) {
          const part = buf.subarray(0, take);
          if (state.paxBody) state.paxBody.push(Buffer.from(part));
          else state.sink?.write(part);
          state.left -= take;
          buf = buf.subarray(take);
        }
        if (state.left > 0) break;
        if (buf.length < state.pad) break;
        buf = buf.subarray(state.pad);
        if (state.paxBody) pax = parsePax(Buffer.concat(state.paxBody).toString('utf8'));
        else await state.sink?.end();
        state = { kind: 'header' };
      }
    }
  }
  if (!ended) throw new Error('the archive is truncated');
}
