import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { yaml } from '../../../lib/lazy-require';
import { tarFileEntries } from '../archive/tar';
import type { StoredBlob } from '../blob-store';
import { compareVersions, parseSemver } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFilesOfVersion, getPackage, getVersion, getVersionsOfPackage } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Pub registry (routers/api/packages/pub, modules/packages/pub): Dart's hosted
// repository API v2 (github.com/dart-lang/pub/blob/master/doc/repository-spec-v2.md): the upload
// flow, the versions document of a package and archive downloads.

export const PUB = 'pub';
const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const MAX_PUBSPEC = 128 * 1024;
export type PubMetadata = { description?: string; project_url?: string; repository_url?: string; documentation_url?: string; readme?: string; pubspec: unknown };

const url = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined);

/** pubspec.yaml (and README.md) of a stored archive: 400 without one, or with a bad name or version. */
export async function parsePubArchive(file: string): Promise<{ name: string; version: string; metadata: PubMetadata }> {
  const entries = await tarFileEntries(file, {
    gzip: true, want: (n) => (n === 'pubspec.yaml' ? MAX_PUBSPEC : n.toLowerCase() === 'readme.md' ? 1 << 20 : null),
    done: (k) => k.length >= 2,
  });
  const spec = entries.find((e) => e.name === 'pubspec.yaml');
  if (!spec) throw new BadRequestError('Pubspec file is missing');
  let pubspec: Record<string, unknown>;
  try { pubspec = (yaml().parse(spec.data.toString('utf8'), { maxAliasCount: 100 }) ?? {}) as Record<string, unknown>; } catch { throw new BadRequestError('pubspec.yaml is not valid YAML'); }
  const name = typeof pubspec.name === 'string' ? pubspec.name : '';
  const parsed = parseSemver(String(pubspec.version ?? ''));
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  if (!parsed) throw new BadRequestError('package version is invalid');
  const readme = entries.find((e) => e.name.toLowerCase() === 'readme.md')?.data.toString('utf8');
  return {
    name, version: parsed.text,
    metadata: {
      description: typeof pubspec.description === 'string' ? pubspec.description : undefined, project_url: url(pubspec.homepage),
      repository_url: url(pubspec.repository), documentation_url: url(pubspec.documentation), readme, pubspec,
    },
  };
}

/** Stores an uploaded archive: 400 when it is no pub package, 409 when the version exists. */
export async function uploadPub(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob }) {
  return withStoredBlob(h, i.blob, async () => {
    const p = await readStoredBlob(h, i.blob, parsePubArchive);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: PUB, name: p.name, version: p.version, semverCompatible: true, failIfVersionExists: true,
      versionMetadata: p.metadata, file: { name: `${p.version}.tar.gz`.toLowerCase(), isLead: true }, blob: i.blob,
    });
    return p;
  });
}

export const pubApiUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${owner.name}/pub/api/packages`;

function versionDocument(base: string, v: PackageVersion) {
  let pubspec: unknown;
  try { pubspec = (JSON.parse(v.metadata_json || '{}') as PubMetadata).pubspec; } catch { pubspec = undefined; }
  return { version: v.version, archive_url: `${base}/files/${encodeURIComponent(v.version)}.tar.gz`, published: new Date(v.created_unix * 1000).toISOString(), pubspec };
}

/** GET /api/packages/{name}: every version, oldest first, and the newest as latest. */
export async function pubVersions(h: Hearth, owner: User, name: string) {
  const pkg = await getPackage(h.db, owner, PUB, name);
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => compareVersions(a.version, b.version));
  const base = `${pubApiUrl(h.config, owner)}/${encodeURIComponent(pkg.name)}`;
  return { name: pkg.name, latest: versionDocument(base, versions[versions.length - 1]!), versions: versions.map((v) => versionDocument(base, v)) };
}

/** GET /api/packages/{name}/{version}. */
export async function pubVersion(h: Hearth, owner: User, name: string, version: string) {
  const { pkg, version: v } = await getVersion(h.db, owner, PUB, name, version);
  return versionDocument(`${pubApiUrl(h.config, owner)}/${encodeURIComponent(pkg.name)}`, v);
}

/** The archive of a version. */
export async function pubArchive(db: DB, owner: User, name: string, version: string) {
  const { version: v } = await getVersion(db, owner, PUB, name, version);
  const [lead] = await getFilesOfVersion(db, v);
  if (!lead) throw new NotFoundError('package file does not exist');
  return { version: v, ...lead };
}
