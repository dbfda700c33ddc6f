import type { Package, PackageBlob, PackageVersion, User } from '../../../db/schema';
import type { NpmMetadata } from './metadata';
import { compareSemver, parseSemver, type SemVer } from './semver';

// The documents npm reads (Gitea's routers/api/packages/npm/api.go, 1.25):
// createPackageMetadataResponse (the packument) and createPackageSearchResponse.

export type NpmDescriptor = {
  pkg: Package; version: PackageVersion; owner: User; blob: PackageBlob | null; fileName: string;
  tags: string[]; metadata: NpmMetadata; semver: SemVer;
};

const iso = (unix: number) => new Date(unix * 1000).toISOString();
const person = (name: string | undefined) => ({ name: name ?? '' });

/** Go's url.QueryEscape: "@scope/name" -> "@scope%2Fname" (npm sends it so). */
const queryEscape = (s: string) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The registry's base URL for an owner: <root>/api/packages/<owner>/npm. */
export const registryUrl = (rootUrl: string, owner: User) => `${rootUrl}api/packages/${encodeURIComponent(owner.name)}/npm`;

export const toSemver = (v: PackageVersion) => parseSemver(v.version) ?? parseSemver('0.0.0')!;

function versionDocument(base: string, d: NpmDescriptor) {
  const m = d.metadata;
  const sha512 = d.blob ? Buffer.from(d.blob.hash_sha512, 'hex').toString('base64') : '';
  const tarball = `${base}/${queryEscape(d.pkg.name)}/-/${encodeURIComponent(d.version.version)}/${encodeURIComponent(d.fileName.toLowerCase())}`;
  return strip({
    _id: `${d.pkg.name}@${d.version.version}`, name: d.pkg.name, version: d.version.version, description: m.description ?? '',
    author: person(m.author), maintainers: [person(d.owner.name)], homepage: m.project_url, license: m.license,
    repository: m.repository?.url ? m.repository : undefined, keywords: m.keywords, dependencies: m.dependencies,
    bundleDependencies: m.bundle_dependencies, devDependencies: m.development_dependencies, peerDependencies: m.peer_dependencies,
    peerDependenciesMeta: m.peer_dependencies_meta, optionalDependencies: m.optional_dependencies, bin: m.bin, engines: m.engines, os: m.os, cpu: m.cpu,
    deprecated: m.deprecated, hasInstallScript: m.has_install_script,
    dist: { shasum: d.blob?.hash_sha1 ?? '', integrity: `sha512-${sha512}`, tarball },
  });
}

/** Drops the fields Go's omitempty would: empty strings, empty maps/lists, undefined. */
function strip<T extends Record<string, unknown>>(o: T): Partial<T> {
  const keep = new Set(['description', 'author', 'dist', '_id', 'name', 'version']);
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => keep.has(k) || !(v === undefined || v === '' || v === false
    || (Array.isArray(v) && !v.length) || (typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.keys(v).length)))) as Partial<T>;
}

/** The packument of one package: every version, dist-tags (a "latest" always), time. */
export function packageDocument(rootUrl: string, descriptors: NpmDescriptor[]) {
  const pds = [...descriptors].sort((a, b) => compareSemver(a.semver, b.semver));
  const base = registryUrl(rootUrl, pds[0]!.owner);
  const versions: Record<string, unknown> = {};
  const distTags: Record<string, string> = {};
  const time: Record<string, string> = {};
  let latest: NpmDescriptor | undefined;
  for (const pd of pds) {
    versions[pd.version.version] = versionDocument(base, pd);
    time[pd.version.version] = iso(pd.version.created_unix);
    for (const tag of pd.tags) {
      distTags[tag] = pd.version.version;
      if (tag === 'latest') latest = pd;
    }
  }
  const created = Math.min(...pds.map((p) => p.version.created_unix));
  const modified = Math.max(...pds.map((p) => p.version.created_unix));
  time.created = iso(created);
  time.modified = iso(modified);
  if (!latest) {
    // yarn and pnpm fail without "latest" (e.g. after its version was deleted): the newest release.
    latest = [...pds].reverse().find((p) => !p.semver.pre.length) ?? pds[pds.length - 1]!;
    distTags.latest = latest.version.version;
  }
  const m = latest.metadata;
  return strip({
    _id: latest.pkg.name, name: latest.pkg.name, description: m.description ?? '', 'dist-tags': distTags, versions,
    readme: m.readme, maintainers: [person(latest.owner.name)], time, homepage: m.project_url, keywords: m.keywords,
    repository: m.repository?.url ? m.repository : undefined, author: person(m.author), license: m.license,
  });
}

/** /-/v1/search: the newest version of each matching package. */
export function searchDocument(rootUrl: string, descriptors: NpmDescriptor[], total: number) {
  return {
    objects: descriptors.map((pd) => ({
      package: {
        scope: pd.metadata.scope || 'unscoped', name: pd.metadata.name || pd.pkg.name, version: pd.version.version,
        date: iso(pd.version.created_unix), description: pd.metadata.description ?? '', author: person(pd.metadata.author),
        publisher: person(pd.owner.name), maintainers: [] as unknown[], keywords: pd.metadata.keywords?.length ? pd.metadata.keywords : undefined,
        links: { npm: registryUrl(rootUrl, pd.owner), homepage: pd.metadata.project_url || undefined },
      },
    })),
    total,
  };
}

