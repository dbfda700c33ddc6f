import fs from 'node:fs';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { indexedFiles } from '../../../models/package-index';
import { decompress, MAX_METADATA_BYTES } from '../archive/decompress';
import { readTarMembers } from '../archive/tar';
import { readZipMembers } from '../archive/zip';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile } from '../packages';
import { getFileOfVersion, getVersion } from '../queries';
import type { Hearth } from '../../../hearth';

// Gitea's Conda registry (services/packages/conda, modules/packages/conda): `.tar.bz2` and
// `.conda` packages in a channel ('' or a path), their info/index.json and info/about.json read
// at upload; repodata.json of a channel and subdir is made from the database at each request
// (unsigned, one query: consistent with the files served).

export const CONDA = 'conda';
const CHANNEL = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*)?$/;
const FILENAME = /^[A-Za-z0-9_.+-]+\.(tar\.bz2|conda)$/;

type IndexJson = { name?: string; version?: string; build?: string; build_number?: number; subdir?: string; depends?: string[]; [k: string]: unknown };
type AboutJson = { summary?: string; description?: string; home?: string; doc_url?: string; dev_url?: string; license?: string; keywords?: string[] };

async function readInfo(file: string, conda: boolean): Promise<{ index: IndexJson; about: AboutJson }> {
  let members: Map<string, Buffer>;
  if (conda) {
    const zip = await readZipMembers(file, (n) => /^info-.*\.tar\.zst$/.test(n));
    const inner = [...zip.values()][0];
    if (!inner) throw new BadRequestError('info archive not found');
    members = await readTarMembers(await decompress(inner, 'zst'), (n) => n === 'info/index.json' || n === 'info/about.json');
  } else {
    if (fs.statSync(file).size > MAX_METADATA_BYTES) throw new BadRequestError('package too large to index, use the .conda format');
    members = await readTarMembers(await decompress(fs.readFileSync(file), 'bz2', MAX_METADATA_BYTES * 4), (n) => n === 'info/index.json' || n === 'info/about.json', 2);
  }
  const parse = (n: string) => { try { return JSON.parse(members.get(n)?.toString('utf8') ?? '{}'); } catch { throw new BadRequestError(`invalid ${n}`); } };
  return { index: parse('info/index.json') as IndexJson, about: parse('info/about.json') as AboutJson };
}

export async function uploadCondaPackage(h: Hearth, i: { owner: User; creator: User; channel: string; filename: string; blob: StoredBlob }): Promise<void> {
  let info;
  try {
    if (!CHANNEL.test(i.channel)) throw new BadRequestError('invalid channel');
    if (!FILENAME.test(i.filename)) throw new BadRequestError('invalid package file name');
    info = await withBlobFile(h.blobs, i.blob.hashes.sha256, (f) => readInfo(f, i.filename.endsWith('.conda')));
    if (!info.index.name || !/^[a-z0-9_.-]+$/.test(info.index.name) || !info.index.version) throw new BadRequestError('invalid package name or version');
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  const { index, about } = info;
  const subdir = index.subdir ?? 'noarch';
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: CONDA, name: index.name!, version: index.version!, blob: i.blob,
    versionMetadata: { summary: about.summary, description: about.description, project_url: about.home, documentation_url: about.doc_url, repository_url: about.dev_url, license: about.license ?? index.license },
    file: {
      name: i.filename, compositeKey: `${i.channel}|${subdir}`, isLead: true,
      properties: { 'conda.channel': i.channel, 'conda.subdir': subdir, 'conda.index': JSON.stringify(index) },
    },
  });
}

/** repodata.json of a channel and subdir (`packages` for .tar.bz2, `packages.conda` for .conda). */
export async function condaRepodata(db: DB, owner: User, channel: string, subdir: string): Promise<unknown> {
  const files = (await indexedFiles(db, owner.id, CONDA, { name: 'conda.channel', value: channel })).filter((f) => f.props['conda.subdir'] === subdir);
  const packages: Record<string, unknown> = {};
  const condas: Record<string, unknown> = {};
  for (const f of files) {
    const index = JSON.parse(f.props['conda.index'] ?? '{}') as IndexJson;
    const entry = { ...index, md5: f.blob.hash_md5, sha256: f.blob.hash_sha256, size: f.blob.size, depends: index.depends ?? [] };
    (f.file.name.endsWith('.conda') ? condas : packages)[f.file.name] = entry;
  }
  return { info: { subdir }, packages, 'packages.conda': condas, removed: [], repodata_version: 1 };
}

/** A package file of a channel and subdir. */
export async function getCondaFile(db: DB, owner: User, channel: string, subdir: string, filename: string) {
  const m = /^(.+)-([^-]+)-([^-]+)\.(tar\.bz2|conda)$/.exec(filename);
  if (!m) throw new NotFoundError('package file does not exist');
  const { version } = await getVersion(db, owner, CONDA, m[1]!, m[2]!);
  return { version, ...(await getFileOfVersion(db, version, filename, `${channel}|${subdir}`)) };
}
