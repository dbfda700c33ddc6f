import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;

// A deterministic picture: a gradient with some noise, so PNG cannot squeeze it below the
// 256 KiB under which Gitea keeps an upload as sent.
function pixels(width: number, height: number, noise: number): Buffer {
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = Math.min(255, (x * 255) / width + rnd() * noise);
      data[i + 1] = Math.min(255, (y * 255) / height + rnd() * noise);
      data[i + 2] = Math.min(255, 128 + rnd() * noise);
      data[i + 3] = 255;
    }
  }
  return data;
}

function pngOf(width: number, height: number, noise: number): Buffer {
  const png = new PNG({ width, height });
  pixels(width, height, noise).copy(png.data);
  return PNG.sync.write(png);
}

const jpegOf = (width: number, height: number) => Buffer.from(jpeg.encode({ width, height, data: pixels(width, height, 0) }, 100).data);

// Tiny images of the other two accepted formats (a 1x1 GIF, a 1x1 lossless WebP).
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

const upload = (url: string, auth: ReturnType<typeof as>, image: Buffer | string) =>
  s.request(url, { method: 'POST', auth, json: { image: typeof image === 'string' ? image : image.toString('base64') } });

async function me(u: Creds): Promise<{ avatar_url: string }> {
  const user = await ok(await s.request('api/v1/user', { auth: as(u) }));
  expectShape(user, 'User');
  return user;
}

