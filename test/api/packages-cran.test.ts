import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { client, hasCommand, putBody, run } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's CRAN registry: source packages installed by the real R (install.packages from the
// repository into a temp library), binaries and PACKAGES per platform and R version over HTTP
// (R installs binaries only on Windows and macOS).

const hasR = hasCommand('Rscript');
if (!hasR) console.warn('packages-cran: Rscript is missing, the install.packages test is skipped');

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/cran`;
const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

/** An R source package (`{name}/DESCRIPTION`, NAMESPACE, R/), as a .tar.gz; or zipped as a Windows binary. */
async function buildR(name: string, version: string, zip = false): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(work, 'r-'));
  fs.mkdirSync(path.join(dir, name, 'R'), { recursive: true });
  fs.writeFileSync(path.join(dir, name, 'DESCRIPTION'), [
    `Package: ${name}`, `Version: ${version}`, 'Title: A Tiny Test Package', 'Description: A tiny package for the registry',
    '    test, on two lines.', 'License: MIT', 'Author: Alice', 'Maintainer: Alice <alice@example.com>', 'Depends: R (>= 3.0)', 'NeedsCompilation: no', '',
  ].join('\n'));
  fs.writeFileSync(path.join(dir, name, 'NAMESPACE'), 'export(hello)\n');
  fs.writeFileSync(path.join(dir, name, 'R', 'hello.R'), `hello <- function() "${name} ${version}"\n`);
  const out = path.join(dir, zip ? 'out.zip' : 'out.tar.gz');
  if (zip) await run('python3', ['-c', `import shutil; shutil.make_archive('${out.slice(0, -4)}', 'zip', '${dir}', '${name}')`]);
  else await run('tar', ['czf', out, '-C', dir, name]);
  return fs.readFileSync(out);
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'cran-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-cran-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('cran registry', () => {
  it.skipIf(!hasR)('install.packages installs the uploaded source package into a temp library', async () => {
    const src = await buildR('hearthtiny', '1.0.0');
    expect((await putBody(s, `${base(alice.username)}/src`, src, { token })).status).toBe(201);
    const lib = fs.mkdtempSync(path.join(work, 'lib-'));
    const repo = `${s.hearth.config.server.root_url}${base(alice.username)}`;
    const r = await client('Rscript', ['-e', `install.packages("hearthtiny", repos="${repo}", lib="${lib}", type="source"); library(hearthtiny, lib.loc="${lib}"); cat(hello())`], { env: { ...process.env, HOME: work } });
    expect(r.out).toContain('hearthtiny 1.0.0');
    expect(fs.existsSync(path.join(lib, 'hearthtiny', 'DESCRIPTION'))).toBe(true);
  });

  it('PACKAGES lists the newest source version with its MD5sum; the older one stays under Archive', async () => {
    const v1 = await buildR('twover', '1.0');
    const v2 = await buildR('twover', '1.10');
    expect((await putBody(s, `${base(alice.username)}/src`, v1, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/src`, v2, { token })).status).toBe(201);
    const text = await (await s.request(`${base(alice.username)}/src/contrib/PACKAGES`)).text();
    expect(text).toContain(`Package: twover\nVersion: 1.10\nDepends: R (>= 3.0)\nLicense: MIT\nNeedsCompilation: no\nMD5sum: ${md5(v2)}\n`);
    const gz = Buffer.from(await (await s.request(`${base(alice.username)}/src/contrib/PACKAGES.gz`)).arrayBuffer());
    expect(zlib.gunzipSync(gz).toString()).toBe(text);
    const old = await s.request(`${base(alice.username)}/src/contrib/Archive/twover/twover_1.0.tar.gz`);
    expect(old.status).toBe(200);
    expect(md5(Buffer.from(await old.arrayBuffer()))).toBe(md5(v1));
    const api = await (await s.request(`api/v1/packages/${alice.username}/cran/twover/1.10`, { auth: as(alice) })).json();
    expect(api).toMatchObject({ type: 'cran', name: 'twover', version: '1.10' });
  });

  it('a binary goes under its platform and R version; the same file again is 409; bad input is 400', async () => {
    const bin = await buildR('binpkg', '0.1', true);
    expect((await putBody(s, `${base(alice.username)}/bin`, bin, { token })).status).toBe(400);
    expect((await putBody(s, `${base(alice.username)}/bin?platform=windows&rversion=4.2`, bin, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/bin?platform=windows&rversion=4.2`, bin, { token })).status).toBe(409);
    const text = await (await s.request(`${base(alice.username)}/bin/windows/contrib/4.2/PACKAGES`)).text();
    expect(text).toContain(`Package: binpkg\nVersion: 0.1\n`);
    expect(await (await s.request(`${base(alice.username)}/bin/windows/contrib/4.1/PACKAGES`)).text()).toBe('');
    const file = await s.request(`${base(alice.username)}/bin/windows/contrib/4.2/binpkg_0.1.zip`);
    expect(md5(Buffer.from(await file.arrayBuffer()))).toBe(md5(bin));
    expect((await putBody(s, `${base(alice.username)}/src`, Buffer.from('no tar at all'), { token })).status).toBe(400);
  });

  it('a read:package token cannot upload; an anonymous client cannot read a private organization', async () => {
    const reader = await createToken(s, alice, ['read:package']);
    expect((await putBody(s, `${base(alice.username)}/src`, await buildR('ro', '1.0'), { token: reader })).status).toBe(401);
    await createOrg(s, alice, 'cran-secret', { visibility: 'private' });
    expect((await putBody(s, `${base('cran-secret')}/src`, await buildR('hidden', '1.0'), { token })).status).toBe(201);
    expect((await s.request(`${base('cran-secret')}/src/contrib/PACKAGES`)).status).toBe(401);
    expect((await s.request(`${base('cran-secret')}/src/contrib/PACKAGES`, { auth: as(alice) })).status).toBe(200);
  });
});
