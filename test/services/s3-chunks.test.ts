import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { S3BlobStorage } from '../../src/lib/blob-storage/s3';
import { startTestS3, type TestS3 } from '../helpers/s3';

// Chunked uploads in a bucket (s3rver): chunks of any size become S3 multipart parts of at
// least 5 MiB, small ones waiting in a pending object; the state between chunks is a string
// the caller keeps (the database, for upload sessions), so each call could be another node's.

let s3: TestS3;
let tmp: string;
beforeAll(async () => { s3 = await startTestS3(); tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-s3c-')); });
afterAll(async () => { await s3?.stop(); fs.rmSync(tmp, { recursive: true, force: true }); });

const MiB = 1024 * 1024;
/** A fresh store object each call: nothing in memory carries over between chunks. */
const node = () => new S3BlobStorage({
  endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', pathStyle: true, prefix: 'p',
}, tmp);
const read = async (s: Readable) => { const out: Buffer[] = []; for await (const c of s) out.push(c as Buffer); return Buffer.concat(out); };
const keys = async (store: S3BlobStorage, prefix: string) => { const out: string[] = []; for await (const e of store.list(prefix)) out.push(e.key); return out; };

it('joins chunks of 3, 3, 1 and 6 MiB and 2 bytes into one object through multipart parts', async () => {
  const sizes = [3 * MiB, 3 * MiB, MiB, 6 * MiB, 2];
  const parts = sizes.map((n) => crypto.randomBytes(n));
  const key = 'packages/uploads/big';
  let state = await node().chunks.begin(key);
  let offset = 0;
  for (const p of parts) {
    const store = node();
    const r = await store.chunks.append(key, state, offset, Readable.from([p]));
    expect(r.size).toBe(p.length);
    ({ state } = r);
    offset += r.size;
    await store.close();
  }
  expect(JSON.parse(state)).toMatchObject({ parts: [{ n: 1 }, { n: 2 }], pending: 2 });
  const store = node();
  state = await store.chunks.complete(key, state);
  const whole = Buffer.concat(parts);
  expect((await read(await store.open(key))).equals(whole)).toBe(true);
  // Completing again (a retried PUT) keeps the object; a chunk after it starts the object over with it.
  expect(await store.chunks.complete(key, state)).toBe(state);
  expect((await store.stat(key))?.size).toBe(whole.length);
  ({ state } = await store.chunks.append(key, state, whole.length, Readable.from([Buffer.from('x')])));
  state = await store.chunks.complete(key, state);
  expect((await read(await store.open(key))).equals(Buffer.concat([whole, Buffer.from('x')]))).toBe(true);
  expect(await keys(store, 'packages/uploads/big')).toEqual([key]);
  await store.chunks.abort(key, state);
  expect(await keys(store, 'packages/uploads/big')).toEqual([]);
  await store.close();
}, 60_000);

it('a session of small chunks never starts a multipart upload; an empty one is an empty object', async () => {
  const store = node();
  let state = await store.chunks.begin('packages/uploads/small');
  for (const [i, text] of ['ab', 'cd'].entries()) ({ state } = await store.chunks.append('packages/uploads/small', state, i * 2, Readable.from([Buffer.from(text)])));
  expect(JSON.parse(state)).toMatchObject({ uploadId: null, pending: 4 });
  await store.chunks.complete('packages/uploads/small', state);
  expect((await read(await store.open('packages/uploads/small'))).toString()).toBe('abcd');
  const empty = await store.chunks.complete('packages/uploads/empty', await store.chunks.begin('packages/uploads/empty'));
  expect((await store.stat('packages/uploads/empty'))?.size).toBe(0);
  await store.chunks.abort('packages/uploads/empty', empty);
  expect(await store.stat('packages/uploads/empty')).toBeNull();
  await store.close();
});

it('a chunk past the size limit is refused and leaves the state as it was', async () => {
  const store = node();
  const key = 'packages/uploads/limit';
  let state = await store.chunks.begin(key);
  ({ state } = await store.chunks.append(key, state, 0, Readable.from([Buffer.from('abc')])));
  await expect(store.chunks.append(key, state, 3, Readable.from([Buffer.alloc(100)]), { maxSize: 10 })).rejects.toMatchObject({ status: 413 });
  ({ state } = await store.chunks.append(key, state, 3, Readable.from([Buffer.from('def')])));
  await store.chunks.complete(key, state);
  expect((await read(await store.open(key))).toString()).toBe('abcdef');
  expect(fs.readdirSync(tmp)).toEqual([]);
  await store.close();
});
