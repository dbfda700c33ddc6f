import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { DB } from '../../../db/connect';
import type { Package, PackageVersion, User } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import type { StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deleteVersion } from '../packages';
import { getFileOfVersion, getPackage, getVersion, searchPackages, type FileWithBlob } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import { gemVersion, marshalDump, sym, type RubyValue } from './marshal';
import { compareGemVersions, isPrerelease, parseGemFile, type GemMetadata, type Requirement } from './metadata';
import type { Hearth } from '../../../hearth';

// Gitea's RubyGems registry (routers/api/packages/rubygems): gem push, the full indexes
// (specs.4.8.gz, latest_specs, prerelease_specs and quick/Marshal.4.8 gemspecs), the compact
// index (versions and info/{gem}) and yank. Every index is built from the rows when read.

export const RUBYGEMS = 'rubygems';

type GemRow = { name: string; version: string; metadata: GemMetadata; versionRow: PackageVersion };
const metadataOf = (json: string): GemMetadata => { try { return { platform: 'ruby', ...(JSON.parse(json || '{}') as Partial<GemMetadata>) }; } catch { return { platform: 'ruby' }; } };

/** name-version[-platform].gem, lowercased (Gitea's file name). */
export function gemFilename(name: string, version: string, platform: string): string {
  return `${name}-${version}${platform && platform !== 'ruby' ? `-${platform}` : ''}`.toLowerCase() + '.gem';
}

/** Stores a pushed gem: 400 when it is no gem, 409 when the version exists. */
export async function pushGem(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob }): Promise<void> {
  await withStoredBlob(h, i.blob, async () => {
    const gem = await readStoredBlob(h, i.blob, parseGemFile);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: RUBYGEMS, name: gem.name, version: gem.version, semverCompatible: true,
      versionMetadata: gem.metadata, failIfVersionExists: true,
      file: { name: gemFilename(gem.name, gem.version, gem.metadata.platform), isLead: true }, blob: i.blob,
    });
  });
}

async function allGems(db: DB, owner: User): Promise<GemRow[]> {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: RUBYGEMS, offset: 0, limit: 1_000_000 });
  return rows.map((r) => ({ name: r.name, version: r.version, metadata: metadataOf(r.metadata_json), versionRow: r }))
    .sort((a, b) => a.name.localeCompare(b.name) || compareGemVersions(a.version, b.version));
}

/** specs.4.8.gz (releases), prerelease_specs.4.8.gz, latest_specs.4.8.gz (the newest release of each gem and platform). */
export async function gemSpecsIndex(db: DB, owner: User, which: 'specs' | 'latest' | 'prerelease'): Promise<Buffer> {
  let gems = (await allGems(db, owner)).filter((g) => isPrerelease(g.version) === (which === 'prerelease'));
  if (which === 'latest') {
    const newest = new Map<string, GemRow>();
    for (const g of gems) newest.set(`${g.name}\0${g.metadata.platform}`, g);
    gems = [...newest.values()];
  }
  const list: RubyValue = gems.map((g) => [g.name, gemVersion(g.version), g.metadata.platform]);
  return zlib.gzipSync(marshalDump(list));
}

const requirement = (reqs: Requirement[] | undefined): RubyValue => ({
  kind: 'user-marshal', className: 'Gem::Requirement',
  value: [(reqs?.length ? reqs : [{ restriction: '>=', version: '0' }]).map((r) => [r.restriction, gemVersion(r.version)])],
});

function dependencyObject(name: string, reqs: Requirement[], type: 'runtime' | 'development'): RubyValue {
  return { kind: 'object', className: 'Gem::Dependency', ivars: [['@name', name], ['@requirement', requirement(reqs)], ['@type', sym(type)], ['@prerelease', false]] };
}

/** The gem that a file name (name-version[-platform].gem) is the file of. */
async function versionByFilename(db: DB, owner: User, filename: string): Promise<{ pkg: Package; row: GemRow; file: FileWithBlob }> {
  for (const g of await allGems(db, owner)) {
    if (gemFilename(g.name, g.version, g.metadata.platform) !== filename.toLowerCase()) continue;
    const pkg = await getPackage(db, owner, RUBYGEMS, g.name);
    return { pkg, row: g, file: await getFileOfVersion(db, g.versionRow, filename) };
  }
  throw new NotFoundError('package does not exist');
}

