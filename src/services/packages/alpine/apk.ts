import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { BadRequestError } from '../../../lib/errors';
import { MAX_METADATA_BYTES } from '../archive/decompress';
import { readTarMembers } from '../archive/tar';

// An .apk (Gitea's modules/packages/alpine): gzip members concatenated, the optional signature
// tar, then the control tar with .PKGINFO, then the data. The index's `C:` field is the SHA-1 of
// the control member's compressed bytes, so the members' boundaries are found here.

export type AlpineMetadata = {
  description?: string; license?: string; project_url?: string; maintainer?: string; build_date?: number; commit?: string;
  provider_priority?: number; dependencies?: string[]; provides?: string[]; install_if?: string; origin?: string; installed_size?: number;
};
export type AlpinePackage = { name: string; version: string; architecture: string; checksum: string; metadata: AlpineMetadata };

/** The end of the gzip member starting at `start` (header, deflate body, 8-byte trailer). */
export function gzipMemberEnd(buf: Buffer, start: number): number {
  if (buf[start] !== 0x1f || buf[start + 1] !== 0x8b || buf[start + 2] !== 8) throw new BadRequestError('not a gzip stream');
  const flags = buf[start + 3]!;
  let pos = start + 10;
  if (flags & 4) pos += 2 + buf.readUInt16LE(pos);
  if (flags & 8) pos = buf.indexOf(0, pos) + 1;
  if (flags & 16) pos = buf.indexOf(0, pos) + 1;
  if (flags & 2) pos += 2;
  if (pos <= start) throw new BadRequestError('broken gzip header');
  const { engine } = zlib.inflateRawSync(buf.subarray(pos), { info: true, maxOutputLength: MAX_METADATA_BYTES }) as unknown as { engine: { bytesWritten: number } };
  return pos + engine.bytesWritten + 8;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const HEAD_BYTES = 16 << 20;

function readHead(file: string, max: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(max, fs.fstatSync(fd).size));
    fs.readSync(fd, buf, 0, buf.length, 0);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

export function parseApkPkginfo(text: string): Omit<AlpinePackage, 'checksum'> {
  const one = new Map<string, string>();
  const deps: string[] = [];
  const provides: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\s*=\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === 'depend') deps.push(m[2]!);
    else if (m[1] === 'provides') provides.push(m[2]!);
    else one.set(m[1]!, m[2]!);
  }
  const name = one.get('pkgname') ?? '';
  const version = one.get('pkgver') ?? '';
  const architecture = one.get('arch') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('invalid package name');
  if (!/^[A-Za-z0-9._+~-]+$/.test(version)) throw new BadRequestError('invalid package version');
  if (!/^[a-z0-9_]+$/.test(architecture)) throw new BadRequestError('invalid package architecture');
  const num = (k: string) => (one.has(k) ? Number(one.get(k)) : undefined);
  return {
    name, version, architecture,
    metadata: {
      description: one.get('pkgdesc'), license: one.get('license'), project_url: one.get('url'), maintainer: one.get('maintainer'),
      build_date: num('builddate'), commit: one.get('commit'), provider_priority: num('provider_priority'), origin: one.get('origin'),
      installed_size: num('size'), install_if: one.get('install_if'), dependencies: deps.length ? deps : undefined, provides: provides.length ? provides : undefined,
    },
  };
}

/** Reads the .apk stored at `file`: its .PKGINFO and the control member's checksum. */
export async function readApk(file: string): Promise<AlpinePackage> {
  // The signature and control members come first and are small: only the file's head is read.
  const buf = readHead(file, HEAD_BYTES);
  try {
    let start = 0;
    for (let member = 0; member < 2 && start < buf.length; member++) {
      const end = gzipMemberEnd(buf, start);
      const tar = zlib.gunzipSync(buf.subarray(start, end), { maxOutputLength: MAX_METADATA_BYTES });
      const found = await readTarMembers(Buffer.concat([tar, Buffer.alloc(1024)]), (n) => n === '.PKGINFO', 1);
      const info = found.get('.PKGINFO');
      if (info) {
        const checksum = `Q1${crypto.createHash('sha1').update(buf.subarray(start, end)).digest('base64')}`;
        return { ...parseApkPkginfo(info.toString('utf8')), checksum };
      }
      start = end;
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(`broken apk file: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw new BadRequestError('.PKGINFO file not found');
}
