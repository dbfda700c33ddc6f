import type { Readable } from 'node:stream';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import * as lfs from '../../models/lfs';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { deferredStream } from '../../lib/deferred-stream';
import { blobExists, blobKey, openBlob, removeBlobFile, storeBlob } from '../packages/blob-store';
import { DIRECT_URL_SECONDS, directUrl } from '../../lib/blob-storage/direct';
import { authorizeGit, type GitCaller } from '../repo/git-access';
import type { RepoAccess } from '../repo/repos';
import { ACCESS, accessMode } from '../permissions';
import type { User } from '../../db/schema';
import { isValidPointer, type Pointer } from './pointer';
import type { Hearth } from '../../hearth';

// The git-lfs batch API and basic transfers, as Gitea's services/lfs/server.go. Objects live in
// the blob store of the package registries (content-addressed by sha256, which is an LFS oid);
// lfs_meta_object says which repositories hold which. The action links carry the request's own
// Authorization header, so the transfers are authorized exactly as the batch call was.

export const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';
/** How long the links may be used: Gitea's [server] LFS_HTTP_AUTH_EXPIRY default. */
const LINK_EXPIRES_IN = 24 * 60 * 60;

type Link = { href: string; header?: Record<string, string>; expires_in: number };
type ObjectError = { code: number; message: string };
export type BatchObject = Pointer & { authenticated?: boolean; actions?: Record<string, Link>; error?: ObjectError };
export type BatchRequest = { operation: string; objects: unknown[]; transfers?: string[] };

/** 404 when [server] lfs_start_server is off: the LFS server is not there at all. */
export function assertLfsEnabled(config: Config): void {
  if (!config.server.lfs_start_server) throw new NotFoundError();
}

/** The repository of an LFS request, with read or write access as git HTTP checks it. */
export async function lfsRepo(h: Hearth, caller: GitCaller, owner: string, name: string, write: boolean): Promise<RepoAccess> {
  assertLfsEnabled(h.config);
  const found = await authorizeGit(h.db, caller, owner, name, write);
  if ('redirectTo' in found) throw new NotFoundError();
  return found;
}

const base = (config: Config, access: RepoAccess) =>
  `${config.server.root_url}${encodeURIComponent(access.owner.name)}/${encodeURIComponent(access.repo.name)}.git/info/lfs`;

function objectAnswer(config: Config, access: RepoAccess, p: Pointer, authorization: string, kind: 'download' | 'upload' | ObjectError): BatchObject {
  const out: BatchObject = { oid: p.oid, size: p.size };
  if (typeof kind === 'object') return { ...out, error: kind };
  const header: Record<string, string> = authorization ? { Authorization: authorization } : {};
  const link = (href: string, extra: Record<string, string> = {}): Link => {
    const h = { ...header, ...extra };
    return { href, ...(Object.keys(h).length ? { header: h } : {}), expires_in: LINK_EXPIRES_IN };
  };
  const objects = `${base(config, access)}/objects/${p.oid}`;
  if (kind === 'download') return { ...out, actions: { download: link(objects) } };
  return {
    ...out,
    actions: {
      upload: link(`${objects}/${p.size}`),
      // Accept: works around git-lfs/git-lfs#3662, as Gitea.
      verify: link(`${base(config, access)}/verify`, { Accept: LFS_MEDIA_TYPE }),
    },
  };
}

/** POST .../info/lfs/objects/batch: what to transfer for each object (access checked by the caller). */
/**
 * Gitea's LFSObjectAccessible: the caller may reach an object that some repository it can read
 * holds (any, for a site admin). Such an object is tied to another repository without its bytes
 * being sent again.
 */
async function objectAccessible(db: DB, doer: User | null, oid: string): Promise<boolean> {
  if (!doer) return false;
  for (const repo of await lfs.reposHoldingOid(db, oid)) {
    if (doer.is_admin || (await accessMode(db, doer, repo)) >= ACCESS.read) return true;
  }
  return false;
}

/** Objects in the store that the repository does not hold yet but the caller may reach: tied to it now. */
async function linkReachable(h: Hearth, access: RepoAccess, doer: User | null, pointers: Pointer[], held: Set<string>): Promise<void> {
  for (const p of pointers) {
    if (held.has(p.oid) || !(await blobExists(h.blobs, p.oid)) || !(await objectAccessible(h.db, doer, p.oid))) continue;
    await lfs.upsertMetaObject(h.db, access.repo.id, p.oid, p.size, nowUnix());
  }
}

