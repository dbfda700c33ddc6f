import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipMemberEnd } from '../../src/services/packages/alpine/apk';
import { readTarMembers, writeTar } from '../../src/services/packages/archive/tar';
import { createOrg } from '../helpers/orgs';
import { putBody, waitForFile } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Alpine registry over HTTP: Debian 12 has no apk-tools, so the test does what apk does
// with the documented files: reads APKINDEX.tar.gz's two gzip members, checks the RSA-SHA1
// signature of the index member against the key from /key, and the C: checksum and bytes.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
const base = (owner: string) => `api/packages/${owner}/alpine`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** An unsigned .apk as abuild makes one: the control tar (end of archive cut) and the data tar, each gzipped. */
async function buildApk(name: string, version: string, arch = 'x86_64'): Promise<{ apk: Buffer; control: Buffer }> {
  const info = [`pkgname = ${name}`, `pkgver = ${version}`, `pkgdesc = ${name} for the test`, 'url = https://example.com/', 'builddate = 1700000000',
    'packager = Alice <alice@example.com>', 'size = 4096', `arch = ${arch}`, 'origin = test', 'license = MIT', 'depend = so:libc.musl-x86_64.so.1', ''].join('\n');
  const controlTar = await writeTar([{ name: '.PKGINFO', data: Buffer.from(info) }]);
  const control = zlib.gzipSync(controlTar.subarray(0, controlTar.length - 1024));
  const data = zlib.gzipSync(await writeTar([{ name: `usr/share/${name}/hello.txt`, data: Buffer.from(`${name} ${version}\n`) }]));
  return { apk: Buffer.concat([control, data]), control };
}

/** The signature and the index of an APKINDEX.tar.gz, as apk reads them. */
async function readIndex(buf: Buffer) {
  const end = gzipMemberEnd(buf, 0);
  const sigTar = zlib.gunzipSync(buf.subarray(0, end));
  const sig = await readTarMembers(Buffer.concat([sigTar, Buffer.alloc(1024)]), (n) => n.startsWith('.SIGN.RSA.'));
  const [sigName, signature] = [...sig.entries()][0]!;
  const indexMember = buf.subarray(end);
  const files = await readTarMembers(zlib.gunzipSync(indexMember), () => true);
  return { sigName, signature, indexMember, apkindex: files.get('APKINDEX')!.toString() };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'apk-alice');
  token = await createToken(s, alice, ['write:package']);
});
afterAll(async () => { await s.stop(); });

describe('alpine registry (HTTP, no apk client on Debian 12)', () => {
  it('the APKINDEX is signed with the owner\'s RSA key and lists the package with its control checksum', async () => {
    const { apk, control } = await buildApk('hello-apk', '1.0.0-r0');
    expect((await putBody(s, `${base(alice.username)}/v3.20/main`, apk, { token })).status).toBe(201);
    const keyRes = await s.request(`${base(alice.username)}/key`);
    expect(keyRes.status).toBe(200);
    const keyName = /filename="([^"]+)"/.exec(keyRes.headers.get('content-disposition') ?? '')![1]!;
    expect(keyName).toMatch(/\.rsa\.pub$/);
    const pem = await keyRes.text();
    const buf = await waitForFile(s, `${base(alice.username)}/v3.20/main/x86_64/APKINDEX.tar.gz`);
    const idx = await readIndex(buf);
    expect(idx.sigName).toBe(`.SIGN.RSA.${keyName}`);
    expect(crypto.verify('sha1', idx.indexMember, pem, idx.signature)).toBe(true);
    const checksum = `Q1${crypto.createHash('sha1').update(control).digest('base64')}`;
    expect(idx.apkindex).toContain(`C:${checksum}\nP:hello-apk\nV:1.0.0-r0\nA:x86_64\nS:${apk.length}\n`);
    expect(idx.apkindex).toContain('D:so:libc.musl-x86_64.so.1');
    const file = await s.request(`${base(alice.username)}/v3.20/main/x86_64/hello-apk-1.0.0-r0.apk`);
    expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(sha256(apk));
  });

  it('noarch packages are in every architecture\'s index; the same file again is 409; delete rebuilds', async () => {
    const { apk } = await buildApk('docs-apk', '2.0-r1', 'noarch');
    expect((await putBody(s, `${base(alice.username)}/edge/community`, apk, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/edge/community`, apk, { token })).status).toBe(409);
    const { apk: bin } = await buildApk('bin-apk', '1.0-r0', 'aarch64');
    expect((await putBody(s, `${base(alice.username)}/edge/community`, bin, { token })).status).toBe(201);
    const { eventually } = await import('../helpers/wait');
    let apkindex = '';
    await eventually(async () => {
      const res = await s.request(`${base(alice.username)}/edge/community/aarch64/APKINDEX.tar.gz`);
      if (res.status !== 200) return false;
      apkindex = (await readIndex(Buffer.from(await res.arrayBuffer()))).apkindex;
      return apkindex.includes('P:bin-apk');
    }, 20_000, 'bin-apk in the index');
    expect(apkindex).toContain('P:docs-apk');
    expect(apkindex).toContain('P:bin-apk');
    expect((await s.request(`${base(alice.username)}/edge/community/aarch64/docs-apk-2.0-r1.apk`)).status).toBe(200);
    const del = await s.request(`${base(alice.username)}/edge/community/aarch64/bin-apk-1.0-r0.apk`, { method: 'DELETE', auth: { token } });
    expect(del.status).toBe(204);
    await eventually(async () => {
      const res = await s.request(`${base(alice.username)}/edge/community/aarch64/APKINDEX.tar.gz`);
      return res.status === 200 && !(await readIndex(Buffer.from(await res.arrayBuffer()))).apkindex.includes('bin-apk');
    }, 20_000, 'bin-apk gone from the index');
  });

  it('bad input is 400; a read:package token is 401; a private organization is hidden from anonymous clients', async () => {
    expect((await putBody(s, `${base(alice.username)}/v3.20/main`, Buffer.from('definitely not gzip'), { token })).status).toBe(400);
    const reader = await createToken(s, alice, ['read:package']);
    expect((await putBody(s, `${base(alice.username)}/v3.20/main`, (await buildApk('ro', '1-r0')).apk, { token: reader })).status).toBe(401);
    await createOrg(s, alice, 'apk-secret', { visibility: 'private' });
    expect((await s.request(`${base('apk-secret')}/key`)).status).toBe(401);
    expect((await s.request(`${base('apk-secret')}/key`, { auth: as(alice) })).status).toBe(200);
  });
});
