import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKey } from '../../src/services/packages/blob-store';
import { startTestS3, type TestS3 } from '../helpers/s3';
import { as, createUser, startTestServer, type TestServer } from '../helpers/server';

// [storage] type = "s3" over a real S3-compatible server (s3rver) started here: the bytes go to
// the bucket under the prefix, never to the data directory, and come back whole or by range.

let s3: TestS3;
let s: TestServer;
let alice: { username: string; password: string; id: number };

beforeAll(async () => {
  s3 = await startTestS3();
  s = await startTestServer(s3.env('site-a'));
  alice = await createUser(s, 's3-alice');
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await s3?.stop();
});

const keysIn = async (prefix: string) => { const out: string[] = []; for await (const e of s.hearth.blobs.list(prefix)) out.push(e.key); return out; };

describe('package files in an S3 bucket', () => {
  it('an upload lands in the bucket (not the data directory) and downloads whole and by range', async () => {
    const body = crypto.randomBytes(200_000);
    const sha = crypto.createHash('sha256').update(body).digest('hex');
    const put = await s.request(`api/packages/${alice.username}/generic/s3tool/1.0.0/tool.bin`, { method: 'PUT', body, auth: as(alice) });
    expect(put.status).toBe(201);
    expect(s.hearth.blobs.kind).toBe('s3');
    expect(await keysIn('packages/blobs/')).toContain(blobKey(sha));
    expect(fs.existsSync(path.join(s.dataDir, 'packages', 'blobs'))).toBe(false);
    // The spool file the upload was hashed into is gone.
    expect(fs.readdirSync(path.join(s.dataDir, 'packages', 'tmp'))).toEqual([]);
    const whole = await s.request(`api/packages/${alice.username}/generic/s3tool/1.0.0/tool.bin`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(body)).toBe(true);
    const part = await s.request(`api/packages/${alice.username}/generic/s3tool/1.0.0/tool.bin`, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(100, 200))).toBe(true);
  });

  it('an upload over the size limit leaves nothing in the bucket', async () => {
    const t = await startTestServer({ ...s3.env('site-b'), HEARTH__PACKAGES__LIMIT_SIZE_GENERIC: '1000' });
    try {
      const bob = await createUser(t, 's3-bob');
      const res = await t.request(`api/packages/${bob.username}/generic/big/1.0.0/big.bin`, { method: 'PUT', body: Buffer.alloc(5000), auth: as(bob) });
      expect(res.status).toBe(403);
      const keys: string[] = [];
      for await (const e of t.hearth.blobs.list('')) keys.push(e.key);
      expect(keys).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  it('an issue attachment goes to the bucket under attachments/ and is served whole and by range', async () => {
    expect((await s.request(`api/v1/user/repos`, { method: 'POST', auth: as(alice), json: { name: 'files', auto_init: true } })).status).toBe(201);
    expect((await s.request(`api/v1/repos/${alice.username}/files/issues`, { method: 'POST', auth: as(alice), json: { title: 'with a file' } })).status).toBe(201);
    const form = new FormData();
    form.append('attachment', new Blob([Buffer.from('hello bucket')]), 'notes.txt');
    const up = await s.request(`api/v1/repos/${alice.username}/files/issues/1/assets`, { method: 'POST', auth: as(alice), body: form });
    expect(up.status).toBe(201);
    const { uuid } = (await up.json()) as { uuid: string };
    expect(await keysIn('attachments/')).toEqual([`attachments/${uuid[0]}/${uuid[1]}/${uuid}`]);
    expect(fs.existsSync(path.join(s.dataDir, 'attachments'))).toBe(false);
    expect(await (await s.request(`attachments/${uuid}`, { auth: as(alice) })).text()).toBe('hello bucket');
    const part = await s.request(`attachments/${uuid}`, { auth: as(alice), headers: { Range: 'bytes=6-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 6-11/12');
    expect(await part.text()).toBe('bucket');
  });

  it('an uploaded avatar is kept in the bucket and served from it', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    expect((await s.request('api/v1/user/avatar', { method: 'POST', auth: as(alice), json: { image: png.toString('base64') } })).status).toBe(204);
    const keys = await keysIn('avatars/');
    expect(keys).toHaveLength(1);
    expect(fs.existsSync(path.join(s.dataDir, 'avatars'))).toBe(false);
    const hash = keys[0]!.split('/').pop()!;
    const res = await s.request(`avatars/${hash}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
  });

  it('deleting the package version and cleanup_packages remove the object from the bucket', async () => {
    const body = Buffer.from('short-lived package\n');
    const sha = crypto.createHash('sha256').update(body).digest('hex');
    expect((await s.request(`api/packages/${alice.username}/generic/gone/1.0.0/gone.txt`, { method: 'PUT', body, auth: as(alice) })).status).toBe(201);
    expect(await keysIn(blobKey(sha))).toEqual([blobKey(sha)]);
    expect((await s.request(`api/packages/${alice.username}/generic/gone/1.0.0`, { method: 'DELETE', auth: as(alice) })).status).toBe(204);
    const { cleanupPackages } = await import('../../src/services/packages/cleanup');
    // S3 keeps whole seconds: an object is older than a zero grace period only from the next second.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cleanupPackages(s.hearth.db, s.hearth.blobs, s.dataDir, 0)).toMatch(/removed 1 unreferenced package blob/);
    expect(await keysIn(blobKey(sha))).toEqual([]);
  });
});