async function fetchImage(url: string): Promise<{ type: string; body: Buffer }> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return { type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('user avatars', () => {
  let defaultUrl: string;

  it('serves a generated PNG for a user without an uploaded avatar, the same each time', async () => {
    defaultUrl = (await me(alice)).avatar_url;
    // Named by the user id: the hash of the e-mail address would give it away.
    expect(defaultUrl).not.toContain(crypto.createHash('md5').update('alice@example.com').digest('hex'));
    const first = await fetchImage(defaultUrl);
    expect(first.type).toMatch(/^image\/png/);
    const png = PNG.sync.read(first.body);
    expect(png.width).toBe(png.height);
    expect((await fetchImage(defaultUrl)).body.equals(first.body)).toBe(true);
    // Another user gets another picture.
    expect((await fetchImage((await me(bob)).avatar_url)).body.equals(first.body)).toBe(false);
  });

  it('stores a large PNG cropped to a square and scaled down to 512 pixels', async () => {
    const image = pngOf(720, 600, 24);
    expect(image.length).toBeGreaterThan(256 * 1024);
    await ok(await upload('api/v1/user/avatar', as(alice), image), 204);
    const { avatar_url: url } = await me(alice);
    expect(url).not.toBe(defaultUrl);
    expect(url).toMatch(/\/avatars\/[0-9a-f]{32}$/);
    const served = await fetchImage(url);
    expect(served.type).toMatch(/^image\/png/);
    const png = PNG.sync.read(served.body);
    expect([png.width, png.height]).toEqual([512, 512]);
    // Stored under the data directory, named by the hash (the dump takes avatars/ whole).
    expect(fs.existsSync(path.join(s.dataDir, 'avatars', url.split('/').pop()!))).toBe(true);
  });

  it('turns a large JPEG into a 512-pixel PNG, and the old picture is removed', async () => {
    const before = (await me(alice)).avatar_url;
    await ok(await upload('api/v1/user/avatar', as(alice), jpegOf(1600, 1200)), 204);
    const { avatar_url: url } = await me(alice);
    expect(url).not.toBe(before);
    const png = PNG.sync.read((await fetchImage(url)).body);
    expect([png.width, png.height]).toEqual([512, 512]);
    expect(fs.existsSync(path.join(s.dataDir, 'avatars', before.split('/').pop()!))).toBe(false);
  });

  it('keeps small GIF and WebP uploads as sent, served with their type', async () => {
    for (const [image, type] of [[GIF, 'image/gif'], [WEBP, 'image/webp']] as const) {
      await ok(await upload('api/v1/user/avatar', as(bob), image), 204);
      const served = await fetchImage((await me(bob)).avatar_url);
      expect(served.type).toContain(type);
      expect(served.body.equals(image)).toBe(true);
    }
  });

  it('DELETE returns the user to the generated avatar', async () => {
    const uploaded = (await me(alice)).avatar_url;
    await ok(await s.request('api/v1/user/avatar', { method: 'DELETE', auth: as(alice) }), 204);
    const { avatar_url: url } = await me(alice);
    expect(url).toBe(defaultUrl);
    expect((await fetchImage(url)).type).toMatch(/^image\/png/);
    expect(fs.existsSync(path.join(s.dataDir, 'avatars', uploaded.split('/').pop()!))).toBe(false);
  });

  it('refuses what is not an acceptable image: 422 (400 for bad base64)', async () => {
    const tooBig = Buffer.concat([pngOf(16, 16, 0), Buffer.alloc(1024 * 1024)]);
    const res = await upload('api/v1/user/avatar', as(alice), tooBig);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toMatch(/larger than 1048576 bytes/);
    const tooWide = await upload('api/v1/user/avatar', as(alice), pngOf(5000, 1, 0));
    expect(tooWide.status).toBe(422);
    expect((await json(tooWide)).message).toMatch(/width is too large: 5000 > 4096/);
    expect((await upload('api/v1/user/avatar', as(alice), Buffer.from('plain text, not a picture'))).status).toBe(422);
    // A PNG header over garbage: the header alone does not make an image.
    const broken = Buffer.concat([pngOf(8, 8, 0).subarray(0, 33), Buffer.alloc(64, 7)]);
    expect((await upload('api/v1/user/avatar', as(alice), broken)).status).toBe(422);
    expect((await upload('api/v1/user/avatar', as(alice), '%%% not base64')).status).toBe(400);
    expect((await me(alice)).avatar_url).toBe(defaultUrl);
  });

  it('removes the picture with the user', async () => {
    const carol = await createUser(s, 'carol');
    await ok(await upload('api/v1/user/avatar', as(carol), pngOf(600, 600, 24)), 204);
    const file = path.join(s.dataDir, 'avatars', (await me(carol)).avatar_url.split('/').pop()!);
    expect(fs.existsSync(file)).toBe(true);
    await ok(await s.request('api/v1/admin/users/carol', { method: 'DELETE', auth: { basic: [s.admin.username, s.admin.password] } }), 204);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('accepts a 4096x4096 JPEG within the limits (regression: the decoder\'s 256 MB cap refused it)', async () => {
    const big = Buffer.from(jpeg.encode({ width: 4096, height: 4096, data: pixels(4096, 4096, 0) }, 40).data);
    expect(big.length).toBeLessThan(1048576);
    await ok(await upload('api/v1/user/avatar', as(bob), big), 204);
    const stored = await fetchImage((await me(bob)).avatar_url);
    expect(stored.type).toBe('image/png');
    expect(PNG.sync.read(stored.body).width).toBe(512);
  });

  it('answers other requests while an avatar decodes (regression: decoding a large image stalled the server)', async () => {
    const big = pngOf(4096, 4096, 0);
    const order: string[] = [];
    const uploading = upload('api/v1/user/avatar', as(alice), big).then((res) => { order.push('upload'); return res; });
    await new Promise((r) => setTimeout(r, 150));
    const version = await s.request('api/v1/version');
    order.push('version');
    expect(version.status).toBe(200);
    await ok(await uploading, 204);
    expect(order).toEqual(['version', 'upload']);
  });

  it('needs a signed-in user', async () => {
    expect((await upload('api/v1/user/avatar', undefined, GIF)).status).toBe(401);
  });
});

describe('organization avatars', () => {
  it('uploads, serves and deletes an organization\'s avatar (owners only)', async () => {
    const org = await createOrg(s, alice, 'pictures');
    await ok(await upload('api/v1/orgs/pictures/avatar', as(alice), pngOf(600, 600, 24)), 204);
    const after = await ok(await s.request('api/v1/orgs/pictures', { auth: as(alice) }));
    expectShape(after, 'Organization');
    expect(after.avatar_url).not.toBe(org.avatar_url);
    expect(PNG.sync.read((await fetchImage(after.avatar_url)).body).width).toBe(512);
    expect((await upload('api/v1/orgs/pictures/avatar', as(bob), GIF)).status).toBe(403);
    await ok(await s.request('api/v1/orgs/pictures/avatar', { method: 'DELETE', auth: as(alice) }), 204);
    expect((await ok(await s.request('api/v1/orgs/pictures', { auth: as(alice) }))).avatar_url).toBe(org.avatar_url);
  });
});

describe('repository avatars', () => {
  it('has an empty avatar_url until one is uploaded, as Gitea', async () => {
    const repo = await createRepo(s, alice, 'pictured');
    expectShape(repo, 'Repository');
    expect(repo.avatar_url).toBe('');
  });

  it('uploads (repository admins only), serves at /repo-avatars/{hash}, deletes', async () => {
    expect((await upload('api/v1/repos/alice/pictured/avatar', as(bob), GIF)).status).toBe(403);
    await ok(await upload('api/v1/repos/alice/pictured/avatar', as(alice), jpegOf(1600, 1200)), 204);
    const repo = await ok(await s.request('api/v1/repos/alice/pictured', { auth: as(alice) }));
    expectShape(repo, 'Repository');
    expect(repo.avatar_url).toMatch(/\/repo-avatars\/[0-9a-f]{32}$/);
    const served = await fetchImage(repo.avatar_url);
    const png = PNG.sync.read(served.body);
    expect([png.width, png.height]).toEqual([512, 512]);

    expect((await upload('api/v1/repos/alice/pictured/avatar', as(alice), 'AAAA')).status).toBe(422);
    await ok(await s.request('api/v1/repos/alice/pictured/avatar', { method: 'DELETE', auth: as(alice) }), 204);
    const after = await ok(await s.request('api/v1/repos/alice/pictured', { auth: as(alice) }));
    expect(after.avatar_url).toBe('');
    expect((await fetch(repo.avatar_url)).status).toBe(404);
  });

  it('removes the picture with the repository', async () => {
    await createRepo(s, alice, 'short-lived');
    await ok(await upload('api/v1/repos/alice/short-lived/avatar', as(alice), pngOf(600, 600, 24)), 204);
    const { avatar_url: url } = await ok(await s.request('api/v1/repos/alice/short-lived', { auth: as(alice) }));
    const file = path.join(s.dataDir, 'avatars', 'repo', url.split('/').pop());
    expect(fs.existsSync(file)).toBe(true);
    await ok(await s.request('api/v1/repos/alice/short-lived', { method: 'DELETE', auth: as(alice) }), 204);
    expect(fs.existsSync(file)).toBe(false);
  });
});
