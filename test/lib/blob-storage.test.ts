import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStorage } from '../../src/lib/blob-storage/local';
import { S3BlobStorage } from '../../src/lib/blob-storage/s3';
import type { BlobStorage } from '../../src/lib/blob-storage/storage';
import { startTestS3, type TestS3 } from '../helpers/s3';

// One contract, two stores: local disk under a temp root, and a bucket of a real S3-compatible
// server (s3rver) started here. Each test writes under a key prefix of its own.

const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
const read = async (s: Readable) => { const out: Buffer[] = []; for await (const c of s) out.push(c as Buffer); return Buffer.concat(out); };
const byHash = (prefix: string) => (h: { sha256: string }) => `${prefix}/${h.sha256}`;
const unique = () => crypto.randomUUID().slice(0, 8);

let root: string;
let s3: TestS3;
const stores: Record<string, BlobStorage> = {};
const scratch = (name: string) => path.join(root, name);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-storage-'));
  s3 = await startTestS3();
  stores.local = new LocalBlobStorage(scratch('data'), scratch('data/tmp'));
  stores.s3 = new S3BlobStorage({
    endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', pathStyle: true, prefix: 'node/',
  }, scratch('s3-spool'));
}, 30_000);
afterAll(async () => {
  for (const s of Object.values(stores)) await s.close();
  await s3?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.each(['local', 's3'])('%s blob storage', (kind) => {
  const store = () => stores[kind]!;
  const spoolLeft = () => {
    const dir = kind === 'local' ? scratch('data/tmp') : scratch('s3-spool');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };

  it('put hashes while streaming, keys by content, and open reads whole or a byte range', async () => {
    const p = unique();
    const r = await store().put(byHash(p), chunks('hello ', 'blob ', 'world'));
    expect(r).toMatchObject({ key: `${p}/${sha256('hello blob world')}`, size: 16, created: true });
    expect(r.hashes.md5).toBe(crypto.createHash('md5').update('hello blob world').digest('hex'));
    expect((await read(await store().open(r.key))).toString()).toBe('hello blob world');
    expect((await read(await store().open(r.key, { start: 6, end: 9 }))).toString()).toBe('blob');
    expect(await store().stat(r.key)).toMatchObject({ size: 16 });
    expect(spoolLeft()).toEqual([]);
  });

  it('the same bytes again keep the stored object (created false); a fixed key is replaced', async () => {
    const p = unique();
    const a = await store().put(byHash(p), chunks('twice'));
    const b = await store().put(byHash(p), chunks('tw', 'ice'));
    expect([a.created, b.created, b.key]).toEqual([true, false, a.key]);
    await store().put(`${p}/fixed`, chunks('one'));
    await store().put(`${p}/fixed`, chunks('two!'));
    expect((await read(await store().open(`${p}/fixed`))).toString()).toBe('two!');
    expect(spoolLeft()).toEqual([]);
  });

  it('past maxSize the put rejects with the given error and stores nothing', async () => {
    const p = unique();
    await expect(store().put(`${p}/big`, chunks('12345', '67890'), { maxSize: 8, tooLarge: () => new Error('too big') })).rejects.toThrow('too big');
    expect(await store().stat(`${p}/big`)).toBeNull();
    expect(spoolLeft()).toEqual([]);
  });

  it('a missing key: stat null, open rejects with ENOENT, remove is fine', async () => {
    const key = `${unique()}/missing`;
    expect(await store().stat(key)).toBeNull();
    await expect(store().open(key)).rejects.toMatchObject({ code: 'ENOENT' });
    await store().remove(key);
  });

  it('list gives every object under a prefix, and only those', async () => {
    const p = unique();
    for (const k of ['a/1', 'a/2', 'ab/3', 'b/4']) await store().put(`${p}/${k}`, chunks(k));
    const keys = async (prefix: string) => { const out: string[] = []; for await (const e of store().list(prefix)) out.push(e.key); return out.sort(); };
    expect(await keys(`${p}/a/`)).toEqual([`${p}/a/1`, `${p}/a/2`]);
    expect(await keys(`${p}/a`)).toEqual([`${p}/a/1`, `${p}/a/2`, `${p}/ab/3`]);
    expect(await keys(`${p}/`)).toHaveLength(4);
    await store().remove(`${p}/a/1`);
    expect(await keys(`${p}/a/`)).toEqual([`${p}/a/2`]);
  });

  it('withFile hands a parser a local file of the bytes', async () => {
    const p = unique();
    const r = await store().put(byHash(p), chunks('parse me'));
    expect(await store().withFile(r.key, (f) => fs.readFileSync(f, 'utf8'))).toBe('parse me');
    await expect(store().withFile(`${p}/none`, () => 1)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('adopt takes over a hashed local file', async () => {
    const p = unique();
    fs.mkdirSync(scratch('adopt'), { recursive: true });
    const file = scratch(`adopt/${p}`);
    fs.writeFileSync(file, 'adopted');
    const r = await store().adopt(byHash(p), file, { size: 7, hashes: { md5: '', sha1: '', sha256: sha256('adopted'), sha512: '' } });
    expect(r.created).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    expect((await read(await store().open(r.key))).toString()).toBe('adopted');
  });

  it('refuses keys that could leave the store', async () => {
    for (const bad of ['../x', '/abs', 'a//b', 'a/./b', '']) {
      await expect(store().stat(bad)).rejects.toThrow(/storage key/);
      await expect(store().open(bad)).rejects.toThrow(/storage key/);
    }
  });
});

describe('s3 blob storage specifics', () => {
  it('keeps objects under the prefix in the bucket and signs a URL a plain client can fetch', async () => {
    const r = await stores.s3!.put('signed/file.txt', chunks('direct bytes'));
    const url = await stores.s3!.signedUrl(r.key, { expiresSec: 60, filename: 'file.txt', contentType: 'text/plain' });
    expect(url).toContain('/hearth/node/signed/file.txt?');
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('direct bytes');
    expect(res.headers.get('content-disposition')).toContain('file.txt');
    expect(await stores.local!.signedUrl('signed/file.txt', { expiresSec: 60 })).toBeNull();
  });

  it('a body larger than one part goes up as a multipart upload and reads back whole', async () => {
    const big = crypto.randomBytes(9 * 1024 * 1024);
    const r = await stores.s3!.put(byHash('multi'), Readable.from([big]));
    expect(r.hashes.sha256).toBe(sha256(big));
    expect(await stores.s3!.stat(r.key)).toMatchObject({ size: big.length });
    expect(sha256(await read(await stores.s3!.open(r.key)))).toBe(sha256(big));
  }, 60_000);
});
