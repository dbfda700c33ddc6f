import type { DB } from '../db/connect';
import type { PackageBlob, PackageFile, PackageVersion } from '../db/schema';

// Lookups across the container packages of an owner (Gitea's models/packages/container/search.go).

export const TYPE = 'container';
export const UPLOAD_VERSION = '_upload';
export const MANIFEST_FILE = 'manifest.json';

export type FoundFile = { file: PackageFile; blob: PackageBlob; version: PackageVersion };

function filesQuery(db: DB, ownerId: number, image: string | null) {
  let q = db.selectFrom('package_file as f')
    .innerJoin('package_version as v', 'v.id', 'f.version_id')
    .innerJoin('package as p', 'p.id', 'v.package_id')
    .innerJoin('package_blob as b', 'b.id', 'f.blob_id')
    .where('p.owner_id', '=', ownerId).where('p.type', '=', TYPE);
  if (image !== null) q = q.where('p.lower_name', '=', image.toLowerCase());
  return q;
}

type Ids = { fid: number; vid: number; bid: number };
const first = (q: ReturnType<typeof filesQuery>): Promise<Ids | undefined> =>
  q.select(['f.id as fid', 'v.id as vid', 'b.id as bid']).orderBy('f.id', 'desc').executeTakeFirst();

/** A blob (a file named by its digest) of an owner's image, or of any of the owner's images (image null). */
export async function findBlobFile(db: DB, ownerId: number, image: string | null, digest: string): Promise<{ file: PackageFile; blob: PackageBlob } | undefined> {
  const hit = await first(filesQuery(db, ownerId, image).where('f.lower_name', '=', digest.toLowerCase()));
  return hit && load(db, hit);
}

/** A manifest of an image by its digest (the sha256 of its bytes). */
export async function findManifestByDigest(db: DB, ownerId: number, image: string, sha256: string): Promise<FoundFile | undefined> {
  const hit = await first(filesQuery(db, ownerId, image).where('f.lower_name', '=', MANIFEST_FILE).where('b.hash_sha256', '=', sha256));
  return hit && load(db, hit);
}

/** Every version of an image whose manifest has this digest. */
export async function versionsWithManifest(db: DB, ownerId: number, image: string, sha256: string): Promise<PackageVersion[]> {
  return filesQuery(db, ownerId, image).where('f.lower_name', '=', MANIFEST_FILE).where('b.hash_sha256', '=', sha256)
    .selectAll('v').execute();
}

async function load(db: DB, ids: Ids): Promise<FoundFile> {
  const [file, version, blob] = await Promise.all([
    db.selectFrom('package_file').selectAll().where('id', '=', ids.fid).executeTakeFirstOrThrow(),
    db.selectFrom('package_version').selectAll().where('id', '=', ids.vid).executeTakeFirstOrThrow(),
    db.selectFrom('package_blob').selectAll().where('id', '=', ids.bid).executeTakeFirstOrThrow(),
  ]);
  return { file, version, blob };
}

/** The tags of an image (versions that are not digests nor internal), sorted, after `last`, at most n. */
export async function tagsOf(db: DB, packageId: number, last: string, n: number): Promise<string[]> {
  let q = db.selectFrom('package_version').select('version').where('package_id', '=', packageId)
    .where('is_internal', '=', 0).where('lower_version', 'not like', 'sha256:%');
  if (last) q = q.where('version', '>', last);
  q = q.orderBy('version');
  if (n > 0) q = q.limit(n);
  return (await q.execute()).map((r) => r.version);
}

/** Every container image as owner/image with its owner's id, sorted, after `last`. */
export function allImages(db: DB, last: string) {
  let q = db.selectFrom('package as p').innerJoin('user as u', 'u.id', 'p.owner_id')
    .select(['p.owner_id', 'u.lower_name as owner', 'p.lower_name as image']).where('p.type', '=', TYPE);
  if (last) {
    const [owner, ...rest] = last.toLowerCase().split('/');
    const image = rest.join('/');
    q = q.where((eb) => eb.or([eb('u.lower_name', '>', owner!), eb.and([eb('u.lower_name', '=', owner!), eb('p.lower_name', '>', image)])]));
  }
  return q.orderBy('u.lower_name').orderBy('p.lower_name').execute();
}
