import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/connect';
import { blobPath, openBlob, removeBlobFile, storeBlob, tempDir } from '../../src/services/packages/blob-store';
import { cleanupPackages } from '../../src/services/packages/cleanup';
import { currentIndexFiles, dropIndex, publishIndex } from '../../src/services/packages/repo-index/store';
import {
  appendUploadChunk, createUploadSession, deleteUploadSession, finishUploadSession, getUploadSession,
} from '../../src/services/packages/upload-session';
import { tempDatabase } from '../helpers/database';
import { LocalBlobStorage } from '../../src/lib/blob-storage/local';
import { spoolDir } from '../../src/lib/blob-storage/open';

// The package blob store and chunked upload sessions, over a migrated temp database and data dir.

let db: DB;
let close: () => Promise<void>;
let dataDir: string;
let store: LocalBlobStorage;

beforeEach(async () => {
  ({ db, close } = await tempDatabase());
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-blobs-'));
  store = new LocalBlobStorage(dataDir, spoolDir(dataDir));
});
afterEach(async () => {
  await close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const hash = (alg: string, b: Buffer) => crypto.createHash(alg).update(b).digest('hex');
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
const read = async (s: Readable) => { const out: Buffer[] = []; for await (const c of s) out.push(c as Buffer); return Buffer.concat(out); };
const temps = () => (fs.existsSync(tempDir(dataDir)) ? fs.readdirSync(tempDir(dataDir)) : []);

describe('storeBlob', () => {
  it('computes md5, sha1, sha256, sha512 and the size, and stores under aa/bb/<sha256>', async () => {
    const data = Buffer.from('hello package world');
    const blob = await storeBlob(store, chunks('hello ', 'package ', 'world'));
    expect(blob.size).toBe(data.length);
    expect(blob.hashes).toEqual({ md5: hash('md5', data), sha1: hash('sha1', data), sha256: hash('sha256', data), sha512: hash('sha512', data) });
    const file = blobPath(dataDir, blob.hashes.sha256);
    expect(file).toBe(path.join(dataDir, 'packages', 'blobs', blob.hashes.sha256.slice(0, 2), blob.hashes.sha256.slice(2, 4), blob.hashes.sha256));
    expect(fs.readFileSync(file)).toEqual(data);
    expect(await read(await openBlob(store, blob.hashes.sha256, { start: 6, end: 12 }))).toEqual(Buffer.from('package'));
    expect(temps()).toEqual([]);
  });

  it('stores the same bytes once (dedupe) and drops the second temp file', async () => {
    const a = await storeBlob(store, chunks('same'));
    const b = await storeBlob(store, chunks('sa', 'me'));
    expect([a.created, b.created]).toEqual([true, false]);
    expect(b.hashes.sha256).toBe(a.hashes.sha256);
    expect(temps()).toEqual([]);
  });

  it('past maxSize rejects with 413 and leaves no temp file and no blob', async () => {
    await expect(storeBlob(store, chunks('12345', '67890'), { maxSize: 8 })).rejects.toMatchObject({ status: 413 });
    expect(temps()).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'packages', 'blobs'))).toBe(false);
  });

  it('an input that fails mid-stream (client abort) leaves no temp file', async () => {
    const broken = new Readable({ read() { this.push(Buffer.from('partial')); this.destroy(new Error('aborted')); } });
    await expect(storeBlob(store, broken)).rejects.toThrow('aborted');
    expect(temps()).toEqual([]);
  });

  it('removeBlobFile removes the file and tolerates a missing one', async () => {
    const blob = await storeBlob(store, chunks('gone'));
    await removeBlobFile(store, blob.hashes.sha256);
    await removeBlobFile(store, blob.hashes.sha256);
    expect(fs.existsSync(blobPath(dataDir, blob.hashes.sha256))).toBe(false);
  });

  it('refuses a blob name that is not a sha256', () => {
    expect(() => blobPath(dataDir, '../../etc/passwd')).toThrow();
  });
});

describe('chunked upload sessions', () => {
  it('append chunks at their offsets and finish into a blob with the digest checked', async () => {
    const s = await createUploadSession(db, store);
    await appendUploadChunk(db, store, s.id, chunks('abc'), 0);
    expect((await appendUploadChunk(db, store, s.id, chunks('def'))).bytesReceived).toBe(6);
    const data = Buffer.from('abcdef');
    const blob = await finishUploadSession(db, store, s.id, hash('sha256', data));
    expect(blob.size).toBe(6);
    expect(fs.readFileSync(blobPath(dataDir, blob.hashes.sha256))).toEqual(data);
    await expect(getUploadSession(db, s.id)).rejects.toMatchObject({ status: 404 });
  });

  it('a chunk at the wrong offset is refused with 416 and changes nothing', async () => {
    const s = await createUploadSession(db, store);
    await appendUploadChunk(db, store, s.id, chunks('abc'), 0);
    await expect(appendUploadChunk(db, store, s.id, chunks('xyz'), 2)).rejects.toMatchObject({ status: 416 });
    await expect(appendUploadChunk(db, store, s.id, chunks('xyz'), 0)).rejects.toMatchObject({ status: 416 });
    expect((await getUploadSession(db, s.id)).bytesReceived).toBe(3);
  });

  it('a digest mismatch is a 400 and keeps the session; delete drops it', async () => {
    const s = await createUploadSession(db, store);
    await appendUploadChunk(db, store, s.id, chunks('abc'), 0);
    await expect(finishUploadSession(db, store, s.id, '0'.repeat(64))).rejects.toMatchObject({ status: 400 });
    expect((await getUploadSession(db, s.id)).bytesReceived).toBe(3);
    await deleteUploadSession(db, store, s.id);
    await expect(getUploadSession(db, s.id)).rejects.toMatchObject({ status: 404 });
    expect(fs.readdirSync(path.join(dataDir, 'packages', 'uploads'))).toEqual([]);
  });
});

