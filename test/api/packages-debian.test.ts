import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobPath } from '../../src/services/packages/blob-store';
import { cleanupPackages } from '../../src/services/packages/cleanup';
import { dropIndex } from '../../src/services/packages/repo-index/store';
import { createOrg } from '../helpers/orgs';
import { client, hasCommand, indexJobsDone, putBody, run, waitForFile } from '../helpers/package-repos';
import { as, createToken, createUser, startTestServer, type TestServer } from '../helpers/server';

// Gitea's Debian registry driven by the real apt-get (a temp sources list and state, the owner's
// key as signed-by): upload, the signed dists/ the index job builds, the pool, deletes.

const hasApt = hasCommand('apt-get') && hasCommand('dpkg-deb');
if (!hasApt) console.warn('packages-debian: apt-get or dpkg-deb is missing, the apt tests are skipped');

let s: TestServer;
let alice: { username: string; password: string; id: number };
let token: string;
let work: string;
const base = (owner: string) => `api/packages/${owner}/debian`;
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A .deb built by dpkg-deb with one file, `-Z` its compression. */
async function buildDeb(name: string, version: string, arch = 'amd64', z = 'xz'): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(work, 'deb-'));
  fs.mkdirSync(path.join(dir, 'DEBIAN'));
  fs.mkdirSync(path.join(dir, 'usr/share', name), { recursive: true });
  fs.writeFileSync(path.join(dir, 'usr/share', name, 'hello.txt'), `${name} ${version}\n`);
  fs.writeFileSync(path.join(dir, 'DEBIAN/control'), [
    `Package: ${name}`, `Version: ${version}`, `Architecture: ${arch}`, 'Maintainer: Alice <alice@example.com>',
    'Homepage: https://example.com/', 'Depends: libc6 (>= 2.0), bash', `Description: ${name} for the test`, ' A longer description line.', '',
  ].join('\n'));
  const out = path.join(work, `${name}_${version}_${arch}-${z}.deb`);
  await run('dpkg-deb', ['--root-owner-group', `-Z${z}`, '--build', dir, out]);
  return fs.readFileSync(out);
}

