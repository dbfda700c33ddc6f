/* eslint-disable @typescript-eslint/no-explicit-any */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Conan registry over HTTP, the calls conan 1.x (v1) and 2.x (v2) make: conan itself
// comes from PyPI, which cannot be reached here, so its documented protocol is driven by fetch.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
const base = (owner: string) => `api/packages/${owner}/conan`;
const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');
const CONANFILE = Buffer.from('from conan import ConanFile\n\nclass Tiny(ConanFile):\n    name = "tiny"\n    license = "MIT"\n    author = "Alice"\n    homepage = "https://example.com/"\n    description = "A tiny recipe"\n    topics = ("tiny", "test")\n');
const MANIFEST = Buffer.from('1700000000\nconanfile.py: 0123456789abcdef\n');
const CONANINFO = Buffer.from('[settings]\n    arch=x86_64\n    os=Linux\n[options]\n    shared=False\n[requires]\n    zlib/1.2.13\n');
const PACKAGE = Buffer.from('pretend this is a tgz');

const put = (path: string, body: Buffer, auth: Auth) => s.request(path, { method: 'PUT', body: body as unknown as Blob, auth });

/** conan's `remote login`: Basic credentials to users/authenticate, a bearer token back. */
async function login(v: 'v1' | 'v2', user: string, secret: string): Promise<string> {
  const res = await s.request(`${base(alice.username)}/${v}/users/authenticate`, { auth: { basic: [user, secret] } });
  expect(res.status).toBe(200);
  return res.text();
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'conan-alice');
  token = await createToken(s, alice, ['write:package']);
});
afterAll(async () => { await s.stop(); });

