import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { blobFileCount, makeZip, requireClient, runClient, versionsOf, writeTree } from '../helpers/package-clients';
import { as, createToken, createUser, ok, startTestServer, type Auth, type TestServer } from '../helpers/server';

// Gitea's Composer registry: zips uploaded over HTTP (as Gitea's documentation does with curl),
// installed by the real composer from the p2 metadata.

const COMPOSER = requireClient('composer', 'packages-composer');
const PHP = requireClient('php', 'packages-composer');
let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
let writeToken: string;
let readToken: string;
let work: string;
const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('hex');

const packageZip = (name: string, extra: Record<string, unknown> = {}, files: Record<string, string> = {}) => makeZip({
  'composer.json': JSON.stringify({
    name, description: 'A Composer package', type: 'library', license: 'MIT', authors: [{ name: 'Alice' }],
    autoload: { 'psr-4': { 'Hearth\\Demo\\': 'src/' } }, ...extra,
  }),
  'src/Greeter.php': '<?php\nnamespace Hearth\\Demo;\nclass Greeter { public static function hi(): string { return "hi from hearth"; } }\n',
  ...files,
});
const put = (owner: string, body: Buffer, auth: Auth, version?: string) =>
  s.request(`api/packages/${owner}/composer${version ? `?version=${version}` : ''}`, { method: 'PUT', body, auth });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'composer-alice');
  bob = await createUser(s, 'composer-bob');
  writeToken = await createToken(s, alice, ['write:package']);
  readToken = await createToken(s, alice, ['read:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-composer-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('composer registry with the real composer', () => {
  it.skipIf(!COMPOSER || !PHP)('composer require installs an uploaded package from the repository', async () => {
    const zip = packageZip('hearth/demo');
    expect((await put(alice.username, zip, { token: writeToken }, '1.0.3')).status).toBe(201);
    const home = fs.mkdtempSync(path.join(work, 'home-'));
    const app = fs.mkdtempSync(path.join(work, 'app-'));
    const root = new URL(s.hearth.config.server.root_url);
    writeTree(app, {
      'composer.json': JSON.stringify({
        name: 'test/app', config: { 'secure-http': false },
        repositories: [{ type: 'composer', url: `${root.origin}/api/packages/${alice.username}/composer` }, { 'packagist.org': false }],
      }),
    });
    const env = {
      HOME: home, COMPOSER_HOME: path.join(home, 'composer'), COMPOSER_CACHE_DIR: path.join(home, 'cache'), COMPOSER_NO_INTERACTION: '1',
      COMPOSER_AUTH: JSON.stringify({ 'http-basic': { [root.host]: { username: alice.username, password: readToken } } }),
    };
    const r = await runClient(COMPOSER!, ['require', '--no-progress', 'hearth/demo:1.0.3'], { cwd: app, env });
    expect(r.code, r.out).toBe(0);
    expect(fs.readFileSync(path.join(app, 'vendor/hearth/demo/src/Greeter.php'), 'utf8')).toContain('hi from hearth');
    const lock = JSON.parse(fs.readFileSync(path.join(app, 'composer.lock'), 'utf8')) as { packages: { name: string; version: string; dist: { shasum: string } }[] };
    expect(lock.packages).toMatchObject([{ name: 'hearth/demo', version: '1.0.3', dist: { shasum: sha1(zip) } }]);
    const php = await runClient(PHP!, ['-r', 'require "vendor/autoload.php"; echo Hearth\\Demo\\Greeter::hi();'], { cwd: app, env });
    expect(php.out).toBe('hi from hearth');
  });
});