export async function batch(h: Hearth, access: RepoAccess, body: BatchRequest, authorization: string, doer: User | null = null): Promise<BatchObject[]> {
  const upload = body.operation === 'upload';
  const pointers = body.objects.filter((o): o is Pointer => isValidPointer((o ?? {}) as Record<string, unknown>));
  const oids = pointers.map((p) => p.oid);
  if (upload) await linkReachable(h, access, doer, pointers, new Set((await lfs.metaObjectsIn(h.db, access.repo.id, oids)).map((m) => m.oid)));
  const metas = new Map((await lfs.metaObjectsIn(h.db, access.repo.id, oids)).map((m) => [m.oid, m]));
  const max = h.config.server.lfs_max_file_size;
  const inStore = new Set<string>();
  for (const m of metas.values()) if (await blobExists(h.blobs, m.oid)) inStore.add(m.oid);
  const directUrls = new Map<string, string>();
  if (!upload) {
    for (const oid of inStore) {
      const url = await directUrl(h.config, h.blobs, blobKey(oid));
      if (url) directUrls.set(oid, url);
    }
  }
  return body.objects.map((o) => {
    const raw = (o ?? {}) as Record<string, unknown>;
    if (!isValidPointer(raw)) {
      return { oid: String(raw.oid ?? ''), size: Number(raw.size ?? 0), error: { code: 422, message: 'Oid or size are invalid' } };
    }
    const meta = metas.get(raw.oid);
    if (meta && meta.size !== raw.size) return objectAnswer(h.config, access, raw, '', { code: 422, message: `Object ${raw.oid} is not ${raw.size} bytes` });
    const stored = !!meta && inStore.has(raw.oid);
    // [storage] serve_direct: the client fetches from the bucket (no credentials of ours go there).
    const direct = directUrls.get(raw.oid);
    if (!upload && stored && direct) return { oid: raw.oid, size: raw.size, actions: { download: { href: direct, expires_in: DIRECT_URL_SECONDS } } };
    if (!upload) return objectAnswer(h.config, access, raw, authorization, stored ? 'download' : { code: 404, message: 'Not Found' });
    if (stored) return { oid: raw.oid, size: raw.size };
    if (max > 0 && raw.size > max) return objectAnswer(h.config, access, raw, '', { code: 422, message: `Size must be less than or equal to ${max}` });
    // Bytes stored for a repository the caller cannot read are uploaded again all the same:
    // only sending them proves the caller has them (the store keeps one copy).
    return objectAnswer(h.config, access, raw, authorization, 'upload');
  });
}

/**
 * PUT .../objects/{oid}/{size}: streams the body into the store, checking its size and sha256
 * against the address; the meta object is added once the bytes are in place.
 */
export async function uploadObject(h: Hearth, access: RepoAccess, p: { oid: string; size: number }, body: Readable, doer: User | null = null): Promise<void> {
  if (!isValidPointer(p)) throw new InvalidError('Oid or size are invalid');
  const max = h.config.server.lfs_max_file_size;
  if (max > 0 && p.size > max) throw new InvalidError(`Size must be less than or equal to ${max}`);
  // Bytes the caller may already reach need no proof: Gitea ties them without reading the body.
  if ((await blobExists(h.blobs, p.oid)) && (await objectAccessible(h.db, doer, p.oid))) {
    body.resume();
    await lfs.upsertMetaObject(h.db, access.repo.id, p.oid, p.size, nowUnix());
    return;
  }
  const stored = await storeBlob(h.blobs, body, { maxSize: p.size, tooLarge: () => new InvalidError('lfs: size mismatch') });
  if (stored.size !== p.size || stored.hashes.sha256 !== p.oid) {
    if (stored.created && !(await lfs.oidInUse(h.db, stored.hashes.sha256))) await removeBlobFile(h.blobs, stored.hashes.sha256);
    throw new InvalidError(stored.size !== p.size ? 'lfs: size mismatch' : 'lfs: hash mismatch');
  }
  await lfs.upsertMetaObject(h.db, access.repo.id, p.oid, p.size, nowUnix());
}

export type StoredObject = Pointer & { open: (range?: { start: number; end: number }) => Readable };

/** An object the repository holds whose bytes are in the store, or null. */
export async function storedObject(h: Hearth, repoId: number, oid: string): Promise<StoredObject | null> {
  if (!/^[0-9a-f]{64}$/.test(oid)) return null;
  const meta = await lfs.metaObject(h.db, repoId, oid);
  if (!meta || !(await blobExists(h.blobs, oid))) return null;
  return { oid, size: meta.size, open: (range) => deferredStream(openBlob(h.blobs, oid, range)) };
}

export const hasLfsObjects = async (db: DB, repoId: number): Promise<boolean> => (await lfs.countMetaOf(db, repoId, 1)) > 0;

/** Which of `oids` the repository holds with their bytes in the store. */
export async function storedOids(h: { db: DB; blobs: BlobStorage }, repoId: number, oids: string[]): Promise<Set<string>> {
  const metas = await lfs.metaObjectsIn(h.db, repoId, [...new Set(oids)]);
  const out = new Set<string>();
  for (const m of metas) if (await blobExists(h.blobs, m.oid)) out.add(m.oid);
  return out;
}

/** GET .../objects/{oid}: the object, 404 when the repository does not hold it. */
export async function downloadObject(h: Hearth, access: RepoAccess, oid: string): Promise<StoredObject> {
  if (!/^[0-9a-f]{64}$/.test(oid)) throw new InvalidError('Oid or size are invalid');
  const found = await storedObject(h, access.repo.id, oid);
  if (!found) throw new NotFoundError('Not Found');
  return found;
}

/** POST .../info/lfs/verify: 200 when the object is stored with that size, 404 otherwise. */
export async function verifyObject(h: Hearth, access: RepoAccess, p: unknown): Promise<void> {
  const raw = (p ?? {}) as Record<string, unknown>;
  if (!isValidPointer(raw)) throw new InvalidError('Oid or size are invalid');
  const found = await storedObject(h, access.repo.id, raw.oid);
  if (!found || found.size !== raw.size) throw new NotFoundError('Not Found');
}
