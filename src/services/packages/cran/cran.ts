import fs from 'node:fs';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { indexedFiles, type IndexedFile } from '../../../models/package-index';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { gzip } from '../repo-index/compress';
import { createPackageAndAddFile } from '../packages';
import { getFileOfVersion, getVersion } from '../queries';
import { readCranPackage } from './description';
import type { Hearth } from '../../../hearth';

// Gitea's CRAN registry (services/packages/cran, routers/api/packages/cran): source packages
// under src/contrib, binaries per platform and R version under bin/{platform}/contrib/{rversion}.
// PACKAGES lists the newest version of each package, read from the database in one query at
// each request (unsigned, so always consistent with what the pool serves: no index job needed).

export const CRAN = 'cran';
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const FIELDS = ['Depends', 'Imports', 'LinkingTo', 'Suggests', 'Enhances', 'License', 'NeedsCompilation'];

const binKey = (platform: string, rversion: string) => `${platform}|${rversion}`;

function startsWithZipMagic(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    fs.readSync(fd, head, 0, 2, 0);
    return head.toString('latin1') === 'PK';
  } finally {
    fs.closeSync(fd);
  }
}

export async function uploadCranPackage(h: Hearth, i: { owner: User; creator: User; blob: StoredBlob; binary?: { platform: string; rversion: string } }): Promise<void> {
  let pkg;
  let ext = 'tar.gz';
  try {
    if (i.binary && (!SEGMENT.test(i.binary.platform) || !SEGMENT.test(i.binary.rversion))) throw new BadRequestError('invalid platform or R version');
    // Windows binaries are zips, macOS ones gzipped tars.
    const binary = !!i.binary;
    let isZip = false;
    pkg = await withBlobFile(h.blobs, i.blob.hashes.sha256, (file) => {
      isZip = binary && startsWithZipMagic(file);
      return readCranPackage(file, isZip);
    });
    if (i.binary) ext = isZip ? 'zip' : 'tgz';
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  const fields: Record<string, string> = {};
  for (const f of FIELDS) { const v = pkg.fields.get(f); if (v !== undefined) fields[f] = v; }
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: CRAN, name: pkg.name, version: pkg.version, versionMetadata: pkg.metadata, blob: i.blob,
    file: {
      name: `${pkg.name}_${pkg.version}.${ext}`, compositeKey: i.binary ? binKey(i.binary.platform, i.binary.rversion) : '', isLead: true,
      properties: {
        'cran.type': i.binary ? 'bin' : 'src', 'cran.fields': JSON.stringify(fields),
        ...(i.binary ? { 'cran.platform': i.binary.platform, 'cran.rversion': i.binary.rversion } : {}),
      },
    },
  });
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? -1) !== (pb[i] ?? -1)) return (pa[i] ?? -1) - (pb[i] ?? -1);
  return 0;
}

/** PACKAGES of the source packages, or of the binaries of one platform and R version. */
export async function cranPackagesIndex(db: DB, owner: User, where: { binary?: { platform: string; rversion: string } }, gz: boolean): Promise<Buffer> {
  const files = where.binary
    ? (await indexedFiles(db, owner.id, CRAN, { name: 'cran.platform', value: where.binary.platform })).filter((f) => f.props['cran.rversion'] === where.binary!.rversion)
    : await indexedFiles(db, owner.id, CRAN, { name: 'cran.type', value: 'src' });
  const newest = new Map<string, IndexedFile>();
  for (const f of files) {
    const seen = newest.get(f.packageName);
    if (!seen || compareVersions(f.version, seen.version) > 0) newest.set(f.packageName, f);
  }
  const entries = [...newest.values()].sort((a, b) => a.packageName.localeCompare(b.packageName)).map((f) => {
    const fields = JSON.parse(f.props['cran.fields'] ?? '{}') as Record<string, string>;
    const lines = [`Package: ${f.packageName}`, `Version: ${f.version}`];
    for (const k of FIELDS) if (fields[k]) lines.push(`${k}: ${fields[k]}`);
    lines.push(`MD5sum: ${f.blob.hash_md5}`);
    return `${lines.join('\n')}\n`;
  });
  const text = Buffer.from(entries.join('\n'), 'utf8');
  return gz ? gzip(text) : text;
}

/** A source file (`{name}_{version}.tar.gz`) or a binary of a platform and R version. */
export async function getCranFile(db: DB, owner: User, filename: string, binary?: { platform: string; rversion: string }) {
  const m = /^(.+)_([^_]+)\.(tar\.gz|zip|tgz)$/.exec(filename);
  if (!m) throw new NotFoundError('package file does not exist');
  const { version } = await getVersion(db, owner, CRAN, m[1]!, m[2]!);
  return { version, ...(await getFileOfVersion(db, version, filename, binary ? binKey(binary.platform, binary.rversion) : '')) };
}