/** An apt configuration of its own: sources, state, cache; nothing of the system's touched. */
function aptEnv(owner: string, distribution: string, key: Buffer): { args: string[]; dir: string } {
  const dir = fs.mkdtempSync(path.join(work, 'apt-'));
  for (const d of ['state/lists/partial', 'cache/archives/partial', 'etc/apt.conf.d', 'etc/preferences.d', 'etc/trusted.gpg.d', 'dl']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.writeFileSync(path.join(dir, 'key.asc'), key);
  fs.writeFileSync(path.join(dir, 'state/status'), '');
  const url = `${s.hearth.config.server.root_url}${base(owner)}`;
  fs.writeFileSync(path.join(dir, 'etc/sources.list'), `deb [signed-by=${dir}/key.asc] ${url} ${distribution} main\n`);
  const args = [
    '-o', `Dir::Etc=${dir}/etc`, '-o', `Dir::Etc::SourceList=${dir}/etc/sources.list`, '-o', 'Dir::Etc::SourceParts=-',
    '-o', `Dir::State=${dir}/state`, '-o', `Dir::State::status=${dir}/state/status`, '-o', `Dir::Cache=${dir}/cache`,
    '-o', 'Debug::NoLocking=1', '-o', 'APT::Architecture=amd64', '-o', 'APT::Sandbox::User=root', '-o', 'Acquire::Languages=none',
  ];
  return { args, dir };
}

async function key(owner: string): Promise<Buffer> {
  const res = await s.request(`${base(owner)}/repository.key`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'deb-alice');
  token = await createToken(s, alice, ['write:package']);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-debian-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('debian registry with apt-get', () => {
  it.skipIf(!hasApt)('apt-get update verifies the signed index and apt-get download fetches the uploaded bytes', async () => {
    const deb = await buildDeb('hello-hearth', '1.0.0-1');
    const res = await putBody(s, `${base(alice.username)}/pool/bookworm/main/upload`, deb, { token });
    expect(res.status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/dists/bookworm/InRelease`, (b) => b.includes('main/binary-amd64/Packages'));
    const apt = aptEnv(alice.username, 'bookworm', await key(alice.username));
    const update = await client('apt-get', [...apt.args, 'update']);
    expect(update.out).not.toMatch(/NO_PUBKEY|not signed|Err:/);
    expect(update.code).toBe(0);
    const dl = await client('apt-get', [...apt.args, 'download', 'hello-hearth'], { cwd: path.join(apt.dir, 'dl') });
    expect(dl.code, dl.out).toBe(0);
    const got = fs.readFileSync(path.join(apt.dir, 'dl', 'hello-hearth_1.0.0-1_amd64.deb'));
    expect(sha256(got)).toBe(sha256(deb));
  });

  it.skipIf(!hasApt)('the Release lists Packages, .gz (and .xz) of each component and architecture, by hash too', async () => {
    const deb = await buildDeb('multi', '2.0', 'arm64', 'gzip');
    expect((await putBody(s, `${base(alice.username)}/pool/trixie/contrib/upload`, deb, { token })).status).toBe(201);
    const allDeb = await buildDeb('docs', '1.0', 'all');
    expect((await putBody(s, `${base(alice.username)}/pool/trixie/contrib/upload`, allDeb, { token })).status).toBe(201);
    await indexJobsDone(s);
    const release = (await waitForFile(s, `${base(alice.username)}/dists/trixie/Release`)).toString();
    expect(release).toMatch(/^Suite: trixie$/m);
    expect(release).toMatch(/^Components: contrib$/m);
    expect(release).toMatch(/^Architectures: all arm64$/m);
    expect(release).toMatch(/^Acquire-By-Hash: yes$/m);
    const packages = await (await s.request(`${base(alice.username)}/dists/trixie/contrib/binary-arm64/Packages`)).text();
    expect(packages).toMatch(/^Package: multi$/m);
    expect(packages).toMatch(/^Package: docs$/m);
    expect(packages).toContain(`Filename: pool/trixie/contrib/multi_2.0_arm64.deb\nSize: ${deb.length}`);
    expect(packages).toContain(`SHA256: ${sha256(deb)}`);
    const line = release.split('\n').find((l) => / contrib\/binary-arm64\/Packages\.gz$/.test(l) && /^ [0-9a-f]{64} /.test(l))!;
    const hash = line.trim().split(/\s+/)[0]!;
    const byHash = await s.request(`${base(alice.username)}/dists/trixie/contrib/binary-arm64/by-hash/SHA256/${hash}`);
    expect(byHash.status).toBe(200);
    expect(sha256(Buffer.from(await byHash.arrayBuffer()))).toBe(hash);
    const pool = await s.request(`${base(alice.username)}/pool/trixie/contrib/multi_2.0_arm64.deb`);
    expect(pool.status).toBe(200);
    expect(sha256(Buffer.from(await pool.arrayBuffer()))).toBe(sha256(deb));
  });

  it.skipIf(!hasApt)('uploading the same file again is refused with 409, into another distribution it is fine', async () => {
    const deb = await buildDeb('twice', '1.0');
    expect((await putBody(s, `${base(alice.username)}/pool/stable/main/upload`, deb, { token })).status).toBe(201);
    const again = await putBody(s, `${base(alice.username)}/pool/stable/main/upload`, deb, { token });
    expect(again.status).toBe(409);
    expect((await putBody(s, `${base(alice.username)}/pool/testing/main/upload`, deb, { token })).status).toBe(201);
  });

  it.skipIf(!hasApt)('a read:package token cannot upload (401) and nothing is stored', async () => {
    const reader = await createToken(s, alice, ['read:package']);
    const deb = await buildDeb('readonly', '1.0');
    const res = await putBody(s, `${base(alice.username)}/pool/stable/main/upload`, deb, { token: reader });
    expect(res.status).toBe(401);
    expect(fs.existsSync(blobPath(s.dataDir, sha256(deb)))).toBe(false);
  });

  it('a file that is no .deb is refused with 400 and leaves no package and no blob', async () => {
    const junk = Buffer.from('!<arch>\nnot really a debian package at all, just bytes\n');
    const res = await putBody(s, `${base(alice.username)}/pool/stable/main/upload`, junk, { token });
    expect(res.status).toBe(400);
    expect(fs.existsSync(blobPath(s.dataDir, sha256(junk)))).toBe(false);
    const bad = await putBody(s, `${base(alice.username)}/pool/sta..ble/main/upload`, junk, { token });
    expect(bad.status).toBe(400);
  });

  it.skipIf(!hasApt)('an upload cut short leaves nothing behind', async () => {
    const deb = await buildDeb('cut', '1.0');
    const url = new URL(`${base(alice.username)}/pool/stable/main/upload`, s.hearth.config.server.root_url);
    const http = await import('node:http');
    await new Promise<void>((resolve) => {
      const req = http.request(url, { method: 'PUT', headers: { Authorization: `token ${token}`, 'Content-Length': String(deb.length) } });
      req.on('error', () => resolve());
      req.write(deb.subarray(0, 200), () => setTimeout(() => { req.destroy(); resolve(); }, 100));
    });
    await new Promise((r) => setTimeout(r, 200));
    const rows = await s.hearth.db.selectFrom('package').select('id').where('lower_name', '=', 'cut').execute();
    expect(rows).toEqual([]);
    const tmp = path.join(s.dataDir, 'packages', 'tmp');
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  });

  it.skipIf(!hasApt)('deleting the last file drops it from the rebuilt index', async () => {
    const deb = await buildDeb('gone', '1.0');
    expect((await putBody(s, `${base(alice.username)}/pool/sid/main/upload`, deb, { token })).status).toBe(201);
    const keep = await buildDeb('kept', '1.0');
    expect((await putBody(s, `${base(alice.username)}/pool/sid/main/upload`, keep, { token })).status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/dists/sid/main/binary-amd64/Packages`, (b) => b.includes('Package: gone') && b.includes('Package: kept'));
    const del = await s.request(`${base(alice.username)}/pool/sid/main/gone/1.0/amd64`, { method: 'DELETE', auth: { token } });
    expect(del.status).toBe(204);
    await waitForFile(s, `${base(alice.username)}/dists/sid/main/binary-amd64/Packages`, (b) => !b.includes('Package: gone') && b.includes('Package: kept'));
    expect((await s.request(`${base(alice.username)}/pool/sid/main/gone_1.0_amd64.deb`)).status).toBe(404);
  });

  it.skipIf(!hasApt)('while uploads rebuild the index, every Release read names Packages that can be fetched by hash', async () => {
    const debs = await Promise.all(Array.from({ length: 8 }, (_, i) => buildDeb(`busy${i}`, '1.0')));
    expect((await putBody(s, `${base(alice.username)}/pool/busy/main/upload`, debs[0]!, { token })).status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/dists/busy/InRelease`);
    let uploading = true;
    const uploads = (async () => {
      for (const deb of debs.slice(1)) expect((await putBody(s, `${base(alice.username)}/pool/busy/main/upload`, deb, { token })).status).toBe(201);
      await indexJobsDone(s);
      uploading = false;
    })();
    let reads = 0;
    while (uploading) {
      const release = await (await s.request(`${base(alice.username)}/dists/busy/InRelease`)).text();
      const hash = /^ ([0-9a-f]{64}) +\d+ main\/binary-amd64\/Packages$/m.exec(release)![1]!;
      const res = await s.request(`${base(alice.username)}/dists/busy/main/binary-amd64/by-hash/SHA256/${hash}`);
      expect(res.status).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(hash);
      reads++;
    }
    await uploads;
    expect(reads).toBeGreaterThan(0);
    const last = await (await s.request(`${base(alice.username)}/dists/busy/main/binary-amd64/Packages`)).text();
    expect((last.match(/^Package: busy/gm) ?? []).length).toBe(8);
  });

  it.skipIf(!hasApt)('the package webhook tells of a new .deb version and of its deletion', async () => {
    const hook = await s.request('api/v1/user/hooks', {
      method: 'POST', auth: as(alice),
      json: { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, events: ['package'], active: true },
    });
    expect(hook.status).toBe(201);
    const hookId = ((await hook.json()) as { id: number }).id;
    expect((await putBody(s, `${base(alice.username)}/pool/hooks/main/upload`, await buildDeb('hooked', '3.0'), { token })).status).toBe(201);
    expect((await s.request(`${base(alice.username)}/pool/hooks/main/hooked/3.0/amd64`, { method: 'DELETE', auth: { token } })).status).toBe(204);
    const tasks = await s.hearth.db.selectFrom('hook_task').selectAll().where('hook_id', '=', hookId).orderBy('id').execute();
    expect(tasks.map((t) => [t.event, JSON.parse(t.payload_content).action])).toEqual([['package', 'created'], ['package', 'deleted']]);
    expect(JSON.parse(tasks[0]!.payload_content).package).toMatchObject({ type: 'debian', name: 'hooked', version: '3.0' });
  });

  it.skipIf(!hasApt)('cleanup_packages builds a lost index again', async () => {
    const deb = await buildDeb('healed', '1.0');
    expect((await putBody(s, `${base(alice.username)}/pool/heal/main/upload`, deb, { token })).status).toBe(201);
    await waitForFile(s, `${base(alice.username)}/dists/heal/Release`);
    await indexJobsDone(s);
    await dropIndex(s.hearth.db, { ownerId: alice.id, type: 'debian', scope: 'heal' });
    expect((await s.request(`${base(alice.username)}/dists/heal/Release`)).status).toBe(404);
    expect(await cleanupPackages(s.hearth.db, s.hearth.blobs, s.dataDir, 24 * 3600_000)).toMatch(/repository index\(es\) queued/);
    await waitForFile(s, `${base(alice.username)}/dists/heal/main/binary-amd64/Packages`, (b) => b.includes('Package: healed'));
  });

  it.skipIf(!hasApt)('an anonymous client cannot read a private organization\'s repository', async () => {
    await createOrg(s, alice, 'deb-secret', { visibility: 'private' });
    const deb = await buildDeb('secret', '1.0');
    expect((await putBody(s, `${base('deb-secret')}/pool/stable/main/upload`, deb, { token })).status).toBe(201);
    await waitForFile(s, `${base('deb-secret')}/dists/stable/Release`, () => true, as(alice));
    expect((await s.request(`${base('deb-secret')}/dists/stable/Release`)).status).toBe(401);
    expect((await s.request(`${base('deb-secret')}/repository.key`)).status).toBe(401);
    expect((await s.request(`${base('deb-secret')}/pool/stable/main/secret_1.0_amd64.deb`)).status).toBe(401);
  });
});
