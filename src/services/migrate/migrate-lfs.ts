import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { undici } from '../../lib/lazy-require';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { smallBlobsInRefs } from '../../git/small-blobs';
import type { Logger } from '../../lib/logger';
import { nowUnix } from '../../lib/time';
import * as lfs from '../../models/lfs';
import type { BlobStorage } from '../../lib/blob-storage/storage';
import { removeBlobFile, storeBlob } from '../packages/blob-store';
import { LFS_MEDIA_TYPE, storedOids } from '../lfs/objects';
import { parsePointer, POINTER_MAX_SIZE, type Pointer } from '../lfs/pointer';
import type { RemoteAuth } from './remote-git';

// `lfs: true`: the LFS objects the migrated refs point at, fetched as Gitea's
// StoreMissingLfsObjectsInRepository does with its batch client: the source's batch API
// (`<clone address>.git/info/lfs`, or lfs_endpoint), then each download action, every
// connection through the migration dispatcher (the [migrations] address rules). An object the
// source does not have is skipped with a warning; the repository is migrated all the same.

export type LfsMigration = {
  db: DB; config: Config; log: Logger; blobs: BlobStorage; dispatcher: Dispatcher; signal: AbortSignal;
  repo: Repository; gitDir: string; address: string; endpoint?: string; auth: RemoteAuth;
};

const BATCH_SIZE = 100;

/** Gitea's DetermineEndpoint: the given endpoint, else the clone address with .git and /info/lfs. */
export function lfsEndpoint(address: string, endpoint?: string): string {
  if (endpoint) return endpoint.replace(/\/+$/, '');
  const trimmed = address.replace(/\/+$/, '');
  return `${trimmed.endsWith('.git') ? trimmed : `${trimmed}.git`}/info/lfs`;
}

type Action = { href: string; header?: Record<string, string> };
type BatchAnswer = { objects?: { oid: string; size: number; actions?: { download?: Action }; error?: { code: number; message: string } }[] };

function authHeader(auth: RemoteAuth): Record<string, string> {
  if (!auth.username && !auth.password) return {};
  return { Authorization: `Basic ${Buffer.from(`${auth.username || 'oauth2'}:${auth.password}`).toString('base64')}` };
}

async function batch(m: LfsMigration, pointers: Pointer[]): Promise<BatchAnswer> {
  const res = await undici().request(`${lfsEndpoint(m.address, m.endpoint)}/objects/batch`, {
    method: 'POST', dispatcher: m.dispatcher, signal: m.signal,
    headers: { Accept: LFS_MEDIA_TYPE, 'Content-Type': LFS_MEDIA_TYPE, ...authHeader(m.auth) },
    body: JSON.stringify({ operation: 'download', transfers: ['basic'], objects: pointers }),
  });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`LFS batch request failed: ${res.statusCode}`);
  }
  return (await res.body.json()) as BatchAnswer;
}

/** Downloads one object into the store and ties it to the repository; false when it failed. */
async function fetchObject(m: LfsMigration, p: Pointer, action: Action): Promise<boolean> {
  const res = await undici().request(action.href, { method: 'GET', headers: action.header ?? {}, dispatcher: m.dispatcher, signal: m.signal });
  if (res.statusCode !== 200) {
    await res.body.dump();
    return false;
  }
  const stored = await storeBlob(m.blobs, res.body as unknown as Readable, { maxSize: p.size, tooLarge: () => new Error('larger than its pointer says') });
  if (stored.hashes.sha256 !== p.oid || stored.size !== p.size) {
    if (stored.created && !(await lfs.oidInUse(m.db, stored.hashes.sha256))) await removeBlobFile(m.blobs, stored.hashes.sha256);
    return false;
  }
  await lfs.upsertMetaObject(m.db, m.repo.id, p.oid, p.size, nowUnix());
  return true;
}

/** The pointers of the migrated refs whose objects the repository does not hold yet. */
async function missingPointers(m: LfsMigration): Promise<Pointer[]> {
  const found = new Map<string, Pointer>();
  for (const bytes of await smallBlobsInRefs(m.gitDir, POINTER_MAX_SIZE)) {
    const p = parsePointer(bytes);
    if (p) found.set(p.oid, p);
  }
  const have = await storedOids(m, m.repo.id, [...found.keys()]);
  return [...found.values()].filter((p) => !have.has(p.oid));
}

export async function migrateLfs(m: LfsMigration): Promise<void> {
  if (!m.config.server.lfs_start_server) return;
  const missing = await missingPointers(m);
  let fetched = 0;
  for (let i = 0; i < missing.length; i += BATCH_SIZE) {
    const answer = await batch(m, missing.slice(i, i + BATCH_SIZE));
    for (const o of answer.objects ?? []) {
      const p = missing.find((x) => x.oid === o.oid);
      const ok = p && o.actions?.download && await fetchObject(m, p, o.actions.download).catch((err: unknown) => {
        if (m.signal.aborted) throw err;
        return false;
      });
      if (ok) fetched++;
      else m.log.warn({ repo: m.repo.id, oid: o.oid, error: o.error?.message }, 'migration: an LFS object could not be fetched');
    }
  }
  m.log.info({ repo: m.repo.id, objects: fetched, of: missing.length }, 'migration: LFS objects fetched');
}
