import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { PROPERTY_REF } from '../../../models/package';
import { zipEntries } from '../archive/zip';
import type { StoredBlob } from '../blob-store';
import { createPackageAndAddFile } from '../packages';
import { getFileOfVersion, getPackage, getProperties, getVersion, getVersionsOfPackage, type FileWithBlob } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Go registry (routers/api/packages/goproxy, modules/packages/goproxy): module zips
// uploaded as they are (go.dev/ref/mod#zip-files), served over the GOPROXY protocol:
// @v/list, @v/{version}.info, .mod and .zip, and @latest.

export const GO = 'go';
const GO_MOD = 'go.mod';
const MAX_GO_MOD = 16 * 1024 * 1024;
/** Go's semver.IsValid: v1, v1.2 and v1.2.3 with an optional pre-release and build. */
const GO_VERSION = /^v(0|[1-9]\d*)(\.(0|[1-9]\d*)(\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)?)?$/;
/** A file in the module's root: {module}@{version}/{name}. */
const ROOT_FILE = /^(.+)@([^/]+)\/([^/]+)$/;

export type GoModule = { name: string; version: string; goMod: string };

/** The module path and version of a module zip (from its files' prefix) and its root go.mod. */
export async function parseGoModuleZip(file: string): Promise<GoModule> {
  const entries = await zipEntries(file, (name) => (ROOT_FILE.exec(name)?.[3] === 'go.mod' ? MAX_GO_MOD : null));
  let found: { name: string; version: string } | null = null;
  for (const e of entries) {
    const dir = e.name.includes('/') ? e.name.slice(0, e.name.lastIndexOf('/')) : '.';
    const at = dir.indexOf('@');
    if (at < 0) continue;
    const version = dir.slice(at + 1).split('/')[0]!;
    if (!found) {
      if (!GO_VERSION.test(version)) throw new BadRequestError('package version is invalid');
      found = { name: dir.slice(0, at), version };
    }
    const root = ROOT_FILE.exec(e.name);
    if (root && root[1] === found.name && root[2] === found.version && root[3] === 'go.mod' && e.data) {
      return { ...found, goMod: e.data.toString('utf8') };
    }
  }
  if (!found) throw new BadRequestError('package has invalid structure');
  return { ...found, goMod: `module ${found.name}` };
}

/** Stores an uploaded module: 400 when the zip is no module, 409 when the version exists. */
export async function uploadGoModule(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob }): Promise<GoModule> {
  return withStoredBlob(h, i.blob, async () => {
    const mod = await readStoredBlob(h, i.blob, parseGoModuleZip);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: GO, name: mod.name, version: mod.version, failIfVersionExists: true,
      versionProperties: { [GO_MOD]: mod.goMod }, file: { name: `${mod.version}.zip`, isLead: true }, blob: i.blob,
    });
    return mod;
  });
}

/** The GOPROXY protocol's case-encoding: "!x" stands for "X" in module paths and versions. */
export const decodeGoPath = (s: string) => s.replace(/!([a-z])/g, (_m, c: string) => c.toUpperCase());

async function versionsOf(db: DB, owner: User, name: string): Promise<PackageVersion[]> {
  const pkg = await getPackage(db, owner, GO, name);
  const { versions } = await getVersionsOfPackage(db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  return versions;
}

/** @v/list: the versions, oldest upload first, one a line. */
export async function goVersionList(db: DB, owner: User, name: string): Promise<string> {
  const versions = (await versionsOf(db, owner, name)).sort((a, b) => a.created_unix - b.created_unix || a.id - b.id);
  return versions.map((v) => `${v.version}\n`).join('');
}

/** A version by name, or the newest upload for "latest". */
export async function resolveGoVersion(db: DB, owner: User, name: string, version: string): Promise<PackageVersion> {
  if (version === 'latest') return (await versionsOf(db, owner, name))[0]!;
  return (await getVersion(db, owner, GO, name, version)).version;
}

/** .info and @latest: {Version, Time}. */
export const goVersionInfo = (v: PackageVersion) => ({ Version: v.version, Time: new Date(v.created_unix * 1000).toISOString() });

/** .mod: the go.mod stored with the version. */
export async function goModOf(db: DB, v: PackageVersion): Promise<string> {
  const [prop] = await getProperties(db, PROPERTY_REF.version, v.id, GO_MOD);
  if (!prop) throw new NotFoundError('go.mod does not exist');
  return prop.value;
}

/** .zip: the module zip. */
export const goZipOf = (db: DB, v: PackageVersion): Promise<FileWithBlob> => getFileOfVersion(db, v, `${v.version}.zip`);
