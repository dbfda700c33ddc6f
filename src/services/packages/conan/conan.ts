import fs from 'node:fs';
import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { blobBySha256 } from '../../../models/package';
import { filePropertyMaps, indexedFiles } from '../../../models/package-index';
import { removeBlobFile, withBlobFile, type StoredBlob } from '../blob-store';
import { createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFilesOfVersion, getVersion, type FileWithBlob } from '../queries';
import {
  conanfileMetadata, PACKAGE_FILES, packageKey, parseConaninfo, parseKey, RECIPE_FILES, recipeKey, refString, type ParsedKey, type RecipeRef,
} from './reference';
import type { Hearth } from '../../../hearth';

// Gitea's Conan registry (services/packages/conan): one package version per recipe name and
// version holding every user/channel, recipe revision, package reference and package revision
// as files told apart by their composite key. Revisions are ordered by when they arrived.

export const CONAN = 'conan';
export type ConanFile = FileWithBlob & { key: ParsedKey };
export type Revision = { revision: string; time: string };
export type Target = { rrev: string; pref?: string; prev?: string };

export async function uploadConanFile(h: Hearth, i: { owner: User; creator: User; ref: RecipeRef; target: Target; filename: string; blob: StoredBlob }): Promise<void> {
  const isPackage = i.target.pref !== undefined;
  let extra: { metadata?: Record<string, unknown>; info?: string } = {};
  try {
    if (!(isPackage ? PACKAGE_FILES : RECIPE_FILES).has(i.filename)) throw new BadRequestError('invalid file name');
    const small = i.blob.size < 1 << 20;
    const text = () => withBlobFile(h.blobs, i.blob.hashes.sha256, (f) => fs.readFileSync(f, 'utf8'));
    if (i.filename === 'conanfile.py' && small) extra = { metadata: conanfileMetadata(await text()) };
    if (i.filename === 'conaninfo.txt' && small) extra = { info: await text() };
  } catch (err) {
    if (i.blob.created && !(await blobBySha256(h.db, i.blob.hashes.sha256))) await removeBlobFile(h.blobs, i.blob.hashes.sha256);
    throw err;
  }
  const t = i.target;
  await createPackageAndAddFile(h, {
    owner: i.owner, creator: i.creator, type: CONAN, name: i.ref.name, version: i.ref.version, versionMetadata: extra.metadata ?? {}, blob: i.blob,
    file: {
      name: i.filename, isLead: i.filename === (isPackage ? 'conan_package.tgz' : 'conanfile.py'),
      compositeKey: isPackage ? packageKey(i.ref, t.rrev, t.pref!, t.prev!) : recipeKey(i.ref, t.rrev),
      properties: extra.info !== undefined ? { 'conan.info': extra.info } : undefined,
    },
  });
}

/** Every file of a recipe (all revisions and packages); empty when the recipe is unknown. */
export async function conanFiles(db: DB, owner: User, ref: RecipeRef): Promise<{ version: PackageVersion | null; files: ConanFile[] }> {
  let version: PackageVersion;
  try { version = (await getVersion(db, owner, CONAN, ref.name, ref.version)).version; } catch { return { version: null, files: [] }; }
  const files: ConanFile[] = [];
  for (const f of await getFilesOfVersion(db, version)) {
    const key = parseKey(f.file.composite_key);
    if (key && key.user === ref.user && key.channel === ref.channel) files.push({ ...f, key });
  }
  return { version, files };
}

const iso = (unix: number) => new Date(unix * 1000).toISOString();

function revisions(files: ConanFile[], pick: (k: ParsedKey) => string | undefined): Revision[] {
  const first = new Map<string, number>();
  for (const f of files) {
    const r = pick(f.key);
    if (r !== undefined && (!first.has(r) || f.file.created_unix < first.get(r)!)) first.set(r, f.file.created_unix);
  }
  return [...first.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1)).map(([revision, t]) => ({ revision, time: iso(t) }));
}

