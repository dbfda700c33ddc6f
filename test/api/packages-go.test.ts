import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeZip, requireClient, runClient, versionsOf, writeTree } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Go registry: module zips uploaded over HTTP (as Gitea's documentation does with curl),
// then resolved and built by the real go command through GOPROXY, with no other network.

const GO = requireClient('go', 'packages-go');
let s: TestServer;
let alice: { username: string; password: string; id: number };
let writeToken: string;
let readToken: string;
let work: string;

const moduleZip = (mod: string, version: string, body: string) => makeZip({
  [`${mod}@${version}/go.mod`]: `module ${mod}\n\ngo 1.18\n`,
  [`${mod}@${version}/hello.go`]: `package hello\n\nfunc Greeting() string { return "${body}" }\n`,
  [`${mod}@${version}/sub/extra.go`]: 'package sub\n',
});
const upload = (owner: string, zip: Buffer, auth: Auth) => s.request(`api/packages/${owner}/go/upload`, { method: 'PUT', body: zip, auth });

/**
 * go with a temp HOME, GOPATH and caches, only hearth as its proxy, no checksum database. go
 * sends no credentials to an http:// proxy, so the owner here is public (access rules are
 * checked over HTTP below).
 */
function goEnv(owner: string): Record<string, string> {
  const home = fs.mkdtempSync(path.join(work, 'home-'));
  const root = new URL(s.hearth.config.server.root_url);
  return {
    HOME: home, GOPATH: path.join(home, 'go'), GOMODCACHE: path.join(home, 'go', 'pkg', 'mod'), GOCACHE: path.join(home, 'cache'),
    GOPROXY: `http://${root.host}/api/packages/${owner}/go`, GOFLAGS: '-mod=mod', GONOSUMDB: '*',
    GOSUMDB: 'off', GOTOOLCHAIN: 'local', GO111MODULE: 'on', CGO_ENABLED: '0',
  };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'go-alice');
  writeToken = await createToken(s, alice, ['write:package']);
  readToken = await createToken(s, alice, ['read:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-go-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('go registry with the real go command', () => {
  it.skipIf(!GO)('go get resolves an uploaded module, go mod download stores its bytes, go run builds against it', async () => {
    const v1 = moduleZip('example.com/hello', 'v1.0.0', 'hello one');
    const v2 = moduleZip('example.com/hello', 'v1.1.0', 'hello two');
    expect((await upload(alice.username, v1, { token: writeToken })).status).toBe(201);
    expect((await upload(alice.username, v2, { token: writeToken })).status).toBe(201);
    const env = goEnv(alice.username);
    const app = fs.mkdtempSync(path.join(work, 'app-'));
    writeTree(app, {
      'go.mod': 'module consumer\n\ngo 1.18\n',
      'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"example.com/hello"\n)\n\nfunc main() { fmt.Println(hello.Greeting()) }\n',
    });
    const versions = await runClient(GO!, ['list', '-m', '-versions', 'example.com/hello'], { cwd: app, env });
    expect(versions.out.trim()).toBe('example.com/hello v1.0.0 v1.1.0');
    const get = await runClient(GO!, ['get', 'example.com/hello@v1.0.0'], { cwd: app, env });
    expect(get.code, get.out).toBe(0);
    const run = await runClient(GO!, ['run', '.'], { cwd: app, env });
    expect(run.out.trim()).toBe('hello one');
    const dl = await runClient(GO!, ['mod', 'download', '-json', 'example.com/hello@v1.1.0'], { cwd: app, env });
    expect(dl.code, dl.out).toBe(0);
    const info = JSON.parse(dl.out) as { Zip: string; GoMod: string };
    expect(fs.readFileSync(info.Zip)).toEqual(v2);
    expect(fs.readFileSync(info.GoMod, 'utf8')).toBe('module example.com/hello\n\ngo 1.18\n');
    // @latest is the newest upload.
    const latest = await runClient(GO!, ['list', '-m', 'example.com/hello@latest'], { cwd: app, env });
    expect(latest.out.trim()).toBe('example.com/hello v1.1.0');
  });
});

describe('go registry over HTTP', () => {
  it('serves the GOPROXY documents', async () => {
    const zip = moduleZip('example.com/Upper/doc', 'v0.2.0', 'doc');
    expect((await upload(alice.username, zip, as(alice))).status).toBe(201);
    const root = `api/packages/${alice.username}/go/example.com/!upper/doc`;
    expect(await ok(await s.request(`${root}/@v/list`))).toBe('v0.2.0\n');
    const info = await ok(await s.request(`${root}/@v/v0.2.0.info`));
    expect(info.Version).toBe('v0.2.0');
    expect(Number.isNaN(Date.parse(info.Time))).toBe(false);
    expect(await ok(await s.request(`${root}/@latest`))).toEqual(info);
    expect(await ok(await s.request(`${root}/@v/v0.2.0.mod`))).toBe('module example.com/Upper/doc\n\ngo 1.18\n');
    const dl = await s.request(`${root}/@v/v0.2.0.zip`);
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(zip);
    expect((await s.request(`${root}/@v/v9.9.9.info`)).status).toBe(404);
    expect((await s.request(`api/packages/${alice.username}/go/example.com/none/@v/list`)).status).toBe(404);
  });

  it('a module without a go.mod gets "module <path>"; a multipart form\'s file is read too', async () => {
    const zip = makeZip({ 'example.com/nomod@v1.0.0/a.go': 'package a\n' });
    const form = new FormData();
    form.append('file', new Blob([zip]), 'nomod.zip');
    expect((await s.request(`api/packages/${alice.username}/go/upload`, { method: 'PUT', body: form, auth: as(alice) })).status).toBe(201);
    expect(await ok(await s.request(`api/packages/${alice.username}/go/example.com/nomod/@v/v1.0.0.mod`))).toBe('module example.com/nomod');
  });

  it('re-uploading a version is 409; no zip, a bad version or a read:package token are refused, leaving nothing', async () => {
    const zip = moduleZip('example.com/twice', 'v1.0.0', 'x');
    expect((await upload(alice.username, zip, { token: writeToken })).status).toBe(201);
    const blobs = blobFileCount(s);
    expect((await upload(alice.username, zip, { token: writeToken })).status).toBe(409);
    expect((await upload(alice.username, Buffer.from('not a zip'), { token: writeToken })).status).toBe(400);
    expect((await upload(alice.username, makeZip({ 'example.com/bad@1.0.0/a.go': 'package a\n' }), { token: writeToken })).status).toBe(400);
    expect((await upload(alice.username, moduleZip('example.com/ro', 'v1.0.0', 'x'), { token: readToken })).status).toBe(401);
    expect(await versionsOf(s, alice.id, 'go')).not.toContain('example.com/ro@v1.0.0');
    expect(blobFileCount(s)).toBe(blobs);
  });

  it('a private organization\'s modules are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'go-private', { visibility: 'private' });
    expect((await upload('go-private', moduleZip('example.com/secret', 'v1.0.0', 's'), as(alice))).status).toBe(201);
    expect((await s.request('api/packages/go-private/go/example.com/secret/@v/list')).status).toBe(401);
    expect((await s.request('api/packages/go-private/go/example.com/secret/@v/list', { auth: as(alice) })).status).toBe(200);
  });
});
