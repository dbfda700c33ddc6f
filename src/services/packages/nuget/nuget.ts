import { Readable } from 'node:stream';
import type { DB } from '../../../db/connect';
import type { Package, PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { indexedFiles, type IndexedFile } from '../../../models/package-index';
import { readZipMembers } from '../archive/zip';
import { removeBlobFile, withBlobFile, storeBlob, type StoredBlob } from '../blob-store';
import { addFileToExistingVersion, createPackageAndAddFile, deleteVersion } from '../packages';
import { getFileOfVersion, getPackage, getVersion, getVersionsOfPackage, searchPackages } from '../queries';
import { readNupkg } from './nuspec';
import { portablePdbId } from './pdb';
import type { Hearth } from '../../../hearth';

// Gitea's NuGet registry (services/packages/nuget): a .nupkg publishes a version once (409
// after), with its .nuspec as a second file; a .snupkg adds the symbols of an existing version,
// each portable PDB a file found by its id; everything else (registration, flat container,
// search) reads the database.

export const NUGET = 'nuget';
const drop = async (h: Hearth, blob: StoredBlob) => {
  if (blob.created && !(await blobBySha256(h.db, blob.hashes.sha256))) await removeBlobFile(h.blobs, blob.hashes.sha256);
};

export async function publishNupkg(h: Hearth, i: { owner: User; creator: User; blob: StoredBlob }): Promise<void> {
  let pkg;
  try {
    pkg = await withBlobFile(h.blobs, i.blob.hashes.sha256, readNupkg);
    if (pkg.symbols) throw new BadRequestError('a symbol package goes to the symbolpackage endpoint');
  } catch (err) {
    await drop(h, i.blob);
    throw err;
  }
  const lower = `${pkg.id}.${pkg.version}`.toLowerCase();
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: NUGET, name: pkg.id, version: pkg.version, versionMetadata: pkg.metadata, failIfVersionExists: true,
    blob: i.blob, file: { name: `${lower}.nupkg`, isLead: true },
  });
  const nuspec = await storeBlob(h.blobs, Readable.from([pkg.nuspec]));
  await addFileToExistingVersion(h, {
    owner: i.owner, creator: i.creator, type: NUGET, name: pkg.id, version: pkg.version, blob: nuspec, file: { name: `${pkg.id.toLowerCase()}.nuspec`, isLead: false },
  });
}

export async function publishSnupkg(h: Hearth, i: { owner: User; creator: User; blob: StoredBlob }): Promise<void> {
  let pkg;
  let pdbs: Map<string, Buffer>;
  try {
    ({ pkg, pdbs } = await withBlobFile(h.blobs, i.blob.hashes.sha256, async (file) => {
      const read = await readNupkg(file);
      if (!read.symbols) throw new BadRequestError('not a symbol package');
      return { pkg: read, pdbs: await readZipMembers(file, (n) => n.toLowerCase().endsWith('.pdb')) };
    }));
    await getVersion(h.db, i.owner, NUGET, pkg.id, pkg.version);
  } catch (err) {
    await drop(h, i.blob);
    throw err;
  }
  const base = { owner: i.owner, creator: i.creator, type: NUGET, name: pkg.id, version: pkg.version };
  await addFileToExistingVersion(h, { ...base, blob: i.blob, file: { name: `${pkg.id}.${pkg.version}.snupkg`.toLowerCase(), isLead: false } });
  for (const [path, data] of pdbs) {
    const name = path.split('/').pop()!;
    const id = portablePdbId(data);
    const blob = await storeBlob(h.blobs, Readable.from([data]));
    await addFileToExistingVersion(h, {
      ...base, blob, file: { name, compositeKey: id, isLead: false, properties: { 'nuget.symbol.id': id, 'nuget.symbol.filename': name.toLowerCase() } },
    });
  }
}

/** A PDB by file name and id (the symbol server's {file}/{id}/{file}). */
export async function getSymbolFile(db: DB, owner: User, filename: string, id: string): Promise<IndexedFile> {
  const found = (await indexedFiles(db, owner.id, NUGET, { name: 'nuget.symbol.id', value: id.toLowerCase() }))
    .find((f) => f.props['nuget.symbol.filename'] === filename.toLowerCase());
  if (!found) throw new NotFoundError('symbol file does not exist');
  return found;
}

export type NugetVersions = { pkg: Package; versions: PackageVersion[] };

/** Every version of a package (oldest first, as the flat container and registration list them). */
export async function nugetVersions(db: DB, owner: User, id: string): Promise<NugetVersions> {
  const pkg = await getPackage(db, owner, NUGET, id);
  const { versions } = await getVersionsOfPackage(db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  return { pkg, versions: [...versions].sort((a, b) => a.created_unix - b.created_unix || a.id - b.id) };
}

export async function getNugetFile(db: DB, owner: User, id: string, version: string, filename: string) {
  const v = await getVersion(db, owner, NUGET, id, version);
  return { ...v, ...(await getFileOfVersion(db, v.version, filename)) };
}

/** Search: the packages whose name contains `q`, each with all its versions. */
export async function searchNuget(db: DB, owner: User, q: string, skip: number, take: number) {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: NUGET, query: q || undefined, offset: 0, limit: 10_000 });
  const names = [...new Set(rows.map((r) => r.name))].sort((a, b) => a.localeCompare(b));
  const page = names.slice(skip, skip + take);
  const out: NugetVersions[] = [];
  for (const name of page) out.push(await nugetVersions(db, owner, name));
  return { total: names.length, packages: out };
}

export async function deleteNugetVersion(h: Hearth, doer: User, owner: User, id: string, version: string): Promise<void> {
  const v = await getVersion(h.db, owner, NUGET, id, version);
  await deleteVersion(h, doer, v.version);
}

/** The size of each version's .nupkg (the PackageSize of the v2 feed). */
export async function nupkgSizes(db: DB, id: string, versions: PackageVersion[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const v of versions) {
    const f = await getFileOfVersion(db, v, `${id}.${v.version}.nupkg`.toLowerCase()).catch(() => null);
    out.set(v.id, f?.blob.size ?? 0);
  }
  return out;
}
