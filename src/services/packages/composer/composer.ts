import type { Config } from '../../../config/schema';
import { repoUrls } from '../../../convert/repo';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import { PROPERTY_REF } from '../../../models/package';
import type { StoredBlob } from '../blob-store';
import { compareVersions } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFilesOfVersion, getPackage, getProperties, getVersionsOfPackage, packageView, searchPackages } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import { parseComposerZip, type ComposerMetadata, type ComposerPackage } from './metadata';
import type { Hearth } from '../../../hearth';

// Gitea's Composer registry (routers/api/packages/composer): packages.json pointing at the p2
// metadata documents, search.json, list.json, zip downloads and upload of a zip.

export const COMPOSER = 'composer';
const TYPE_PROPERTY = 'composer.type';

export const composerRegistryUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${owner.name}/composer`;

/** packages.json: where composer finds the rest. */
export function composerServiceIndex(config: Config, owner: User) {
  const base = composerRegistryUrl(config, owner);
  return { search: `${base}/search.json?q=%query%&type=%type%`, 'metadata-url': `${base}/p2/%package%.json`, list: `${base}/list.json` };
}

/** Stores an uploaded zip: 400 when it is no Composer package, 409 when the version exists. */
export async function uploadComposer(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob; version: string }): Promise<ComposerPackage> {
  return withStoredBlob(h, i.blob, async () => {
    const p = await readStoredBlob(h, i.blob, (f) => parseComposerZip(f, i.version));
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: COMPOSER, name: p.name, version: p.version, semverCompatible: true,
      versionMetadata: p.metadata, versionProperties: { [TYPE_PROPERTY]: p.type }, failIfVersionExists: true,
      file: { name: `${p.name.replace('/', '-')}.${p.version}.zip`.toLowerCase(), isLead: true }, blob: i.blob,
    });
    return p;
  });
}

const metadataOf = (json: string): ComposerMetadata => { try { return JSON.parse(json || '{}') as ComposerMetadata; } catch { return {}; } };
const typeOf = async (db: DB, versionId: number) => (await getProperties(db, PROPERTY_REF.version, versionId, TYPE_PROPERTY))[0]?.value ?? '';

/**
 * The p2 document of a package: every version, in composer's minified form (each entry lists
 * what differs from the one before; a key the previous entry had and this one lacks is
 * "__unset"). The source is the linked repository when the viewer may read it.
 */
export async function composerPackageDocument(h: Hearth, owner: User, viewer: User | null, name: string) {
  const pkg = await getPackage(h.db, owner, COMPOSER, name);
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => compareVersions(b.version, a.version));
  const base = composerRegistryUrl(h.config, owner);
  const full: Record<string, unknown>[] = [];
  for (const v of versions) {
    const [lead] = await getFilesOfVersion(h.db, v);
    const view = await packageView(h.db, pkg, v, owner, viewer);
    const source = view.repo ? { url: repoUrls(h.config, view.repo.owner.name, view.repo.repo.name).html_url, type: 'git', reference: v.version } : { url: '', type: '', reference: '' };
    full.push({
      ...metadataOf(v.metadata_json), name: pkg.name, version: v.version, type: await typeOf(h.db, v.id),
      time: new Date(v.created_unix * 1000).toISOString(), source,
      dist: { type: 'zip', url: `${base}/files/${encodeURIComponent(pkg.lower_name)}/${encodeURIComponent(v.lower_version)}/${encodeURIComponent(lead?.file.lower_name ?? '')}`, shasum: lead?.blob.hash_sha1 ?? '' },
    });
  }
  return { minified: 'composer/2.0', packages: { [pkg.name]: minify(full) } };
}

function minify(entries: Record<string, unknown>[]): Record<string, unknown>[] {
  let previous: Record<string, unknown> = {};
  return entries.map((entry) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) if (v !== undefined && JSON.stringify(v) !== JSON.stringify(previous[k])) out[k] = v;
    for (const k of Object.keys(previous)) if (entry[k] === undefined) out[k] = '__unset';
    previous = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
    return out;
  });
}

/** list.json: every package name. */
export async function composerPackageNames(db: DB, owner: User): Promise<string[]> {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: COMPOSER, offset: 0, limit: 1_000_000 });
  return [...new Set(rows.map((r) => r.name))].sort();
}

/** search.json: the newest version of each package matching q (and the composer type). */
export async function searchComposer(h: Hearth, owner: User, q: { query: string; type: string; page: number; perPage: number }) {
  const { rows } = await searchPackages(h.db, {
    ownerId: owner.id, type: COMPOSER, query: q.query, offset: 0, limit: 1_000_000,
    property: q.type ? { name: TYPE_PROPERTY, value: q.type } : undefined,
  });
  const newest = new Map<number, (typeof rows)[number]>();
  for (const r of rows) if (!newest.has(r.package_id)) newest.set(r.package_id, r);
  const all = [...newest.values()];
  const page = all.slice((q.page - 1) * q.perPage, q.page * q.perPage);
  const out: { total: number; results: { name: string; description: string; downloads: number }[]; next?: string } = {
    total: all.length,
    results: page.map((r) => ({ name: r.name, description: metadataOf(r.metadata_json).description ?? '', downloads: r.download_count })),
  };
  if (page.length === q.perPage) {
    const next = new URLSearchParams({ q: q.query, type: q.type, page: String(q.page + 1), per_page: String(q.perPage) });
    out.next = `${composerRegistryUrl(h.config, owner)}/search.json?${next}`;
  }
  return out;
}
