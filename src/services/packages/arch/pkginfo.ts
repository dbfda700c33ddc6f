import fs from 'node:fs';
import { BadRequestError } from '../../../lib/errors';
import { decompressStream, sniffCompression } from '../archive/decompress';
import { readTarMembers } from '../archive/tar';

// An Arch package's .PKGINFO (Gitea's modules/packages/arch): `key = value` lines at the top of
// the package tarball (zstd, xz or gzip). Packages are read whole into memory only up to the
// metadata cap: their .PKGINFO is the first member, so bigger packages are read as a stream.

export type ArchMetadata = {
  base?: string; description?: string; project_url?: string; licenses?: string[]; groups?: string[];
  provides?: string[]; depends?: string[]; optdepends?: string[]; makedepends?: string[]; checkdepends?: string[];
  conflicts?: string[]; replaces?: string[]; backup?: string[]; packager?: string; build_date?: number; installed_size?: number;
};
export type ArchPackage = { name: string; version: string; architecture: string; metadata: ArchMetadata };

// Never a leading `_`: `_arch` is the internal package holding the built databases.
const NAME = /^[a-z0-9@.+][a-z0-9@._+-]*$/;
const VERSION = /^(?:[0-9]+:)?[A-Za-z0-9._+~]+-[0-9.]+$/;
const ARCH = /^[a-z0-9_]+$/;
const LISTS: Record<string, keyof ArchMetadata> = {
  license: 'licenses', group: 'groups', provides: 'provides', depend: 'depends', optdepend: 'optdepends', makedepend: 'makedepends',
  checkdepend: 'checkdepends', conflict: 'conflicts', replaces: 'replaces', backup: 'backup',
};

export function parsePkginfo(text: string): ArchPackage {
  const one = new Map<string, string>();
  const md: ArchMetadata = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z]+)\s*=\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    const list = LISTS[key];
    if (list) ((md[list] as string[] | undefined) ??= []).push(value);
    else one.set(key, value);
  }
  const name = one.get('pkgname') ?? '';
  const version = one.get('pkgver') ?? '';
  const architecture = one.get('arch') ?? '';
  if (!NAME.test(name)) throw new BadRequestError('invalid package name');
  if (!VERSION.test(version)) throw new BadRequestError('invalid package version');
  if (!ARCH.test(architecture)) throw new BadRequestError('invalid package architecture');
  Object.assign(md, {
    base: one.get('pkgbase'), description: one.get('pkgdesc'), project_url: one.get('url'), packager: one.get('packager'),
    build_date: one.has('builddate') ? Number(one.get('builddate')) : undefined, installed_size: one.has('size') ? Number(one.get('size')) : undefined,
  });
  return { name, version, architecture, metadata: md };
}

/** The .PKGINFO of the package stored at `file`, and the paths it installs (for the .files database). */
export async function readArchPackage(file: string): Promise<{ pkg: ArchPackage; files: string[] }> {
  const head = Buffer.alloc(6);
  const fd = fs.openSync(file, 'r');
  try { fs.readSync(fd, head, 0, 6, 0); } finally { fs.closeSync(fd); }
  // Streamed: a package may be far larger than memory should hold; only .PKGINFO is kept.
  const tar = decompressStream(fs.createReadStream(file), sniffCompression(head));
  const paths: string[] = [];
  const found = await readTarMembers(tar, (n) => {
    if (!n.startsWith('.')) paths.push(n);
    return n === '.PKGINFO';
  });
  const info = found.get('.PKGINFO');
  if (!info) throw new BadRequestError('.PKGINFO file not found');
  return { pkg: parsePkginfo(info.toString('utf8')), files: paths.sort() };
}
