import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';

// Gitea's npm registry at /api/packages/{owner}/npm, driven by the real npm CLI (/usr/bin/npm)
// where a client is involved; hand-made publish documents (fetch) for what npm never sends.

const run = promisify(execFile);
const NPM_TIMEOUT = 60_000;

let s: TestServer;
let tmp: string;
let alice: { username: string; password: string; id: number };
let token: string;
let base: string;

const registry = (owner: string) => `${s.hearth.config.server.root_url}api/packages/${owner}/npm/`;

/** A temp .npmrc: registry (and @scope:registry) at the owner's npm registry, with a token or none. */
function npmrc(owner: string, authToken: string | null): string {
  const reg = registry(owner);
  const hostPath = reg.replace(/^https?:/, '');
  const lines = [`registry=${reg}`, `@scope:registry=${reg}`];
  if (authToken) lines.push(`${hostPath}:_authToken=${authToken}`);
  const file = path.join(tmp, `npmrc-${crypto.randomUUID()}`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

type NpmResult = { ok: boolean; stdout: string; stderr: string };
/** Runs npm with its own userconfig and cache, never the user's ~/.npmrc or cache. */
async function npm(args: string[], o: { cwd?: string; rc: string; owner?: string }): Promise<NpmResult> {
  const env = {
    ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error', npm_config_nodedir: undefined, HOME: tmp,
  };
  const full = [...args, '--registry', registry(o.owner ?? alice.username), '--userconfig', o.rc, '--cache', path.join(tmp, 'cache')];
  try {
    const { stdout, stderr } = await run('/usr/bin/npm', full, { cwd: o.cwd ?? tmp, env, timeout: NPM_TIMEOUT });
    return { ok: true, stdout, stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A package directory with package.json and index.js. */
function makePackage(name: string, version: string, body: string): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'pkg-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version, description: `the ${name} package`, main: 'index.js', license: 'MIT' }));
  fs.writeFileSync(path.join(dir, 'index.js'), body);
  return dir;
}

/** A publish document as npm sends it, for arbitrary tarball bytes (integrity may be overridden). */
function publishDocument(name: string, version: string, data: Buffer, integrity?: string) {
  const sha512 = `sha512-${crypto.createHash('sha512').update(data).digest('base64')}`;
  const shasum = crypto.createHash('sha1').update(data).digest('hex');
  const file = `${name}-${version}.tgz`;
  return {
    _id: name, name, 'dist-tags': { latest: version },
    versions: { [version]: { name, version, description: 'hand made', dist: { integrity: integrity ?? sha512, shasum, tarball: `http://x/${file}` } } },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  };
}

const putDocument = (owner: string, name: string, doc: unknown, authToken: string) =>
  s.request(`api/packages/${owner}/npm/${name.replace('/', '%2f')}`, { method: 'PUT', json: doc, auth: { token: authToken, as: 'bearer' } });

beforeAll(async () => {
  s = await startTestServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-npm-'));
  alice = await createUser(s, 'npm-alice');
  token = await createToken(s, alice, ['write:package']);
  base = npmrc(alice.username, token);
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm registry with the npm CLI', () => {
  it('publishes a package and a scoped package; publishing a version again fails (409)', async () => {
    const a = makePackage('hearth-npm-a', '1.0.0', 'module.exports = "a-1.0.0";\n');
    expect((await npm(['publish'], { cwd: a, rc: base })).ok).toBe(true);
    const lib = makePackage('@scope/lib', '1.0.0', 'module.exports = "lib";\n');
    const scoped = await npm(['publish'], { cwd: lib, rc: base });
    expect(scoped.stderr).not.toMatch(/ERR/);
    expect(scoped.ok).toBe(true);
    const again = await npm(['publish'], { cwd: a, rc: base });
    // npm refuses by itself after reading the package document; the registry answers 409.
    expect(again.ok).toBe(false);
    expect(again.stderr).toMatch(/cannot publish over the previously published versions/);
    const dup = await putDocument(alice.username, 'hearth-npm-a', publishDocument('hearth-npm-a', '1.0.0', Buffer.from('dup')), token);
    expect(dup.status).toBe(409);
    expect(await json(dup)).toEqual({ error: 'package version already exists' });
  });

  it('serves the package document: dist-tags, versions with tarball, integrity and shasum, time', async () => {
    const res = await s.request(`api/packages/${alice.username}/npm/@scope%2flib`);
    expect(res.status).toBe(200);
    const doc = await json(res);
    expect(doc).toMatchObject({ _id: '@scope/lib', name: '@scope/lib', 'dist-tags': { latest: '1.0.0' }, description: 'the @scope/lib package' });
    const v = doc.versions['1.0.0'];
    expect(v.dist.tarball).toBe(`${registry(alice.username)}%40scope%2Flib/-/1.0.0/lib-1.0.0.tgz`);
    const tgz = Buffer.from(await (await fetch(v.dist.tarball)).arrayBuffer());
    expect(v.dist.integrity).toBe(`sha512-${crypto.createHash('sha512').update(tgz).digest('base64')}`);
    expect(v.dist.shasum).toBe(crypto.createHash('sha1').update(tgz).digest('hex'));
    expect(Object.keys(doc.time)).toEqual(expect.arrayContaining(['1.0.0', 'created', 'modified']));
    const byName = await s.request(`api/packages/${alice.username}/npm/@scope/lib/-/lib-1.0.0.tgz`);
    expect(Buffer.from(await byName.arrayBuffer())).toEqual(tgz);
  });

  it('npm view reads the package; dist-tag add, ls and rm move tags', async () => {
    const view = await npm(['view', 'hearth-npm-a', '--json'], { rc: base });
    expect(JSON.parse(view.stdout)).toMatchObject({ name: 'hearth-npm-a', version: '1.0.0', description: 'the hearth-npm-a package' });
    expect((await npm(['dist-tag', 'add', 'hearth-npm-a@1.0.0', 'beta'], { rc: base })).ok).toBe(true);
    const ls = await npm(['dist-tag', 'ls', 'hearth-npm-a'], { rc: base });
    expect(ls.stdout).toMatch(/beta: 1\.0\.0/);
    expect(ls.stdout).toMatch(/latest: 1\.0\.0/);
    expect((await npm(['dist-tag', 'rm', 'hearth-npm-a', 'beta'], { rc: base })).ok).toBe(true);
    const tags = await json(await s.request(`api/packages/${alice.username}/npm/-/package/hearth-npm-a/dist-tags`));
    expect(tags).toEqual({ latest: '1.0.0' });
  });

  it('npm install puts the packages in node_modules and npm ci installs from the lockfile', async () => {
    const app = fs.mkdtempSync(path.join(tmp, 'app-'));
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    const install = await npm(['install', 'hearth-npm-a@1.0.0', '@scope/lib'], { cwd: app, rc: base });
    expect(install.stderr).not.toMatch(/ERR/);
    expect(fs.readFileSync(path.join(app, 'node_modules/hearth-npm-a/index.js'), 'utf8')).toBe('module.exports = "a-1.0.0";\n');
    expect(fs.readFileSync(path.join(app, 'node_modules/@scope/lib/index.js'), 'utf8')).toBe('module.exports = "lib";\n');
    fs.rmSync(path.join(app, 'node_modules'), { recursive: true });
    expect((await npm(['ci'], { cwd: app, rc: base })).ok).toBe(true);
    expect(fs.existsSync(path.join(app, 'node_modules/@scope/lib/package.json'))).toBe(true);
  });

  it('refuses a publish document whose integrity does not match with 400 and keeps nothing', async () => {
    const data = crypto.randomBytes(64);
    const wrong = `sha512-${crypto.createHash('sha512').update('other').digest('base64')}`;
    const res = await putDocument(alice.username, 'hearth-npm-bad', publishDocument('hearth-npm-bad', '1.0.0', data, wrong), token);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error: 'failed to validate integrity' });
    expect((await s.request(`api/packages/${alice.username}/npm/hearth-npm-bad`)).status).toBe(404);
  });

  it('npm unpublish removes one version, then --force the whole package', async () => {
    const doc = publishDocument('hearth-npm-a', '1.1.0', crypto.randomBytes(32));
    expect((await putDocument(alice.username, 'hearth-npm-a', doc, token)).status).toBe(201);
    expect((await npm(['unpublish', 'hearth-npm-a@1.0.0'], { rc: base })).ok).toBe(true);
    const left = await json(await s.request(`api/packages/${alice.username}/npm/hearth-npm-a`));
    expect(Object.keys(left.versions)).toEqual(['1.1.0']);
    expect(left['dist-tags'].latest).toBe('1.1.0');
    expect((await npm(['unpublish', '@scope/lib', '--force'], { rc: base })).ok).toBe(true);
    expect((await s.request(`api/packages/${alice.username}/npm/@scope%2flib`)).status).toBe(404);
  });

  it('keeps peerDependenciesMeta in the package document, as Gitea', async () => {
    const doc = publishDocument('hearth-npm-peer', '1.0.0', crypto.randomBytes(16));
    Object.assign(doc.versions['1.0.0']!, { peerDependencies: { react: '>=18' }, peerDependenciesMeta: { react: { optional: true } } });
    expect((await putDocument(alice.username, 'hearth-npm-peer', doc, token)).status).toBe(201);
    const read = await json(await s.request(`api/packages/${alice.username}/npm/hearth-npm-peer`));
    expect(read.versions['1.0.0']).toMatchObject({ peerDependencies: { react: '>=18' }, peerDependenciesMeta: { react: { optional: true } } });
  });

  it('searches by name text', async () => {
    const res = await json(await s.request(`api/packages/${alice.username}/npm/-/v1/search?text=npm-a&size=5`));
    expect(res.total).toBe(1);
    expect(res.objects[0].package).toMatchObject({ name: 'hearth-npm-a', version: '1.1.0', scope: 'unscoped' });
  });
});

describe('npm registry access', () => {
  it('refuses anonymous npm view of a private owner\'s package (401)', async () => {
    const hidden = await createUser(s, 'npm-hidden', { visibility: 'private' });
    const hiddenToken = await createToken(s, hidden, ['write:package']);
    expect((await putDocument(hidden.username, 'secret-pkg', publishDocument('secret-pkg', '1.0.0', Buffer.from('x')), hiddenToken)).status).toBe(201);
    const anon = await npm(['view', 'secret-pkg', '--json'], { rc: npmrc(hidden.username, null), owner: hidden.username });
    expect(anon.ok).toBe(false);
    expect(anon.stdout + anon.stderr).toMatch(/E401|401/);
    const res = await s.request(`api/packages/${hidden.username}/npm/secret-pkg`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/Basic realm/);
  });

  it('a token without write:package cannot publish', async () => {
    const readOnly = await createToken(s, alice, ['read:package']);
    const dir = makePackage('hearth-npm-ro', '1.0.0', 'module.exports = 1;\n');
    const res = await npm(['publish'], { cwd: dir, rc: npmrc(alice.username, readOnly) });
    expect(res.ok).toBe(false);
    expect(res.stderr).toMatch(/401/);
    expect((await s.request(`api/packages/${alice.username}/npm/hearth-npm-ro`)).status).toBe(404);
  });
});