/** The recipe revisions, newest first (404 when there is none). */
export async function recipeRevisions(db: DB, owner: User, ref: RecipeRef): Promise<Revision[]> {
  const { files } = await conanFiles(db, owner, ref);
  const list = revisions(files.filter((f) => f.key.kind === 'recipe'), (k) => k.rrev);
  if (!list.length) throw new NotFoundError('recipe does not exist');
  return list;
}

/** The package revisions of a package reference of a recipe revision, newest first. */
export async function packageRevisions(db: DB, owner: User, ref: RecipeRef, rrev: string, pref: string): Promise<Revision[]> {
  const { files } = await conanFiles(db, owner, ref);
  const list = revisions(files.filter((f) => f.key.kind === 'package' && f.key.rrev === rrev && f.key.pref === pref), (k) => k.prev);
  if (!list.length) throw new NotFoundError('package does not exist');
  return list;
}

/** The files of a recipe revision, or of one package revision (404 when none). */
export async function filesOf(db: DB, owner: User, ref: RecipeRef, t: Target): Promise<ConanFile[]> {
  const { files } = await conanFiles(db, owner, ref);
  const out = files.filter((f) => f.key.rrev === t.rrev && (t.pref === undefined ? f.key.kind === 'recipe' : f.key.kind === 'package' && f.key.pref === t.pref && f.key.prev === t.prev));
  if (!out.length) throw new NotFoundError(t.pref === undefined ? 'recipe does not exist' : 'package does not exist');
  return out;
}

export async function conanFile(db: DB, owner: User, ref: RecipeRef, t: Target, filename: string): Promise<ConanFile & { version: PackageVersion }> {
  const { version, files } = await conanFiles(db, owner, ref);
  const key = t.pref === undefined ? recipeKey(ref, t.rrev) : packageKey(ref, t.rrev, t.pref, t.prev!);
  const f = files.find((x) => x.file.composite_key === key && x.file.name === filename);
  if (!f || !version) throw new NotFoundError('file does not exist');
  return { ...f, version };
}

/** The packages of a recipe revision with their conaninfo (the newest package revision of each reference). */
export async function searchPackages(db: DB, owner: User, ref: RecipeRef, rrev: string): Promise<Record<string, ReturnType<typeof parseConaninfo>>> {
  const { files } = await conanFiles(db, owner, ref);
  const infos = files.filter((f) => f.key.kind === 'package' && f.key.rrev === rrev && f.file.name === 'conaninfo.txt')
    .sort((a, b) => a.file.created_unix - b.file.created_unix);
  const out: Record<string, ReturnType<typeof parseConaninfo>> = {};
  const props = await filePropertyMaps(db, infos.map((f) => f.file.id));
  for (const f of infos) out[f.key.pref!] = parseConaninfo(props.get(f.file.id)?.['conan.info'] ?? '');
  return out;
}

/** Recipes of the owner whose name matches a conan search pattern (`*` wildcards, case-insensitive). */
export async function searchRecipes(db: DB, owner: User, q: string): Promise<string[]> {
  const pattern = new RegExp(`^${(q || '*').split('*').map((s) => s.replace(/[.+?^${}()|[\]\\/@]/g, '\\$&')).join('.*')}`, 'i');
  const refs = new Set<string>();
  for (const f of await indexedFiles(db, owner.id, CONAN)) {
    const key = parseKey(f.file.composite_key);
    if (!key || key.kind !== 'recipe') continue;
    const ref = refString({ name: f.packageName, version: f.version, user: key.user, channel: key.channel });
    if (pattern.test(ref) || pattern.test(f.packageName)) refs.add(ref);
  }
  return [...refs].sort();
}

/** Deletes the files a filter picks; the version goes with its last file. */
export async function deleteConanFiles(h: Hearth, doer: User, owner: User, ref: RecipeRef, pick: (k: ParsedKey) => boolean): Promise<void> {
  const { version, files } = await conanFiles(h.db, owner, ref);
  const gone = files.filter((f) => pick(f.key));
  if (!version || !gone.length) throw new NotFoundError('recipe does not exist');
  if (gone.length === (await getFilesOfVersion(h.db, version)).length) return deleteVersion(h, doer, version);
  for (const f of gone) await deletePackageFile(h.db, f.file);
}