describe('conan registry (HTTP: conan comes from PyPI, unreachable here)', () => {
  it('v2: ping, login, upload a recipe and a package revision, then resolve and download them', async () => {
    const ping = await s.request(`${base(alice.username)}/v2/ping`);
    expect(ping.headers.get('x-conan-server-capabilities')).toContain('revisions');
    const bearer = await login('v2', alice.username, alice.password);
    const auth: Auth = { token: bearer, as: 'bearer' };
    expect((await s.request(`${base(alice.username)}/v2/users/check_credentials`, { auth })).status).toBe(200);
    const ref = `${base(alice.username)}/v2/conans/tiny/1.0/alice/stable`;
    expect((await put(`${ref}/revisions/rrev1/files/conanfile.py`, CONANFILE, auth)).status).toBe(201);
    expect((await put(`${ref}/revisions/rrev1/files/conanmanifest.txt`, MANIFEST, auth)).status).toBe(201);
    const pkg = `${ref}/revisions/rrev1/packages/pref1/revisions/prev1/files`;
    for (const [name, data] of [['conaninfo.txt', CONANINFO], ['conanmanifest.txt', MANIFEST], ['conan_package.tgz', PACKAGE]] as const) {
      expect((await put(`${pkg}/${name}`, data, auth)).status).toBe(201);
    }
    expect(await (await s.request(`${ref}/latest`)).json()).toMatchObject({ revision: 'rrev1' });
    expect(await (await s.request(`${ref}/revisions/rrev1/files`)).json()).toEqual({ files: { 'conanfile.py': {}, 'conanmanifest.txt': {} } });
    expect(Buffer.from(await (await s.request(`${ref}/revisions/rrev1/files/conanfile.py`)).arrayBuffer())).toEqual(CONANFILE);
    expect(await (await s.request(`${ref}/revisions/rrev1/packages/pref1/latest`)).json()).toMatchObject({ revision: 'prev1' });
    expect(Buffer.from(await (await s.request(`${pkg}/conan_package.tgz`)).arrayBuffer())).toEqual(PACKAGE);
    const found = await (await s.request(`${ref}/search`)).json() as any;
    expect(found.pref1).toMatchObject({ settings: { arch: 'x86_64', os: 'Linux' }, options: { shared: 'False' }, requires: ['zlib/1.2.13'] });
    expect(await (await s.request(`${base(alice.username)}/v2/conans/search?q=ti*`)).json()).toEqual({ results: ['tiny/1.0@alice/stable'] });
    const api = await (await s.request(`api/v1/packages/${alice.username}/conan/tiny/1.0`, { auth: as(alice) })).json();
    expect(api).toMatchObject({ type: 'conan', name: 'tiny', version: '1.0' });
  });

  it('v2: a second recipe revision comes first in the list; deleting it leaves the first', async () => {
    const auth: Auth = { token };
    const ref = `${base(alice.username)}/v2/conans/revs/2.0/_/_`;
    expect((await put(`${ref}/revisions/aaa/files/conanfile.py`, CONANFILE, auth)).status).toBe(201);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await put(`${ref}/revisions/bbb/files/conanfile.py`, CONANFILE, auth)).status).toBe(201);
    const list = await (await s.request(`${ref}/revisions`)).json() as any;
    expect(list.reference).toBe('revs/2.0');
    expect(list.revisions.map((r: any) => r.revision)).toEqual(['bbb', 'aaa']);
    expect((await s.request(`${ref}/revisions/bbb`, { method: 'DELETE', auth })).status).toBe(200);
    expect(await (await s.request(`${ref}/latest`)).json()).toMatchObject({ revision: 'aaa' });
  });

  it('v1: upload URLs, then the snapshot, download URLs and bytes; the same file again is 409', async () => {
    const auth: Auth = { token };
    const ref = `${base(alice.username)}/v1/conans/old/1.0/alice/testing`;
    const urls = await (await s.request(`${ref}/upload_urls`, { method: 'POST', auth, json: { 'conanfile.py': CONANFILE.length, 'conanmanifest.txt': MANIFEST.length } })).json() as any;
    expect(Object.keys(urls).sort()).toEqual(['conanfile.py', 'conanmanifest.txt']);
    expect((await s.request(urls['conanfile.py'], { method: 'PUT', body: CONANFILE as unknown as Blob, auth })).status).toBe(201);
    expect((await s.request(urls['conanmanifest.txt'], { method: 'PUT', body: MANIFEST as unknown as Blob, auth })).status).toBe(201);
    expect((await s.request(urls['conanfile.py'], { method: 'PUT', body: CONANFILE as unknown as Blob, auth })).status).toBe(409);
    expect(await (await s.request(ref)).json()).toEqual({ 'conanfile.py': md5(CONANFILE), 'conanmanifest.txt': md5(MANIFEST) });
    const down = await (await s.request(`${ref}/download_urls`)).json() as any;
    expect(Buffer.from(await (await fetch(down['conanfile.py'])).arrayBuffer())).toEqual(CONANFILE);
    const digest = await (await s.request(`${ref}/digest`)).json() as any;
    expect(Object.keys(digest)).toEqual(['conanmanifest.txt']);
    expect((await s.request(ref, { method: 'DELETE', auth })).status).toBe(200);
    expect((await s.request(ref)).status).toBe(404);
  });

  it('a read:package login cannot upload; a file conan does not know is 400; a private organization is hidden', async () => {
    const reader = await createToken(s, alice, ['read:package']);
    const bearer = await login('v2', alice.username, reader);
    const ref = `${base(alice.username)}/v2/conans/ro/1.0/_/_/revisions/r1/files`;
    expect((await put(`${ref}/conanfile.py`, CONANFILE, { token: bearer, as: 'bearer' })).status).toBe(401);
    expect((await put(`${ref}/evil.sh`, CONANFILE, { token })).status).toBe(400);
    expect((await s.request(`${base(alice.username)}/v2/users/check_credentials`, { auth: { token: 'hpkg_forged.sig', as: 'bearer' } })).status).toBe(401);
    await createOrg(s, alice, 'conan-secret', { visibility: 'private' });
    expect((await put(`${base('conan-secret')}/v2/conans/hid/1.0/_/_/revisions/r1/files/conanfile.py`, CONANFILE, { token })).status).toBe(201);
    expect((await s.request(`${base('conan-secret')}/v2/conans/hid/1.0/_/_/latest`)).status).toBe(401);
    expect((await s.request(`${base('conan-secret')}/v2/conans/hid/1.0/_/_/latest`, { auth: as(alice) })).status).toBe(200);
  });
});
