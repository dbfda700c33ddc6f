import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';

// Gitea's container registry at /v2, driven by the real skopeo.

const run = promisify(execFile);
const SKOPEO = '/usr/bin/skopeo';
let s: TestServer;
let tmp: string;
let host: string;
let alice: { username: string; password: string; id: number };
let aliceToken: string;
let hidden: { username: string; password: string; id: number };
let hiddenToken: string;

const sha256 = (b: Buffer | string) => crypto.createHash('sha256').update(b).digest('hex');

/** A one-file ustar archive, written by hand. */
function tarOf(name: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100); header.write('0000000\0', 108); header.write('0000000\0', 116);
  header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136);
  header.write('        ', 148); header.write('0', 156); header.write('ustar\0' + '00', 257);
  const sum = header.reduce((a, b) => a + b, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const pad = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, pad, Buffer.alloc(1024)]);
}

type Layout = { dir: string; layer: Buffer; layerDigest: string; manifestDigest: string };

/** An OCI image layout with one tar.gz layer, a config and a manifest tagged `v1`. */
function writeLayout(dir: string, text: string): Layout {
  const blobs = path.join(dir, 'blobs', 'sha256');
  fs.mkdirSync(blobs, { recursive: true });
  const put = (b: Buffer) => { const hex = sha256(b); fs.writeFileSync(path.join(blobs, hex), b); return { digest: `sha256:${hex}`, size: b.length }; };
  const tar = tarOf('hello.txt', Buffer.from(text));
  const layer = zlib.gzipSync(tar);
  const l = put(layer);
  const config = put(Buffer.from(JSON.stringify({
    architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(tar)}`] },
  })));
  const manifest = put(Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...l }],
  })));
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(dir, 'index.json'), JSON.stringify({
    schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'org.opencontainers.image.ref.name': 'v1' } }],
  }));
  return { dir, layer, layerDigest: l.digest, manifestDigest: manifest.digest };
}

async function skopeo(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(SKOPEO, ['--insecure-policy', ...args], {
      env: { ...process.env, HOME: tmp, XDG_RUNTIME_DIR: tmp, REGISTRY_AUTH_FILE: path.join(tmp, 'auth.json') }, timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
const ref = (image: string) => `docker://${host}/${image}`;

/** A registry token for Basic credentials (anonymous without). */
async function registryToken(creds?: [string, string]): Promise<string> {
  const res = await s.request('v2/token', { headers: creds ? { Authorization: basicHeader(...creds) } : {} });
  expect(res.status).toBe(200);
  return ((await json(res)) as { token: string }).token;
}

let layout: Layout;

beforeAll(async () => {
  s = await startTestServer();
  host = new URL(s.hearth.config.server.root_url).host;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-oci-'));
  alice = await createUser(s, 'oci-alice');
  aliceToken = await createToken(s, alice, ['write:package']);
  hidden = await createUser(s, 'oci-hidden', { visibility: 'private' });
  hiddenToken = await createToken(s, hidden, ['write:package']);
  layout = writeLayout(path.join(tmp, 'src'), 'hello from hearth\n');
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('container registry', () => {
  it('answers /v2/ with the Bearer challenge to anonymous callers and 200 with a token', async () => {
    const res = await s.request('v2/');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="${s.hearth.config.server.root_url}v2/token",service="container_registry",scope="*"`);
    expect((await json(res)).errors[0].code).toBe('UNAUTHORIZED');
    const token = await registryToken([alice.username, aliceToken]);
    const authed = await s.request('v2/', { headers: { Authorization: `Bearer ${token}` } });
    expect(authed.status).toBe(200);
    expect(authed.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
  });

  it('refuses /v2/token for wrong credentials with 401', async () => {
    const res = await s.request('v2/token', { headers: { Authorization: basicHeader(alice.username, 'wrong') } });
    expect(res.status).toBe(401);
  });

  it('pushes with skopeo copy, inspects and pulls back the same layer bytes', async () => {
    const push = await skopeo('copy', `oci:${layout.dir}:v1`, `${ref(`${alice.username}/hello`)}:v1`, '--dest-tls-verify=false', '--dest-creds', `${alice.username}:${aliceToken}`);
    expect(push.code, push.stderr).toBe(0);
    const inspect = await skopeo('inspect', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`, `${ref(`${alice.username}/hello`)}:v1`);
    expect(inspect.code, inspect.stderr).toBe(0);
    const info = JSON.parse(inspect.stdout);
    expect(info.Digest).toBe(layout.manifestDigest);
    expect(info.Layers).toEqual([layout.layerDigest]);
    const dest = path.join(tmp, 'pulled');
    const pull = await skopeo('copy', `${ref(`${alice.username}/hello`)}:v1`, `oci:${dest}:v1`, '--src-tls-verify=false', '--src-creds', `${alice.username}:${aliceToken}`);
    expect(pull.code, pull.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dest, 'blobs', 'sha256', layout.layerDigest.slice(7)))).toEqual(layout.layer);
  });

  it('stores the image as Gitea: a container package, the tag a version, manifest and layers as files', async () => {
    const rows = await s.hearth.db.selectFrom('package as p').innerJoin('package_version as v', 'v.package_id', 'p.id')
      .innerJoin('package_file as f', 'f.version_id', 'v.id').select(['p.type', 'p.name', 'v.version', 'v.is_internal', 'f.name as file', 'f.is_lead'])
      .where('p.name', '=', 'hello').where('v.version', '=', 'v1').execute();
    const names = rows.map((r) => r.file);
    expect(names).toHaveLength(3);
    expect(names).toEqual(expect.arrayContaining(['manifest.json', layout.layerDigest]));
    expect(rows.every((r) => r.type === 'container' && r.is_internal === 0)).toBe(true);
    expect(rows.find((r) => r.file === 'manifest.json')?.is_lead).toBe(1);
  });

  it('serves the manifest by tag and digest with Docker-Content-Digest and its media type', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    for (const reference of ['v1', layout.manifestDigest]) {
      const res = await s.request(`v2/${alice.username}/hello/manifests/${reference}`, { method: 'HEAD', headers: auth });
      expect(res.status).toBe(200);
      expect(res.headers.get('docker-content-digest')).toBe(layout.manifestDigest);
      expect(res.headers.get('content-type')).toBe('application/vnd.oci.image.manifest.v1+json');
    }
    const missing = await s.request(`v2/${alice.username}/hello/manifests/nope`, { headers: auth });
    expect(missing.status).toBe(404);
    expect((await json(missing)).errors[0].code).toBe('MANIFEST_UNKNOWN');
  });

  it('copies a second tag of the same image (blobs mounted, one blob row each) and lists the tags', async () => {
    const copy = await skopeo('copy', `${ref(`${alice.username}/hello`)}:v1`, `${ref(`${alice.username}/hello`)}:v2`,
      '--src-tls-verify=false', '--dest-tls-verify=false', '--src-creds', `${alice.username}:${aliceToken}`, '--dest-creds', `${alice.username}:${aliceToken}`);
    expect(copy.code, copy.stderr).toBe(0);
    const copyOther = await skopeo('copy', `${ref(`${alice.username}/hello`)}:v1`, `${ref(`${alice.username}/other`)}:v1`,
      '--src-tls-verify=false', '--dest-tls-verify=false', '--src-creds', `${alice.username}:${aliceToken}`, '--dest-creds', `${alice.username}:${aliceToken}`);
    expect(copyOther.code, copyOther.stderr).toBe(0);
    const blobs = await s.hearth.db.selectFrom('package_blob').select('id').where('hash_sha256', '=', layout.layerDigest.slice(7)).execute();
    expect(blobs).toHaveLength(1);
    const tags = await skopeo('list-tags', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`, ref(`${alice.username}/hello`));
    expect(tags.code, tags.stderr).toBe(0);
    expect(JSON.parse(tags.stdout).Tags).toEqual(['v1', 'v2']);
  });

  it('stores a Docker v2 schema 2 manifest with its media type (skopeo --format v2s2)', async () => {
    const creds = `${alice.username}:${aliceToken}`;
    const copy = await skopeo('copy', '--format', 'v2s2', `oci:${layout.dir}:v1`, `${ref(`${alice.username}/dockerish`)}:v1`, '--dest-tls-verify=false', '--dest-creds', creds);
    expect(copy.code, copy.stderr).toBe(0);
    const raw = await skopeo('inspect', '--raw', '--tls-verify=false', '--creds', creds, `${ref(`${alice.username}/dockerish`)}:v1`);
    expect(JSON.parse(raw.stdout).mediaType).toBe('application/vnd.docker.distribution.manifest.v2+json');
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const res = await s.request(`v2/${alice.username}/dockerish/manifests/v1`, { method: 'HEAD', headers: auth });
    expect(res.headers.get('content-type')).toBe('application/vnd.docker.distribution.manifest.v2+json');
  });

  it('accepts an image index whose manifests exist (pushed by digest, untagged) and refuses one that references an unknown manifest', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const manifest = fs.readFileSync(path.join(layout.dir, 'blobs', 'sha256', layout.manifestDigest.slice(7)));
    const byDigest = await s.request(`v2/${alice.username}/multi/manifests/${layout.manifestDigest}`, {
      method: 'PUT', headers: { ...auth, 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }, body: manifest,
    });
    // The blobs are the owner's (another image): the manifest needs them in this image.
    expect(byDigest.status).toBe(404);
    const copy = await skopeo('copy', `oci:${layout.dir}:v1`, `${ref(`${alice.username}/multi`)}:base`, '--dest-tls-verify=false', '--dest-creds', `${alice.username}:${aliceToken}`);
    expect(copy.code, copy.stderr).toBe(0);
    const index = (digest: string) => JSON.stringify({
      schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest, size: manifest.length, platform: { os: 'linux', architecture: 'amd64' } }],
    });
    const headers = { ...auth, 'Content-Type': 'application/vnd.oci.image.index.v1+json' };
    const put = await s.request(`v2/${alice.username}/multi/manifests/latest`, { method: 'PUT', headers, body: index(layout.manifestDigest) });
    expect(put.status).toBe(201);
    const body = index(layout.manifestDigest);
    expect(put.headers.get('docker-content-digest')).toBe(`sha256:${sha256(body)}`);
    const get = await s.request(`v2/${alice.username}/multi/manifests/latest`, { headers: auth });
    expect(get.headers.get('content-type')).toBe('application/vnd.oci.image.index.v1+json');
    expect(await get.text()).toBe(body);
    const unknown = await s.request(`v2/${alice.username}/multi/manifests/bad`, { method: 'PUT', headers, body: index(`sha256:${'3'.repeat(64)}`) });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).errors[0].code).toBe('MANIFEST_BLOB_UNKNOWN');
  });

  it('pages the tag list with n and last and a Link header', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const page = await s.request(`v2/${alice.username}/hello/tags/list?n=1`, { headers: auth });
    expect(await json(page)).toEqual({ name: `${alice.username}/hello`, tags: ['v1'] });
    expect(page.headers.get('link')).toBe(`</v2/${alice.username}/hello/tags/list?n=1&last=v1>; rel="next"`);
    const next = await s.request(`v2/${alice.username}/hello/tags/list?n=1&last=v1`, { headers: auth });
    expect((await json(next)).tags).toEqual(['v2']);
  });

  it('lets anonymous callers pull a public owner\'s image with the anonymous token', async () => {
    const dest = path.join(tmp, 'anon');
    const pull = await skopeo('copy', `${ref(`${alice.username}/hello`)}:v1`, `oci:${dest}:v1`, '--src-tls-verify=false', '--src-no-creds');
    expect(pull.code, pull.stderr).toBe(0);
    const catalog = await s.request('v2/_catalog', { headers: { Authorization: `Bearer ${await registryToken()}` } });
    expect((await json(catalog)).repositories).toEqual([`${alice.username}/dockerish`, `${alice.username}/hello`, `${alice.username}/multi`, `${alice.username}/other`]);
  });

  it('refuses anonymous pulls of a private owner\'s image and anonymous pushes (401 with the challenge)', async () => {
    const push = await skopeo('copy', `oci:${layout.dir}:v1`, `${ref(`${hidden.username}/secret`)}:v1`, '--dest-tls-verify=false', '--dest-creds', `${hidden.username}:${hiddenToken}`);
    expect(push.code, push.stderr).toBe(0);
    const pull = await skopeo('inspect', '--tls-verify=false', '--no-creds', `${ref(`${hidden.username}/secret`)}:v1`);
    expect(pull.code).not.toBe(0);
    const anon = await registryToken();
    const res = await s.request(`v2/${hidden.username}/secret/manifests/v1`, { headers: { Authorization: `Bearer ${anon}` } });
    expect(res.status).toBe(401);
    const anonPush = await skopeo('copy', `oci:${layout.dir}:v1`, `${ref(`${alice.username}/anon`)}:v1`, '--dest-tls-verify=false', '--dest-no-creds');
    expect(anonPush.code).not.toBe(0);
    const post = await s.request(`v2/${alice.username}/anon/blobs/uploads/`, { method: 'POST' });
    expect(post.status).toBe(401);
    expect(post.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*v2\/token",service="container_registry",scope="\*"$/);
    const ghostPush = await s.request(`v2/${alice.username}/anon/blobs/uploads/`, { method: 'POST', headers: { Authorization: `Bearer ${anon}` } });
    expect(ghostPush.status).toBe(401);
  });

  it('answers 400 DIGEST_INVALID to a monolithic upload whose bytes do not match, leaving no row', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const body = Buffer.from('not what the digest says');
    const res = await s.request(`v2/${alice.username}/hello/blobs/uploads/?digest=sha256:${'0'.repeat(64)}`, { method: 'POST', headers: auth, body });
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].code).toBe('DIGEST_INVALID');
    expect(await s.hearth.db.selectFrom('package_blob').select('id').where('hash_sha256', '=', sha256(body)).execute()).toEqual([]);
  });

  it('uploads in chunks, answers 416 to a wrong Content-Range and 400 to a wrong final digest', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const start = await s.request(`v2/${alice.username}/hello/blobs/uploads/`, { method: 'POST', headers: auth });
    expect(start.status).toBe(202);
    const location = start.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/v2/${alice.username}/hello/blobs/uploads/`));
    const url = location.slice(1);
    const one = await s.request(url, { method: 'PATCH', headers: { ...auth, 'Content-Range': '0-4' }, body: 'hello' });
    expect(one.status).toBe(202);
    expect(one.headers.get('range')).toBe('0-4');
    const wrong = await s.request(url, { method: 'PATCH', headers: { ...auth, 'Content-Range': '2-6' }, body: 'world' });
    expect(wrong.status).toBe(416);
    const bad = await s.request(`${url}?digest=sha256:${'1'.repeat(64)}`, { method: 'PUT', headers: auth });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors[0].code).toBe('DIGEST_INVALID');
    const digest = `sha256:${sha256('hello world')}`;
    const done = await s.request(`${url}?digest=${digest}`, { method: 'PUT', headers: auth, body: ' world' });
    expect(done.status).toBe(201);
    expect(done.headers.get('docker-content-digest')).toBe(digest);
    const blob = await s.request(`v2/${alice.username}/hello/blobs/${digest}`, { headers: auth });
    expect(await blob.text()).toBe('hello world');
    expect((await s.request(`v2/${alice.username}/hello/blobs/${digest}`, { method: 'DELETE', headers: auth })).status).toBe(202);
    expect((await s.request(`v2/${alice.username}/hello/blobs/${digest}`, { method: 'HEAD', headers: auth })).status).toBe(404);
  });

  it('refuses a manifest that references a missing blob (MANIFEST_BLOB_UNKNOWN, as Gitea)', async () => {
    const auth = { Authorization: `Bearer ${await registryToken([alice.username, aliceToken])}` };
    const manifest = JSON.stringify({
      schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${'2'.repeat(64)}`, size: 2 }, layers: [],
    });
    const res = await s.request(`v2/${alice.username}/hello/manifests/broken`, {
      method: 'PUT', headers: { ...auth, 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' }, body: manifest,
    });
    expect(res.status).toBe(404);
    expect((await json(res)).errors[0].code).toBe('MANIFEST_BLOB_UNKNOWN');
    const invalid = await s.request(`v2/${alice.username}/hello/manifests/broken`, { method: 'PUT', headers: auth, body: '{' });
    expect(invalid.status).toBe(400);
    expect((await json(invalid)).errors[0].code).toBe('MANIFEST_INVALID');
    expect((await s.request(`v2/${alice.username}/hello/manifests/broken`, { headers: auth })).status).toBe(404);
  });

  it('moves an existing tag to a newly pushed manifest', async () => {
    const second = writeLayout(path.join(tmp, 'src2'), 'another image\n');
    const creds = `${alice.username}:${aliceToken}`;
    const push = await skopeo('copy', `oci:${second.dir}:v1`, `${ref(`${alice.username}/other`)}:v1`, '--dest-tls-verify=false', '--dest-creds', creds);
    expect(push.code, push.stderr).toBe(0);
    const inspect = await skopeo('inspect', '--tls-verify=false', '--creds', creds, `${ref(`${alice.username}/other`)}:v1`);
    expect(JSON.parse(inspect.stdout).Digest).toBe(second.manifestDigest);
    const versions = await s.hearth.db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
      .select('v.version').where('p.name', '=', 'other').where('v.is_internal', '=', 0).execute();
    expect(versions.map((v) => v.version)).toEqual(['v1']);
  });

  it('deletes with skopeo delete (every tag of that manifest digest, as Gitea)', async () => {
    const del = await skopeo('delete', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`, `${ref(`${alice.username}/hello`)}:v1`);
    expect(del.code, del.stderr).toBe(0);
    const inspect = await skopeo('inspect', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`, `${ref(`${alice.username}/hello`)}:v1`);
    expect(inspect.code).not.toBe(0);
    const tags = await skopeo('list-tags', '--tls-verify=false', '--creds', `${alice.username}:${aliceToken}`, ref(`${alice.username}/hello`));
    expect(JSON.parse(tags.stdout).Tags).toEqual([]);
  });
});
