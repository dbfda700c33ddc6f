import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestS3, type TestS3 } from '../helpers/s3';
import { as, createUser, startTestServer, type TestServer } from '../helpers/server';

// [storage] serve_direct = true over a bucket (s3rver): downloads answer a redirect to a
// presigned URL of the bucket, as Gitea's SERVE_DIRECT (303; 307 for the container registry);
// the client follows it and gets the bytes from the bucket; the URL stops working after 5 minutes.

let s3: TestS3;
let s: TestServer;
let alice: { username: string; password: string; id: number };

beforeAll(async () => {
  s3 = await startTestS3();
  s = await startTestServer({ ...s3.env('direct'), HEARTH__STORAGE__SERVE_DIRECT: 'true' });
  alice = await createUser(s, 'direct-alice');
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await s3?.stop();
});

const LFS = 'application/vnd.git-lfs+json';
const pkg = (name: string) => `api/packages/${alice.username}/generic/direct/1.0.0/${name}`;

/** The redirect a GET answers (not followed): its status and where it points. */
async function redirectOf(p: string, init: RequestInit = {}): Promise<{ status: number; location: URL }> {
  const res = await s.request(p, { auth: as(alice), redirect: 'manual', ...init });
  await res.arrayBuffer();
  return { status: res.status, location: new URL(res.headers.get('location') ?? 'about:blank') };
}

it('a package file: 303 to the bucket, whose URL gives the bytes (and ranges); HEAD is answered by the node', async () => {
  const body = crypto.randomBytes(50_000);
  expect((await s.request(pkg('tool.bin'), { method: 'PUT', body, auth: as(alice) })).status).toBe(201);
  const { status, location } = await redirectOf(pkg('tool.bin'));
  expect(status).toBe(303);
  expect(location.origin).toBe(s3.endpoint);
  expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
  const direct = await fetch(location);
  expect(direct.status).toBe(200);
  expect(direct.headers.get('content-disposition')).toContain('tool.bin');
  expect(Buffer.from(await direct.arrayBuffer()).equals(body)).toBe(true);
  const part = await fetch(location, { headers: { Range: 'bytes=10-19' } });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(body.subarray(10, 20))).toBe(true);
  // A client that follows redirects (the default) just gets the file.
  const followed = await s.request(pkg('tool.bin'), { auth: as(alice) });
  expect(Buffer.from(await followed.arrayBuffer()).equals(body)).toBe(true);
  const head = await s.request(pkg('tool.bin'), { method: 'HEAD', auth: as(alice) });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-length')).toBe(String(body.length));
});

it('the presigned URL expires: one made more than 5 minutes ago is refused by the bucket', async () => {
  expect((await s.request(pkg('old.bin'), { method: 'PUT', body: 'old bytes', auth: as(alice) })).status).toBe(201);
  // Signed as if 10 minutes ago (the SDK signs with the clock's time).
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 600_000 });
  let location: URL;
  try {
    ({ location } = await redirectOf(pkg('old.bin')));
  } finally {
    vi.useRealTimers();
  }
  const res = await fetch(location);
  expect(res.status).toBe(403);
  expect(await res.text()).toMatch(/expired/i);
  const fresh = await redirectOf(pkg('old.bin'));
  expect(await (await fetch(fresh.location)).text()).toBe('old bytes');
});

it('an attachment and an LFS object redirect too; the container registry answers 307', async () => {
  expect((await s.request('api/v1/user/repos', { method: 'POST', auth: as(alice), json: { name: 'files', auto_init: true } })).status).toBe(201);
  expect((await s.request(`api/v1/repos/${alice.username}/files/issues`, { method: 'POST', auth: as(alice), json: { title: 'a file' } })).status).toBe(201);
  const form = new FormData();
  form.append('attachment', new Blob([Buffer.from('attached bytes')]), 'notes.txt');
  const up = await s.request(`api/v1/repos/${alice.username}/files/issues/1/assets`, { method: 'POST', auth: as(alice), body: form });
  const { uuid } = (await up.json()) as { uuid: string };
  const att = await redirectOf(`attachments/${uuid}`);
  expect(att.status).toBe(303);
  expect(await (await fetch(att.location)).text()).toBe('attached bytes');

  const object = Buffer.from('large file content');
  const oid = crypto.createHash('sha256').update(object).digest('hex');
  const lfs = `${alice.username}/files.git/info/lfs/objects/${oid}`;
  expect((await s.request(`${lfs}/${object.length}`, { method: 'PUT', auth: as(alice), body: object, headers: { Accept: LFS } })).status).toBe(200);
  const got = await redirectOf(lfs, { headers: { Accept: LFS } });
  expect(got.status).toBe(303);
  expect(await (await fetch(got.location)).text()).toBe('large file content');
  // The batch API hands the bucket's URL itself, without our credentials, as Gitea.
  const batch = await s.request(`${alice.username}/files.git/info/lfs/objects/batch`, {
    method: 'POST', auth: as(alice), headers: { Accept: LFS, 'Content-Type': LFS },
    body: JSON.stringify({ operation: 'download', objects: [{ oid, size: object.length }] }),
  });
  const [answer] = ((await batch.json()) as { objects: { actions: { download: { href: string; header?: unknown; expires_in: number } } }[] }).objects;
  expect(new URL(answer!.actions.download.href).origin).toBe(s3.endpoint);
  expect(answer!.actions.download.header).toBeUndefined();
  expect(answer!.actions.download.expires_in).toBe(300);
  expect(await (await fetch(answer!.actions.download.href)).text()).toBe('large file content');

  const blob = Buffer.from('a layer');
  const digest = `sha256:${crypto.createHash('sha256').update(blob).digest('hex')}`;
  const pushed = await s.request(`v2/${alice.username}/img/blobs/uploads/?digest=${digest}`, { method: 'POST', auth: as(alice), body: blob });
  expect(pushed.status).toBe(201);
  const layer = await redirectOf(`v2/${alice.username}/img/blobs/${digest}`);
  expect(layer.status).toBe(307);
  expect(await (await fetch(layer.location)).text()).toBe('a layer');
});

it('on local disk the key is ignored: the node serves the file', async () => {
  const t = await startTestServer({ HEARTH__STORAGE__TYPE: 'local', HEARTH__STORAGE__SERVE_DIRECT: 'true' });
  try {
    const bob = await createUser(t, 'direct-bob');
    const p = `api/packages/${bob.username}/generic/local/1.0.0/f.txt`;
    expect((await t.request(p, { method: 'PUT', body: 'on disk', auth: as(bob) })).status).toBe(201);
    const res = await t.request(p, { auth: as(bob), redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('on disk');
  } finally {
    await t.stop();
  }
});
