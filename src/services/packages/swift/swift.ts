import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { zipEntries } from '../archive/zip';
import type { StoredBlob } from '../blob-store';
import { compareVersions, parseSemver } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFilesOfVersion, getPackage, getVersion, getVersionsOfPackage, searchPackages } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Swift registry (routers/api/packages/swift, modules/packages/swift): SE-0292's
// package registry service: releases of {scope}.{name}, a release's metadata, its Package.swift
// (per Swift version), its source archive, identifiers by repository URL, and publish.

export const SWIFT = 'swift';
const REPOSITORY_URL = 'swift.repository_url';
const SCOPE = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,38}$/;
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9-_]{0,99}$/;
const MANIFEST = /^Package(?:@swift-(\d+(?:\.\d+)?(?:\.\d+)?))?\.swift$/;
const TOOLS = /^\/\/ swift-tools-version:(\d+(?:\.\d+)?(?:\.\d+)?)/;

type Person = { name?: string; givenName?: string; middleName?: string; familyName?: string };
export type SwiftMetadata = {
  description?: string; keywords?: string[]; repository_url?: string; license?: string; author?: Person;
  manifests: Record<string, { content: string; tools_version?: string }>;
};

/** "5.7.0" -> "5.7", "5.7.1" stays: how Swift versions name manifests. */
export function trimmedVersion(v: string): string {
  const p = parseSemver(v);
  if (!p) return v;
  return p.patch ? `${p.major}.${p.minor}.${p.patch}` : `${p.major}.${p.minor}`;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function fromSoftwareSourceCode(json: string): { meta: Partial<SwiftMetadata>; urls: string[] } {
  let ssc: Record<string, unknown>;
  try { ssc = JSON.parse(json) as Record<string, unknown>; } catch { throw new BadRequestError('metadata is not valid JSON'); }
  const a = (ssc.author ?? {}) as Record<string, unknown>;
  const author: Person = { name: str(a.name), givenName: str(a.givenName), middleName: str(a.middleName), familyName: str(a.familyName) };
  author.name ??= [author.givenName, author.middleName, author.familyName].filter(Boolean).join(' ') || undefined;
  const repo = str(ssc.codeRepository);
  return {
    meta: {
      description: str(ssc.description), keywords: Array.isArray(ssc.keywords) ? ssc.keywords.filter((k): k is string => typeof k === 'string') : undefined,
      license: str(ssc.license), author, repository_url: repo && /^https?:\/\//.test(repo) ? repo : undefined,
    },
    urls: Array.isArray(ssc.repositoryURLs) ? ssc.repositoryURLs.filter((u): u is string => typeof u === 'string') : [],
  };
}

/** The manifests of a stored source archive and the publish's metadata: 400 without Package.swift. */
export async function parseSwiftArchive(file: string, metadataJson: string): Promise<{ meta: SwiftMetadata; urls: string[] }> {
  const base = (n: string) => n.slice(n.lastIndexOf('/') + 1);
  const entries = await zipEntries(file, (n) => (MANIFEST.test(base(n)) ? 128 * 1024 : null));
  const manifests: SwiftMetadata['manifests'] = {};
  for (const e of entries) {
    const m = MANIFEST.exec(base(e.name));
    if (!m || !e.data) continue;
    const content = e.data.toString('utf8');
    const tools = TOOLS.exec(content)?.[1];
    manifests[m[1] ? trimmedVersion(m[1]) : ''] = { content, ...(tools ? { tools_version: trimmedVersion(tools) } : {}) };
  }
  if (!manifests['']) throw new BadRequestError('Package.swift file is missing');
  const extra = metadataJson ? fromSoftwareSourceCode(metadataJson) : { meta: {}, urls: [] };
  return { meta: { ...extra.meta, manifests }, urls: extra.urls };
}

/** Publishes a release: 400 for a bad scope, name, version or archive; 409 when it exists. */
export async function publishSwift(h: Hearth, i: { owner: User; doer: User; scope: string; name: string; version: string; metadata: string; blob: StoredBlob }): Promise<void> {
  await withStoredBlob(h, i.blob, async () => {
    const v = parseSemver(i.version);
    if (!SCOPE.test(i.scope) || !NAME.test(i.name) || !v) throw new BadRequestError('invalid scope, name or version');
    const version = `${v.major}.${v.minor}.${v.patch}`;
    const { meta, urls } = await readStoredBlob(h, i.blob, (f) => parseSwiftArchive(f, i.metadata));
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: SWIFT, name: `${i.scope}.${i.name}`, version, semverCompatible: true, failIfVersionExists: true,
      versionMetadata: meta, packageProperties: { 'swift.scope': i.scope, 'swift.name': i.name }, versionProperties: { [REPOSITORY_URL]: urls },
      file: { name: `${i.name}-${version}.zip`, isLead: true }, blob: i.blob,
    });
  });
}

