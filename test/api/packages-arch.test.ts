import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { client, hasCommand, putBody, run, waitForFile } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Arch registry driven by Debian's pacman (a temp root, database path, cache, config and
// keyring holding the owner's key): upload, the signed databases, package download.

const hasPacman = hasCommand('pacman') && hasCommand('gpg') && hasCommand('zstd');
if (!hasPacman) console.warn('packages-arch: pacman, gpg or zstd is missing, the pacman tests are skipped');

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/arch`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A package as makepkg lays it out (.PKGINFO first, then the files), zstd-compressed. */
async function buildPkg(name: string, version: string, arch = 'x86_64', compression = '--zstd'): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(work, 'pkg-'));
  fs.mkdirSync(path.join(dir, 'usr/share', name), { recursive: true });
  fs.writeFileSync(path.join(dir, 'usr/share', name, 'hello.txt'), `${name} ${version}\n`);
  fs.writeFileSync(path.join(dir, '.PKGINFO'), [
    `pkgname = ${name}`, `pkgbase = ${name}`, `pkgver = ${version}`, `pkgdesc = ${name} for the test`, 'url = https://example.com/',
    'builddate = 1700000000', 'packager = Alice <alice@example.com>', 'size = 1024', `arch = ${arch}`, 'license = MIT', 'depend = glibc', '',
  ].join('\n'));
  const out = path.join(dir, '..', `${name}-${version}-${arch}.pkg.tar`);
  await run('tar', [compression, '-cf', out, '-C', dir, '.PKGINFO', 'usr']);
  return fs.readFileSync(out);
}

async function pacman(owner: string, repository: string, args: string[]): Promise<{ code: number; out: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(work, 'pacman-'));
  for (const d of ['root', 'db', 'cache', 'gpg']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const key = Buffer.from(await (await s.request(`${base(owner)}/repository.key`)).arrayBuffer());
  fs.writeFileSync(path.join(dir, 'key.asc'), key);
  const gpg = ['--gpgdir', path.join(dir, 'gpg')];
  // Debian's pacman-key needs makepkg's shell libraries: gpg makes the keyring pacman reads.
  fs.chmodSync(path.join(dir, 'gpg'), 0o700);
  await run('gpg', ['--homedir', path.join(dir, 'gpg'), '--batch', '--no-default-keyring', '--keyring', path.join(dir, 'gpg', 'pubring.gpg'), '--import', path.join(dir, 'key.asc')]);
  const server = `${s.hearth.config.server.root_url}${base(owner)}${repository ? `/${repository}` : ''}/$arch`;
  fs.writeFileSync(path.join(dir, 'pacman.conf'), `[options]\nArchitecture = x86_64\nSigLevel = Required TrustAll\nLocalFileSigLevel = Never\n\n[hearth]\nSigLevel = DatabaseRequired PackageNever TrustAll\nServer = ${server}\n`);
  const r = await client('pacman', ['--config', path.join(dir, 'pacman.conf'), '--root', path.join(dir, 'root'), '--dbpath', path.join(dir, 'db'),
    '--cachedir', path.join(dir, 'cache'), ...gpg, '--noconfirm', '--disable-download-timeout', ...args]);
  return { ...r, dir };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'arch-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-arch-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('arch registry with pacman', () => {
  it.skipIf(!hasPacman)('pacman -Syw verifies the signed database and downloads the uploaded bytes', async () => {
    const pkg = await buildPkg('hello-arch', '1.0-1');
    expect((await putBody(s, `${base(alice.username)}/core`, pkg, { token })).status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/core/x86_64/hearth.db.sig`);
    const r = await pacman(alice.username, 'core', ['-Syw', '--nodeps', '--nodeps', 'hello-arch']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toMatch(/keyring not found|invalid or corrupted|unknown trust/i);
    expect(fs.existsSync(path.join(r.dir, 'db', 'sync', 'hearth.db.sig')) || fs.existsSync(path.join(r.dir, 'db', 'sync', 'hearth.db'))).toBe(true);
    const got = fs.readFileSync(path.join(r.dir, 'cache', 'hello-arch-1.0-1-x86_64.pkg.tar.zst'));
    expect(sha256(got)).toBe(sha256(pkg));
  });

  it.skipIf(!hasPacman)('the database lists each package\'s desc; `any` packages are in every architecture; 409 again', async () => {
    const any = await buildPkg('docs-arch', '2.0-3', 'any');
    expect((await putBody(s, `${base(alice.username)}`, any, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}`, any, { token })).status).toBe(409);
    const amd = await buildPkg('bin-arch', '1.0-1');
    expect((await putBody(s, `${base(alice.username)}`, amd, { token })).status).toBe(201);
    const db = await waitForFile(s, `${base(alice.username)}/x86_64/whatever.db`, (b) => zlib.gunzipSync(b).includes('bin-arch-1.0-1/desc'));
    const text = zlib.gunzipSync(db).toString('latin1');
    expect(text).toContain('docs-arch-2.0-3/desc');
    expect(text).toContain(`%SHA256SUM%\n${sha256(amd)}\n`);
    expect(text).toContain('%DEPENDS%\nglibc\n');
    const aarch = zlib.gunzipSync(await waitForFile(s, `${base(alice.username)}/aarch64/whatever.db`)).toString('latin1');
    expect(aarch).toContain('docs-arch-2.0-3/desc');
    expect(aarch).not.toContain('bin-arch');
    const del = await s.request(`${base(alice.username)}/bin-arch/1.0-1/x86_64`, { method: 'DELETE', auth: { token } });
    expect(del.status).toBe(204);
    await waitForFile(s, `${base(alice.username)}/x86_64/whatever.db`, (b) => !zlib.gunzipSync(b).includes('bin-arch'));
  });

  it.skipIf(!hasPacman)('xz and gzip packages are read as streams and keep their compression in the file name', async () => {
    const xz = await buildPkg('xz-arch', '1.0-1', 'x86_64', '--xz');
    const gz = await buildPkg('gz-arch', '1.0-1', 'x86_64', '--gzip');
    expect((await putBody(s, `${base(alice.username)}/extra`, xz, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/extra`, gz, { token })).status).toBe(201);
    const a = await s.request(`${base(alice.username)}/extra/x86_64/xz-arch-1.0-1-x86_64.pkg.tar.xz`);
    expect(sha256(Buffer.from(await a.arrayBuffer()))).toBe(sha256(xz));
    const b = await s.request(`${base(alice.username)}/extra/x86_64/gz-arch-1.0-1-x86_64.pkg.tar.gz`);
    expect(sha256(Buffer.from(await b.arrayBuffer()))).toBe(sha256(gz));
    const files = zlib.gunzipSync(await waitForFile(s, `${base(alice.username)}/extra/x86_64/extra.files`, (x) => zlib.gunzipSync(x).includes('gz-arch'))).toString('latin1');
    expect(files).toContain('%FILES%\nusr/share/xz-arch/hello.txt');
  });

  it('bad input is 400; a read:package token is 401; a private organization is hidden from anonymous clients', async () => {
    expect((await putBody(s, `${base(alice.username)}`, Buffer.from('not a package at all, nope'), { token })).status).toBe(400);
    const reader = await createToken(s, alice, ['read:package']);
    expect((await putBody(s, `${base(alice.username)}`, Buffer.from('x'), { token: reader })).status).toBe(401);
    await createOrg(s, alice, 'arch-secret', { visibility: 'private' });
    expect((await s.request(`${base('arch-secret')}/repository.key`)).status).toBe(401);
    expect((await s.request(`${base('arch-secret')}/repository.key`, { auth: as(alice) })).status).toBe(200);
  });
});