/** quick/Marshal.4.8/{gem}.gemspec.rz: the Gem::Specification, deflated. */
export async function quickGemspec(db: DB, owner: User, filename: string): Promise<Buffer> {
  const { pkg, row } = await versionByFilename(db, owner, filename.replace(/\.gemspec\.rz$/, '.gem'));
  const m = row.metadata;
  const deps = [
    ...(m.runtime_dependencies ?? []).map((d) => dependencyObject(d.name, d.version, 'runtime')),
    ...(m.development_dependencies ?? []).map((d) => dependencyObject(d.name, d.version, 'development')),
  ];
  // Gem::Specification._load's array: its fields in the order RubyGems dumps them.
  const spec: RubyValue = {
    kind: 'user-def', className: 'Gem::Specification',
    value: [
      '3.3.15', 4, pkg.name, gemVersion(row.version), null, m.summary ?? '', requirement(m.required_ruby_version),
      requirement(m.required_rubygems_version), m.platform, deps, null, '', m.authors ?? [], m.description ?? '',
      m.project_url ?? '', true, m.platform, m.licenses ?? [], { kind: 'hash', entries: [] },
    ],
  };
  return zlib.deflateSync(marshalDump(spec));
}

/** gems/{file}: the stored gem. */
export const gemFile = async (db: DB, owner: User, filename: string) => {
  const { row, file } = await versionByFilename(db, owner, filename);
  return { version: row.versionRow, ...file };
};

const reqText = (reqs: Requirement[] | undefined) => (reqs?.length ? reqs : [{ restriction: '>=', version: '0' }]).map((r) => `${r.restriction} ${r.version}`).join('&');

/** One line of a compact index info file: VERSION[-PLATFORM] DEP:REQ,...|checksum:SHA256[,ruby:REQ][,rubygems:REQ]. */
async function infoLine(db: DB, row: GemRow): Promise<string> {
  const m = row.metadata;
  const file = await getFileOfVersion(db, row.versionRow, gemFilename(row.name, row.version, m.platform));
  const version = m.platform && m.platform !== 'ruby' ? `${row.version}-${m.platform}` : row.version;
  const deps = (m.runtime_dependencies ?? []).map((d) => `${d.name}:${reqText(d.version)}`).join(',');
  let line = `${version} ${deps}|checksum:${file.blob.hash_sha256}`;
  if (m.required_ruby_version?.length) line += `,ruby:${reqText(m.required_ruby_version)}`;
  if (m.required_rubygems_version?.length) line += `,rubygems:${reqText(m.required_rubygems_version)}`;
  return line;
}

async function infoOf(db: DB, rows: GemRow[]): Promise<string> {
  const lines = ['---'];
  for (const r of rows) lines.push(await infoLine(db, r));
  return `${lines.join('\n')}\n`;
}

/** info/{gem}: every version of one gem, oldest first; 404 without any. */
export async function gemInfo(db: DB, owner: User, name: string): Promise<string> {
  const rows = (await allGems(db, owner)).filter((g) => g.name.toLowerCase() === name.toLowerCase());
  if (!rows.length) throw new NotFoundError('package does not exist');
  return infoOf(db, rows);
}

/** versions: one line per gem with its versions and the MD5 of its info file. */
export async function gemVersionsIndex(db: DB, owner: User): Promise<string> {
  const byName = new Map<string, GemRow[]>();
  for (const g of await allGems(db, owner)) byName.set(g.name, [...(byName.get(g.name) ?? []), g]);
  const lines = [`created_at: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`, '---'];
  for (const [name, rows] of byName) {
    const md5 = crypto.createHash('md5').update(await infoOf(db, rows)).digest('hex');
    lines.push(`${name} ${rows.map((r) => (r.metadata.platform !== 'ruby' ? `${r.version}-${r.metadata.platform}` : r.version)).join(',')} ${md5}`);
  }
  return `${lines.join('\n')}\n`;
}

/** gem yank: the version is deleted (Gitea keeps no yanked versions). */
export async function yankGem(h: Hearth, doer: User, owner: User, name: string, version: string): Promise<void> {
  const v = await getVersion(h.db, owner, RUBYGEMS, name, version);
  await deleteVersion(h, doer, v.version);
}