const metadataOf = (v: PackageVersion): SwiftMetadata => { try { return JSON.parse(v.metadata_json || '{}') as SwiftMetadata; } catch { return { manifests: {} }; } };
export const swiftBaseUrl = (config: Config, owner: User, scope: string, name: string) =>
  `${config.server.root_url}api/packages/${owner.lower_name}/swift/${scope}/${name}`;

/** The releases of {scope}.{name}, and the newest one's URL (for the Link header). */
export async function swiftReleases(h: Hearth, owner: User, scope: string, name: string) {
  const pkg = await getPackage(h.db, owner, SWIFT, `${scope}.${name}`);
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => compareVersions(a.version, b.version));
  const base = swiftBaseUrl(h.config, owner, scope, name);
  const releases = Object.fromEntries(versions.map((v) => [v.version, { url: `${base}/${v.version}` }]));
  return { releases, latest: `${base}/${versions[versions.length - 1]!.version}` };
}

/** A release's metadata document. */
export async function swiftRelease(db: DB, owner: User, scope: string, name: string, version: string) {
  const { pkg, version: v } = await getVersion(db, owner, SWIFT, `${scope}.${name}`, version);
  const [lead] = await getFilesOfVersion(db, v);
  const m = metadataOf(v);
  return {
    id: pkg.name, version: v.version, resources: [{ name: 'source-archive', type: 'application/zip', checksum: lead?.blob.hash_sha256 ?? '' }],
    metadata: {
      '@context': ['http://schema.org/'], '@type': 'SoftwareSourceCode', name, version: v.version, description: m.description,
      keywords: m.keywords, codeRepository: m.repository_url, license: m.license,
      author: { '@type': 'Person', ...m.author },
      programmingLanguage: { '@type': 'ComputerLanguage', name: 'Swift', url: 'https://swift.org' },
    },
    publishedAt: new Date(v.created_unix * 1000).toISOString(),
  };
}

/** Package.swift of a release for a Swift version ('' the default); null when there is none for it. */
export async function swiftManifest(db: DB, owner: User, scope: string, name: string, version: string, swiftVersion: string) {
  const { version: v } = await getVersion(db, owner, SWIFT, `${scope}.${name}`, version);
  const key = swiftVersion ? trimmedVersion(swiftVersion) : '';
  const m = metadataOf(v).manifests?.[key];
  return m ? { content: m.content, filename: key ? `Package@swift-${key}.swift` : 'Package.swift', created: v.created_unix } : null;
}

/** The source archive of a release. */
export async function swiftArchive(db: DB, owner: User, scope: string, name: string, version: string) {
  const { version: v } = await getVersion(db, owner, SWIFT, `${scope}.${name}`, version);
  const [lead] = await getFilesOfVersion(db, v);
  if (!lead) throw new NotFoundError('package file does not exist');
  return { version: v, ...lead };
}

/** The identifiers ({scope}.{name}) of packages published with a repository URL. */
export async function swiftIdentifiers(db: DB, owner: User, url: string): Promise<string[]> {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: SWIFT, property: { name: REPOSITORY_URL, value: url }, offset: 0, limit: 1000 });
  return [...new Set(rows.map((r) => r.name))];
}