describe('composer registry over HTTP', () => {
  it('packages.json points at the p2, search and list documents', async () => {
    const base = `${s.hearth.config.server.root_url}api/packages/${alice.username}/composer`;
    expect(await ok(await s.request(`api/packages/${alice.username}/composer/packages.json`))).toEqual({
      search: `${base}/search.json?q=%query%&type=%type%`, 'metadata-url': `${base}/p2/%package%.json`, list: `${base}/list.json`,
    });
  });

  it('the p2 document lists the versions with dist, metadata, and the linked repository as source for readers', async () => {
    const v1 = packageZip('hearth/meta', { type: 'composer-plugin', bin: ['bin/run'], homepage: 'https://example.com' }, { 'README.md': '# Meta' });
    const v2 = packageZip('hearth/meta', { version: '2.0.0', type: 'composer-plugin' });
    expect((await put(alice.username, v1, as(alice), '1.0.0')).status).toBe(201);
    expect((await put(alice.username, v2, as(alice))).status).toBe(201);
    const doc = await ok(await s.request(`api/packages/${alice.username}/composer/p2/hearth/meta.json`));
    expect(doc.minified).toBe('composer/2.0');
    const [newest, older] = doc.packages['hearth/meta'];
    expect(newest).toMatchObject({
      name: 'hearth/meta', version: '2.0.0', type: 'composer-plugin', description: 'A Composer package', license: ['MIT'],
      authors: [{ name: 'Alice' }], source: { url: '', type: '', reference: '' },
      dist: { type: 'zip', shasum: sha1(v2), url: `${s.hearth.config.server.root_url}api/packages/${alice.username}/composer/files/hearth%2Fmeta/2.0.0/hearth-meta.2.0.0.zip` },
    });
    // Minified: the older entry lists what differs, and unsets what it lacks.
    expect(older).toMatchObject({ version: '1.0.0', bin: ['bin/run'], homepage: 'https://example.com', readme: '# Meta', dist: { shasum: sha1(v1) } });
    expect(older.name).toBeUndefined();
    const dl = await s.request(newest.dist.url.replace(s.hearth.config.server.root_url, ''));
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(v2);

    await createRepo(s, alice, 'meta-src', { private: true });
    expect((await s.request(`api/v1/packages/${alice.username}/composer/hearth%2Fmeta/-/link/meta-src`, { method: 'POST', auth: as(alice) })).status).toBe(201);
    const linked = await ok(await s.request(`api/packages/${alice.username}/composer/p2/hearth/meta.json`, { auth: as(alice) }));
    expect(linked.packages['hearth/meta'][0].source).toEqual({ url: `${s.hearth.config.server.root_url}${alice.username}/meta-src`, type: 'git', reference: '2.0.0' });
    const other = await ok(await s.request(`api/packages/${alice.username}/composer/p2/hearth/meta.json`, { auth: as(bob) }));
    expect(other.packages['hearth/meta'][0].source).toEqual({ url: '', type: '', reference: '' });
  });

  it('search.json and list.json (Gitea\'s cases)', async () => {
    expect((await put(alice.username, packageZip('gitea/composer-package', { type: 'composer-plugin' }), as(alice), '1.0.3')).status).toBe(201);
    const cases: [string, string, number, number, number, number][] = [
      ['composer-package', '', 0, 0, 1, 1], ['composer-package', '', 1, 1, 1, 1], ['test-none', '', 1, 0, 0, 0],
      ['gitea', '', 2, 1, 1, 0], ['gitea', 'composer-plugin', 1, 1, 1, 1], ['gitea', 'dummy', 1, 1, 0, 0],
    ];
    for (const [q, type, page, perPage, total, count] of cases) {
      const r = await ok(await s.request(`api/packages/${alice.username}/composer/search.json?q=${q}&type=${type}&page=${page}&per_page=${perPage}`));
      expect([r.total, r.results.length], `${q} ${type} ${page} ${perPage}`).toEqual([total, count]);
    }
    const list = await ok(await s.request(`api/packages/${alice.username}/composer/list.json`));
    expect(list.packageNames).toContain('gitea/composer-package');
  });

  it('refusals: a missing version 400, a re-upload 409, no composer.json 400, a read:package token 401 — nothing left behind', async () => {
    const zip = packageZip('hearth/refused');
    const blobs = blobFileCount(s);
    expect((await put(alice.username, zip, as(alice))).status).toBe(400);
    expect((await put(alice.username, makeZip({ 'x.txt': 'x' }), as(alice), '1.0.0')).status).toBe(400);
    const bad = await put(alice.username, packageZip('Not A Name'), as(alice), '1.0.0');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ errors: [{ status: 400, message: 'package name is invalid' }] });
    expect((await put(alice.username, zip, { token: readToken }, '1.0.0')).status).toBe(401);
    expect(blobFileCount(s)).toBe(blobs);
    expect((await put(alice.username, zip, as(alice), '1.0.0')).status).toBe(201);
    expect((await put(alice.username, zip, as(alice), '1.0.0')).status).toBe(409);
    expect((await versionsOf(s, alice.id, 'composer')).filter((v) => v.startsWith('hearth/refused'))).toEqual(['hearth/refused@1.0.0']);
  });

  it('a private organization\'s packages are 401 to anonymous callers', async () => {
    await createOrg(s, alice, 'composer-private', { visibility: 'private' });
    expect((await put('composer-private', packageZip('secret/pkg'), as(alice), '1.0.0')).status).toBe(201);
    expect((await s.request('api/packages/composer-private/composer/p2/secret/pkg.json')).status).toBe(401);
    expect((await s.request('api/packages/composer-private/composer/p2/secret/pkg.json', { auth: as(alice) })).status).toBe(200);
  });
});
