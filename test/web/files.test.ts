import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Files and archives outside the API: raw, media, archive and their caching and range rules.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
const asAlice = (): Auth => ({ basic: [alice.username, alice.password] });
const BINARY = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
let tagCommit = '';

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'files');
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  const wt = await workTree({ 'README.md': '# files\n', 'docs/guide.txt': 'line one\nline two\n', 'dir/a b.txt': 'spaced\n' });
  fs.writeFileSync(path.join(wt, 'blob.bin'), BINARY);
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'binary');
  await git(wt, 'tag', 'v1.0');
  tagCommit = (await git(wt, 'rev-parse', 'HEAD')).trim();
  await git(wt, 'checkout', '-q', '-b', 'feature/x');
  fs.writeFileSync(path.join(wt, 'README.md'), '# feature\n');
  await git(wt, 'commit', '-q', '-am', 'feature');
  await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'files', alice.username, alice.password), 'main', 'feature/x', 'v1.0');
});
afterAll(async () => { await s.stop(); });

const get = (p: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(p, { redirect: 'manual', ...init });

describe('raw files: /{owner}/{repo}/raw/{branch|tag|commit}/{ref}/{path}', () => {
  it.each([
    ['alice/files/raw/branch/main/README.md', '# files\n'],
    ['alice/files/raw/branch/feature/x/README.md', '# feature\n'],
    ['alice/files/raw/tag/v1.0/docs/guide.txt', 'line one\nline two\n'],
    ['alice/files/raw/branch/main/dir/a%20b.txt', 'spaced\n'],
    ['alice/files/raw/main/README.md', '# files\n'],
    ['alice/files/raw/feature/x/README.md', '# feature\n'],
    ['alice/files/raw/README.md', '# files\n'],
    ['alice/files/media/branch/main/README.md', '# files\n'],
  ])('%s answers the file', async (p, body) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename=/);
    expect(await res.text()).toBe(body);
  });

  it('serves a commit by id and binary files as attachments with their length', async () => {
    const res = await get(`alice/files/raw/commit/${tagCommit}/blob.bin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="blob.bin"; filename*=UTF-8\'\'blob.bin');
    expect(res.headers.get('content-length')).toBe(String(BINARY.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(BINARY)).toBe(true);
  });

  it('answers a range request with the right bytes (206), and 416 past the end', async () => {
    const res = await get('alice/files/raw/branch/main/blob.bin', { headers: { Range: 'bytes=65530-65545' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 65530-65545/${BINARY.length}`);
    expect(res.headers.get('content-length')).toBe('16');
    expect(Buffer.from(await res.arrayBuffer()).equals(BINARY.subarray(65530, 65546))).toBe(true);
    const suffix = await get('alice/files/raw/branch/main/blob.bin', { headers: { Range: 'bytes=-10' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(BINARY.subarray(BINARY.length - 10))).toBe(true);
    const past = await get('alice/files/raw/branch/main/blob.bin', { headers: { Range: 'bytes=900000-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${BINARY.length}`);
  });

  it('the API raw endpoint takes ranges too', async () => {
    const res = await get('api/v1/repos/alice/files/raw/blob.bin', { headers: { Range: 'bytes=0-3' } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(BINARY.subarray(0, 4))).toBe(true);
  });

  it('sends ETag and Last-Modified, and 304 for a fresh conditional request', async () => {
    const first = await get('alice/files/raw/branch/main/README.md');
    const etag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(new Date(modified).getTime()).toBeGreaterThan(0);
    expect((await get('alice/files/raw/branch/main/README.md', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await get('alice/files/raw/branch/main/README.md', { headers: { 'If-Modified-Since': modified } })).status).toBe(304);
    expect((await get('alice/files/raw/branch/main/README.md', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it.each([
    'alice/files/raw/branch/nope/README.md',
    'alice/files/raw/branch/main/nope.md',
    'alice/files/raw/branch/main/docs',
    'alice/files/raw/tag/v9/README.md',
    'alice/files/raw/commit/0123456789abcdef0123456789abcdef01234567/README.md',
    'alice/files/raw/branch/main/..%2F..%2Fconfig',
    'alice/files/raw/branch/main/.git/config',
  ])('answers 404 for %s', async (p) => {
    expect((await get(p)).status).toBe(404);
  });

  it('hides private repositories (404) but serves them to a reader by Basic or token', async () => {
    expect((await get('alice/secret/raw/branch/main/README.md')).status).toBe(404);
    expect((await get('alice/secret/raw/branch/main/README.md', { auth: { basic: [bob.username, bob.password] } })).status).toBe(404);
    expect((await get('alice/secret/raw/branch/main/README.md', { auth: asAlice() })).status).toBe(200);
    const token = await createToken(s, alice, ['read:repository']);
    expect((await get('alice/secret/raw/branch/main/README.md', { auth: { token } })).status).toBe(200);
    expect((await get('alice/secret/archive/main.zip', { auth: { token } })).status).toBe(200);
    expect((await get('alice/secret/archive/main.zip')).status).toBe(404);
  });
});

describe('archives: /{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle', () => {
  it('streams a zip and a tar.gz with their names, ETag and 304', async () => {
    const zip = await get('alice/files/archive/v1.0.zip');
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toMatch(/^attachment; filename="files-v1\.0\.zip"/);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const etag = zip.headers.get('etag')!;
    expect(etag).toBe(`"${tagCommit}.zip"`);
    expect((await get('alice/files/archive/v1.0.zip', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    const tgz = await get('alice/files/archive/feature/x.tar.gz');
    expect(tgz.status).toBe(200);
    expect(tgz.headers.get('content-type')).toBe('application/gzip');
    expect(tgz.headers.get('content-disposition')).toMatch(/filename="files-feature-x\.tar\.gz"/);
    expect(Buffer.from(await tgz.arrayBuffer()).subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(true);
  });

  it('a .bundle is a git bundle that clones to the ref', async () => {
    const res = await get('alice/files/archive/v1.0.bundle');
    expect(res.status).toBe(200);
    const dir = await tempDir();
    const file = path.join(dir, 'files.bundle');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    await git(dir, 'clone', '-q', file, 'clone');
    expect((await git(path.join(dir, 'clone'), 'rev-parse', 'HEAD')).trim()).toBe(tagCommit);
    expect(fs.readFileSync(path.join(dir, 'clone', 'blob.bin')).equals(BINARY)).toBe(true);
  });

  it('answers 404 for an unknown ref and 400 for an unknown format', async () => {
    expect((await get('alice/files/archive/nope.zip')).status).toBe(404);
    expect((await get('alice/files/archive/main.rar')).status).toBe(400);
  });

  it('the API archive endpoint serves bundles too', async () => {
    const res = await get('api/v1/repos/alice/files/archive/main.bundle');
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });
});
