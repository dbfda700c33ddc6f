import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTeamUnits } from '../../src/models/org';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, createToken, createUser, startTestServer, type Auth, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';

// Gitea's generic package registry: /api/packages/{owner}/generic/{name}/{version}/{file}.

let s: TestServer;
let alice: { username: string; password: string; id: number };
let bob: { username: string; password: string; id: number };
const url = (owner: string, rest: string) => `api/packages/${owner}/generic/${rest}`;
const put = (owner: string, rest: string, body: string | Buffer, auth: Auth) =>
  s.request(url(owner, rest), { method: 'PUT', body, auth });
const versionsOf = (name: string) => s.hearth.db.selectFrom('package_version as v').innerJoin('package as p', 'p.id', 'v.package_id')
  .select('v.version').where('p.name', '=', name).execute();

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'pkg-alice');
  bob = await createUser(s, 'pkg-bob');
});
afterAll(async () => { await s.stop(); });

describe('generic registry', () => {
  const content = Buffer.from('generic package content\n'.repeat(100));

  it('uploads (201) and downloads the same bytes with length, ETag and attachment headers', async () => {
    expect((await put(alice.username, 'tool/1.0.0/tool.bin', content, as(alice))).status).toBe(201);
    const res = await s.request(url(alice.username, 'tool/1.0.0/tool.bin'));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(content);
    expect(res.headers.get('content-length')).toBe(String(content.length));
    expect(res.headers.get('etag')).toBe(`"${crypto.createHash('sha256').update(content).digest('hex')}"`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="tool.bin"/);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('answers HEAD with the headers and no body, and one byte range with 206', async () => {
    const head = await s.request(url(alice.username, 'tool/1.0.0/tool.bin'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(content.length));
    expect(await head.text()).toBe('');
    const part = await s.request(url(alice.username, 'tool/1.0.0/tool.bin'), { headers: { Range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('generic');
  });

  it('counts downloads of the version', async () => {
    const row = await s.hearth.db.selectFrom('package_version').select('download_count').where('version', '=', '1.0.0').executeTakeFirstOrThrow();
    expect(row.download_count).toBeGreaterThanOrEqual(2);
  });

  it('refuses the same file again with 409 and adds a second file to the version', async () => {
    const again = await put(alice.username, 'tool/1.0.0/tool.bin', 'other', as(alice));
    expect(again.status).toBe(409);
    expect(await again.text()).toBe('package file already exists');
    expect((await put(alice.username, 'tool/1.0.0/TOOL.BIN', 'other', as(alice))).status).toBe(409);
    expect((await put(alice.username, 'tool/1.0.0/notes.txt', 'notes', as(alice))).status).toBe(201);
  });

  it.each([
    ['bad$name/1.0.0/a.bin', 'invalid package name'],
    ['-/1.0.0/a.bin', 'invalid package name'],
    ['tool/1.0.0/%20a.bin', 'invalid filename'],
    ['tool/1.0.0/a%2Fb', 'invalid filename'],
    ['tool/%201.0.0/a.bin', 'invalid package version'],
  ])('refuses %s with 400 (%s)', async (rest, message) => {
    const res = await put(alice.username, rest, 'x', as(alice));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(message);
  });

  it('answers 404 for a missing file, version, owner or type', async () => {
    expect((await s.request(url(alice.username, 'tool/1.0.0/missing.bin'))).status).toBe(404);
    expect((await s.request(url(alice.username, 'tool/9.9.9/tool.bin'))).status).toBe(404);
    expect((await s.request(url('no-such-owner', 'tool/1.0.0/tool.bin'))).status).toBe(404);
    expect((await s.request(`api/packages/${alice.username}/no-such-type/tool/1.0.0/tool.bin`)).status).toBe(404);
  });

  it('refuses anonymous and other users\' writes with 401 and the package realm', async () => {
    const anon = await put(alice.username, 'tool/2.0.0/tool.bin', 'x', undefined);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await put(alice.username, 'tool/2.0.0/tool.bin', 'x', as(bob))).status).toBe(401);
    expect((await s.request(url(alice.username, 'tool/1.0.0/tool.bin'), { method: 'DELETE', auth: as(bob) })).status).toBe(401);
    expect((await put(alice.username, 'tool/2.0.0/tool.bin', 'x', { basic: [alice.username, 'wrong'] })).status).toBe(401);
  });

  it('deletes a file (204); the last file takes the version with it', async () => {
    expect((await put(alice.username, 'gone/1/a.txt', 'a', as(alice))).status).toBe(201);
    expect((await put(alice.username, 'gone/1/b.txt', 'b', as(alice))).status).toBe(201);
    expect((await s.request(url(alice.username, 'gone/1/a.txt'), { method: 'DELETE', auth: as(alice) })).status).toBe(204);
    expect((await s.request(url(alice.username, 'gone/1/a.txt'))).status).toBe(404);
    expect(await versionsOf('gone')).toHaveLength(1);
    expect((await s.request(url(alice.username, 'gone/1/b.txt'), { method: 'DELETE', auth: as(alice) })).status).toBe(204);
    expect(await versionsOf('gone')).toHaveLength(0);
    expect(await s.hearth.db.selectFrom('package').select('id').where('name', '=', 'gone').execute()).toHaveLength(0);
    expect((await s.request(url(alice.username, 'gone/1/b.txt'), { method: 'DELETE', auth: as(alice) })).status).toBe(404);
  });

  it('deletes a version (204), then 404', async () => {
    expect((await put(alice.username, 'ver/1/a.txt', 'a', as(alice))).status).toBe(201);
    expect((await put(alice.username, 'ver/2/a.txt', 'a', as(alice))).status).toBe(201);
    expect((await s.request(url(alice.username, 'ver/1'), { method: 'DELETE', auth: as(alice) })).status).toBe(204);
    expect((await s.request(url(alice.username, 'ver/1'), { method: 'DELETE', auth: as(alice) })).status).toBe(404);
    expect((await versionsOf('ver')).map((v) => v.version)).toEqual(['2']);
  });
});

describe('generic registry access', () => {
  it('a private owner\'s packages: 401 to anonymous and to others (as Gitea), read by the owner', async () => {
    const hidden = await createUser(s, 'pkg-hidden', { visibility: 'private' });
    expect((await put(hidden.username, 'secret/1/s.txt', 'secret', as(hidden))).status).toBe(201);
    const anon = await s.request(url(hidden.username, 'secret/1/s.txt'));
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Basic realm="Gitea Package API"');
    expect((await s.request(url(hidden.username, 'secret/1/s.txt'), { auth: as(bob) })).status).toBe(401);
    expect(await (await s.request(url(hidden.username, 'secret/1/s.txt'), { auth: as(hidden) })).text()).toBe('secret');
    expect((await s.request(url(hidden.username, 'secret/1/s.txt'), { auth: as(s.admin) })).status).toBe(200);
  });

  it('a token needs write:package to upload and read:package to download', async () => {
    const readOnly = await createToken(s, alice, ['read:package']);
    const writer = await createToken(s, alice, ['write:package']);
    const repoOnly = await createToken(s, alice, ['read:repository']);
    expect((await put(alice.username, 'tok/1/a.txt', 'a', { token: readOnly })).status).toBe(401);
    expect((await put(alice.username, 'tok/1/a.txt', 'a', { token: writer })).status).toBe(201);
    // Basic with the token as password, as package clients send it.
    expect((await put(alice.username, 'tok/1/b.txt', 'b', { basic: [alice.username, writer] })).status).toBe(201);
    expect((await s.request(url(alice.username, 'tok/1/a.txt'), { auth: { token: readOnly } })).status).toBe(200);
    expect((await s.request(url(alice.username, 'tok/1/a.txt'), { auth: { token: repoOnly } })).status).toBe(401);
  });

  it('an organization: members with the packages unit at write upload, others are refused', async () => {
    const org = await createOrg(s, alice, 'pkg-org');
    const carol = await createUser(s, 'pkg-carol');
    const dave = await createUser(s, 'pkg-dave');
    const writers = await addTeam(s, org.id, 'writers', { mode: 2, uids: [carol.id] });
    const team = await s.hearth.db.selectFrom('team').selectAll().where('id', '=', writers).executeTakeFirstOrThrow();
    await setTeamUnits(s.hearth.db, team, { 'repo.code': 2, 'repo.packages': 2 });
    await addTeam(s, org.id, 'readers', { mode: 1, uids: [dave.id] });
    expect((await put('pkg-org', 'orgtool/1/a.txt', 'a', as(carol))).status).toBe(201);
    expect((await put('pkg-org', 'orgtool/1/b.txt', 'b', as(alice))).status).toBe(201);
    expect((await put('pkg-org', 'orgtool/1/c.txt', 'c', as(dave))).status).toBe(401);
    expect((await put('pkg-org', 'orgtool/1/c.txt', 'c', as(bob))).status).toBe(401);
    expect((await s.request(url('pkg-org', 'orgtool/1/a.txt'), { auth: as(dave) })).status).toBe(200);
  });

  it('a client that aborts mid-upload leaves no version and no blob', async () => {
    const target = new URL(url(alice.username, 'aborted/1/big.bin'), s.hearth.config.server.root_url);
    await new Promise<void>((resolve) => {
      const req = http.request(target, {
        method: 'PUT', headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:${alice.password}`).toString('base64')}`, 'Content-Length': '1000000' },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(Buffer.alloc(64 * 1024, 1), () => setTimeout(() => { req.destroy(); resolve(); }, 100));
    });
    const tmp = path.join(s.dataDir, 'packages', 'tmp');
    await eventually(async () => (fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).length === 0, 10_000, 'temp file removed');
    expect(await versionsOf('aborted')).toHaveLength(0);
    const blobs = await s.hearth.db.selectFrom('package_blob').select('size').execute();
    expect(blobs.some((b) => b.size === 64 * 1024)).toBe(false);
  });
});

describe('generic registry limits and settings', () => {
  let limited: TestServer;
  let user: { username: string; password: string; id: number };
  beforeAll(async () => {
    limited = await startTestServer({ HEARTH__PACKAGES__LIMIT_SIZE_GENERIC: '10', HEARTH__PACKAGES__LIMIT_TOTAL_OWNER_COUNT: '2' });
    user = await createUser(limited, 'limited-user');
  });
  afterAll(async () => { await limited.stop(); });
  const up = (rest: string, body: string, auth: Auth = as(user)) => limited.request(`api/packages/${user.username}/generic/${rest}`, { method: 'PUT', body, auth });

  it('over the type\'s size limit is refused with 403 (Gitea\'s quota answer), leaving no blob', async () => {
    const res = await up('big/1/a.bin', 'x'.repeat(11));
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package type size exceeded');
    expect(await limited.hearth.db.selectFrom('package_blob').select('id').execute()).toHaveLength(0);
    expect((await up('big/1/a.bin', 'x'.repeat(10))).status).toBe(201);
    // Site admins are exempt.
    expect((await limited.request(`api/packages/${user.username}/generic/big/1/b.bin`, { method: 'PUT', body: 'x'.repeat(50), auth: as(limited.admin) })).status).toBe(201);
  });

  it('past the owner\'s version count a new version is refused with 403', async () => {
    expect((await up('count/1/a', 'a')).status).toBe(201);
    const res = await up('count/2/a', 'a');
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('maximum allowed package count exceeded');
    // More files in an existing version are fine.
    expect((await up('count/1/b', 'b')).status).toBe(201);
  });

  it('with [packages] enabled = false the registry is not there (404)', async () => {
    const off = await startTestServer({ HEARTH__PACKAGES__ENABLED: 'false' });
    try {
      const u = await createUser(off, 'off-user');
      expect((await off.request(`api/packages/${u.username}/generic/a/1/a`, { method: 'PUT', body: 'a', auth: as(u) })).status).toBe(404);
    } finally { await off.stop(); }
  });
});
