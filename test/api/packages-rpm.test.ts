import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { client, hasCommand, putBody, run, waitForFile } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's RPM registry driven by Debian's dnf (a temp install root, cache and repos directory,
// the .repo file the registry serves, repomd.xml's signature checked): upload, repodata/, groups.

const hasDnf = hasCommand('dnf') && hasCommand('rpmbuild');
if (!hasDnf) console.warn('packages-rpm: dnf or rpmbuild is missing, the dnf tests are skipped');

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/rpm`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function buildRpm(name: string, version: string, release = '1'): Promise<Buffer> {
  const top = fs.mkdtempSync(path.join(work, 'rpmbuild-'));
  const spec = path.join(top, `${name}.spec`);
  fs.writeFileSync(spec, [
    `Name: ${name}`, `Version: ${version}`, `Release: ${release}`, 'Summary: A tiny test package', 'License: MIT', 'URL: https://example.com/',
    'BuildArch: noarch', '', '%description', 'A tiny package for the registry test.', '', '%install',
    `mkdir -p %{buildroot}/usr/share/${name} %{buildroot}/usr/bin`, `echo '${name} ${version}' > %{buildroot}/usr/share/${name}/hello.txt`,
    `printf '#!/bin/sh\\necho hi\\n' > %{buildroot}/usr/bin/${name}`, '', '%files', `/usr/share/${name}/hello.txt`, `%attr(0755,root,root) /usr/bin/${name}`, '',
    '%changelog', '* Mon Jan 01 2024 Alice <alice@example.com> - 1.0-1', '- First release', '',
  ].join('\n'));
  await run('rpmbuild', ['--define', `_topdir ${top}`, '--define', '_build_id_links none', '-bb', spec], { timeout: 60_000 });
  return fs.readFileSync(path.join(top, 'RPMS', 'noarch', `${name}-${version}-${release}.noarch.rpm`));
}

/** dnf with everything of its own under a temp directory, the repo from the registry's .repo file. */
async function dnf(repoFile: string, args: string[]): Promise<{ code: number; out: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(work, 'dnf-'));
  for (const d of ['root', 'repos', 'cache', 'dl']) fs.mkdirSync(path.join(dir, d));
  fs.writeFileSync(path.join(dir, 'repos', 'hearth.repo'), repoFile);
  fs.writeFileSync(path.join(dir, 'dnf.conf'), '[main]\ngpgcheck=0\ninstall_weak_deps=0\n');
  const r = await client('dnf', [
    `--config=${dir}/dnf.conf`, `--installroot=${dir}/root`, `--setopt=reposdir=${dir}/repos`, `--setopt=cachedir=${dir}/cache`,
    '--setopt=logdir=' + `${dir}/cache`, '--releasever=1', '--disableplugin=*', '-y', ...args.map((a) => a.replace('{dl}', `${dir}/dl`)),
  ]);
  return { ...r, dir };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'rpm-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-rpm-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('rpm registry with dnf', () => {
  it.skipIf(!hasDnf)('dnf reads the signed repodata of a group and downloads the uploaded bytes', async () => {
    const rpm = await buildRpm('hello-rpm', '1.0');
    expect((await putBody(s, `${base(alice.username)}/el9/stable/upload`, rpm, { token })).status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/el9/stable/repodata/repomd.xml.asc`);
    const repo = await (await s.request(`${base(alice.username)}/el9/stable.repo`)).text();
    expect(repo).toContain(`baseurl=${s.hearth.config.server.root_url}${base(alice.username)}/el9/stable`);
    const r = await dnf(repo, ['install', '--downloadonly', '--downloaddir={dl}', 'hello-rpm']);
    expect(r.code, r.out).toBe(0);
    const got = fs.readFileSync(path.join(r.dir, 'dl', 'hello-rpm-1.0-1.noarch.rpm'));
    expect(sha256(got)).toBe(sha256(rpm));
  });

  it.skipIf(!hasDnf)('primary.xml carries the name, version, requires-free entries and files; repomd lists the checksums', async () => {
    const rpm = await buildRpm('meta-rpm', '2.1', '3');
    expect((await putBody(s, `${base(alice.username)}/upload`, rpm, { token })).status).toBe(201);
    const md = (await waitForFile(s, `${base(alice.username)}/repodata/repomd.xml`)).toString();
    for (const t of ['primary', 'filelists', 'other']) expect(md).toContain(`<location href="repodata/${t}.xml.gz"/>`);
    const gz = Buffer.from(await (await s.request(`${base(alice.username)}/repodata/primary.xml.gz`)).arrayBuffer());
    expect(md).toContain(`<checksum type="sha256">${sha256(gz)}</checksum>`);
    const primary = (await import('node:zlib')).gunzipSync(gz).toString();
    expect(primary).toContain('<name>meta-rpm</name>');
    expect(primary).toContain('<version epoch="0" ver="2.1" rel="3"/>');
    expect(primary).toContain(`<checksum type="sha256" pkgid="YES">${sha256(rpm)}</checksum>`);
    expect(primary).toContain('<file>/usr/bin/meta-rpm</file>');
    expect(primary).not.toContain('rpmlib(');
    const api = await (await s.request(`api/v1/packages/${alice.username}/rpm/meta-rpm/2.1-3`, { auth: as(alice) })).json();
    expect(api).toMatchObject({ type: 'rpm', name: 'meta-rpm', version: '2.1-3' });
    const repo = await (await s.request(`api/packages/${alice.username}/rpm.repo`)).text();
    expect(repo).toContain(`baseurl=${s.hearth.config.server.root_url}${base(alice.username)}\n`);
  });

  it.skipIf(!hasDnf)('the same rpm again is 409; a read:package token gets 401; delete rebuilds the group', async () => {
    const rpm = await buildRpm('twice-rpm', '1.0');
    expect((await putBody(s, `${base(alice.username)}/dup/upload`, rpm, { token })).status).toBe(201);
    expect((await putBody(s, `${base(alice.username)}/dup/upload`, rpm, { token })).status).toBe(409);
    const reader = await createToken(s, alice, ['read:package']);
    expect((await putBody(s, `${base(alice.username)}/dup/upload`, rpm, { token: reader })).status).toBe(401);
    await waitForFile(s, `${base(alice.username)}/dup/repodata/repomd.xml`);
    const del = await s.request(`${base(alice.username)}/dup/package/twice-rpm/1.0-1/noarch`, { method: 'DELETE', auth: { token } });
    expect(del.status).toBe(204);
    const { eventually } = await import('../helpers/wait');
    await eventually(async () => (await s.request(`${base(alice.username)}/dup/repodata/repomd.xml`)).status === 404, 20_000, 'group index dropped');
  });

  it('a file that is no rpm is refused with 400; an anonymous client cannot read a private organization', async () => {
    expect((await putBody(s, `${base(alice.username)}/upload`, Buffer.from('not an rpm file, clearly not one at all, no no no, nothing like one at all here'), { token })).status).toBe(400);
    await createOrg(s, alice, 'rpm-secret', { visibility: 'private' });
    expect((await s.request(`${base('rpm-secret')}/repository.key`)).status).toBe(401);
    expect((await s.request(`api/packages/rpm-secret/rpm.repo`)).status).toBe(401);
  });
});