describe('cleanupPackages', () => {
  it('removes blobs no file references and stale upload sessions, keeping referenced blobs', async () => {
    const orphan = await storeBlob(store, chunks('orphan'));
    const kept = await storeBlob(store, chunks('kept'));
    const row = (b: typeof orphan) => ({ size: b.size, hash_md5: b.hashes.md5, hash_sha1: b.hashes.sha1, hash_sha256: b.hashes.sha256, hash_sha512: b.hashes.sha512, created_unix: 1 });
    await db.insertInto('package_blob').values(row(orphan)).execute();
    const keptRow = await db.insertInto('package_blob').values(row(kept)).returningAll().executeTakeFirstOrThrow();
    const owner = await db.selectFrom('user').select('id').executeTakeFirst()
      ?? await db.insertInto('user').values({ name: 'u', lower_name: 'u', email: 'u@x', created_unix: 1, updated_unix: 1 } as never).returning('id').executeTakeFirstOrThrow();
    const pkg = await db.insertInto('package').values({ owner_id: owner.id, type: 'generic', name: 'p', lower_name: 'p' }).returning('id').executeTakeFirstOrThrow();
    const ver = await db.insertInto('package_version').values({ package_id: pkg.id, version: '1', lower_version: '1', created_unix: 1 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('package_file').values({ version_id: ver.id, blob_id: keptRow.id, name: 'f', lower_name: 'f', created_unix: 1 }).execute();
    const old = new Date(Date.now() - 7_200_000);
    fs.utimesSync(blobPath(dataDir, orphan.hashes.sha256), old, old);
    fs.utimesSync(blobPath(dataDir, kept.hashes.sha256), old, old);
    const s = await createUploadSession(db, store);
    await db.updateTable('package_blob_upload').set({ updated_unix: 1 }).where('id', '=', s.id).execute();

    const result = await cleanupPackages(db, store, dataDir, 3_600_000);
    expect(result).toMatch(/removed 1 unreferenced package blob\(s\), 1 stale upload session/);
    expect(fs.existsSync(blobPath(dataDir, orphan.hashes.sha256))).toBe(false);
    expect(fs.existsSync(blobPath(dataDir, kept.hashes.sha256))).toBe(true);
    expect((await db.selectFrom('package_blob').select('hash_sha256').execute()).map((r) => r.hash_sha256)).toEqual([kept.hashes.sha256]);
    await expect(getUploadSession(db, s.id)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps an unreferenced blob an upload just stored again (its file is fresh)', async () => {
    const blob = await storeBlob(store, chunks('again'));
    const b = blob.hashes;
    await db.insertInto('package_blob').values({ size: blob.size, hash_md5: b.md5, hash_sha1: b.sha1, hash_sha256: b.sha256, hash_sha512: b.sha512, created_unix: 1 }).execute();
    const old = new Date(Date.now() - 7_200_000);
    fs.utimesSync(blobPath(dataDir, b.sha256), old, old);
    expect((await storeBlob(store, chunks('again'))).created).toBe(false);
    expect(await cleanupPackages(db, store, dataDir, 3_600_000)).toMatch(/removed 0 unreferenced/);
    expect(fs.existsSync(blobPath(dataDir, b.sha256))).toBe(true);
  });
});

// A repository index job that lost its lease (several nodes) builds from older rows than the node
// that took it over: the fence refuses its write, and the blobs it stored for it are removed.
describe('publishIndex and dropIndex under a fence', () => {
  let where: { ownerId: number; type: string; scope: string };
  beforeEach(async () => {
    const owner = await db.insertInto('user').values({ name: 'o', lower_name: 'o', email: 'o@x', created_unix: 1, updated_unix: 1 } as never).returning('id').executeTakeFirstOrThrow();
    where = { ownerId: owner.id, type: 'debian', scope: 'fenced' };
  });
  const current = async () => (await currentIndexFiles(db, where.ownerId, 'debian', 'fenced')).map((f) => f.path);
  const refuse = async () => false;
  const blobFiles = () => (fs.existsSync(dataDir) ? fs.readdirSync(dataDir, { recursive: true }).filter((f) => /[0-9a-f]{64}$/.test(String(f))) : []);

  it('writes nothing and keeps no blob when the fence refuses; writes when it allows', async () => {
    const files = [{ path: 'Release', data: Buffer.from('Suite: fenced\n') }];
    expect(await publishIndex(db, store, where, files, refuse)).toBe(false);
    expect(await current()).toEqual([]);
    expect(blobFiles()).toEqual([]);
    expect(await publishIndex(db, store, where, files, async () => true)).toBe(true);
    expect(await current()).toEqual(['Release']);
    expect(blobFiles()).toHaveLength(1);
  });

  it('a refused drop leaves the index as it was', async () => {
    await publishIndex(db, store, where, [{ path: 'Release', data: Buffer.from('x\n') }]);
    expect(await dropIndex(db, where, refuse)).toBe(false);
    expect(await current()).toEqual(['Release']);
    expect(await dropIndex(db, where)).toBe(true);
    expect(await current()).toEqual([]);
  });
});
