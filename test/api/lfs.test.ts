import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronOf } from '../../src/services/cron/scheduler';
import { blobKey } from '../../src/services/packages/blob-store';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, basicHeader, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectContentsShape } from '../helpers/contents';
import { eventually } from '../helpers/wait';

// Git LFS with the real git-lfs client: a 50 MB file pushed over HTTP and cloned back, the
// media endpoint, lfs_oid in contents, the locks API, and the batch API's access rules.

type Creds = { username: string; password: string; id: number };
const LFS = 'application/vnd.git-lfs+json';
const BIG = 50 * 1024 * 1024;

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let big: Buffer;
let bigOid: string;

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const lfsUrl = (repo: string, rest: string) => `${repo}.git/info/lfs/${rest}`;
/** A call of the LFS API as git-lfs makes it (Accept and Content-Type: the LFS media type). */
const lfsCall = (p: string, method: string, who: { username: string; password: string } | null, body?: unknown) =>
  s.request(p, {
    method, auth: as(who), headers: { Accept: LFS, ...(body === undefined ? {} : { 'Content-Type': LFS }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function lfsRepoDir(): Promise<string> {
  const dir = tempDir('hearth-lfs-');
  await git(dir, 'init', '-q', '-b', 'main');
  await git(dir, 'lfs', 'install', '--local');
  await git(dir, 'lfs', 'track', '*.bin');
  return dir;
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVER__LFS_MAX_FILE_SIZE: String(60 * 1024 * 1024), HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'big', { private: true });
  await ok(await s.request('api/v1/repos/alice/big/collaborators/bob', { method: 'PUT', auth: as(alice), json: { permission: 'write' } }), 204);
  big = crypto.randomBytes(BIG);
  bigOid = sha256(big);
}, 60_000);
afterAll(async () => { await s.stop(); });

describe('push and clone with git-lfs', () => {
  it('pushes a 50 MB file tracked by git-lfs over HTTP with basic auth', async () => {
    const dir = await lfsRepoDir();
    fs.writeFileSync(path.join(dir, 'big.bin'), big);
    fs.writeFileSync(path.join(dir, 'README.md'), '# big\n');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'a big file');
    await git(dir, 'remote', 'add', 'origin', remoteUrl(s, 'alice', 'big', alice.username, alice.password));
    await git(dir, 'push', '-q', 'origin', 'main');
    // The object is in the shared blob store (the data directory, or a bucket), addressed by its oid.
    expect((await s.hearth.blobs.stat(blobKey(bigOid)))?.size).toBe(BIG);
  }, 120_000);

  it('a clone into another directory gets the same bytes back', async () => {
    const dir = tempDir('hearth-lfs-clone-');
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'big', bob.username, bob.password), 'c');
    const work = path.join(dir, 'c');
    await git(work, 'lfs', 'install', '--local');
    await git(work, 'lfs', 'pull');
    const got = fs.readFileSync(path.join(work, 'big.bin'));
    expect(got.length).toBe(BIG);
    expect(got.equals(big)).toBe(true);
  }, 120_000);

  it('GET media/{filepath} serves the LFS object, raw the pointer', async () => {
    const res = await s.request('api/v1/repos/alice/big/media/big.bin', { auth: as(alice) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BIG));
    expect(res.headers.get('etag')).toBe(`"${bigOid}"`);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(bigOid);
    const raw = await ok(await s.request('api/v1/repos/alice/big/raw/big.bin', { auth: as(alice) }));
    expect(raw).toContain(`oid sha256:${bigOid}`);
    // The web route too.
    const web = await s.request('alice/big/media/branch/main/big.bin', { auth: as(alice), headers: { Range: 'bytes=0-9' } });
    expect(web.status).toBe(206);
    expect(Buffer.from(await web.arrayBuffer()).equals(big.subarray(0, 10))).toBe(true);
    // A file that is not a pointer is the blob itself.
    expect(await ok(await s.request('api/v1/repos/alice/big/media/README.md', { auth: as(alice) }))).toBe('# big\n');
  });

  it('contents answers lfs_oid and lfs_size for a stored object, and download_url points at media', async () => {
    const file = await ok(await s.request('api/v1/repos/alice/big/contents/big.bin', { auth: as(alice) }));
    expectContentsShape(file);
    expect(file).toMatchObject({ lfs_oid: bigOid, lfs_size: BIG, type: 'file' });
    expect(file.download_url).toContain('/alice/big/media/branch/main/big.bin');
    const list = await ok(await s.request('api/v1/repos/alice/big/contents', { auth: as(alice) }));
    expectContentsShape(list);
    expect(list.find((e: { name: string }) => e.name === 'big.bin')).toMatchObject({ lfs_oid: bigOid, lfs_size: BIG });
    const readme = list.find((e: { name: string }) => e.name === 'README.md');
    expect(readme.lfs_oid).toBeUndefined();
  });
});

describe('forks', () => {
  it('a fork holds its parent\'s LFS objects (Gitea\'s CopyLFS)', async () => {
    await ok(await s.request('api/v1/repos/alice/big/forks', { method: 'POST', auth: as(bob), json: {} }), 202);
    const file = await ok(await s.request('api/v1/repos/bob/big/contents/big.bin', { auth: as(bob) }));
    expect(file).toMatchObject({ lfs_oid: bigOid, lfs_size: BIG });
    const body = await ok(await lfsCall(lfsUrl('bob/big', 'objects/batch'), 'POST', bob, { operation: 'download', objects: [{ oid: bigOid, size: BIG }] }));
    expect(body.objects[0].actions.download.href).toContain('/bob/big.git/');
  });
});

describe('migrations with lfs: true', () => {
  it('fetch the source\'s LFS objects through its batch API', async () => {
    const body = await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(carol),
      json: { clone_addr: remoteUrl(s, 'alice', 'big'), auth_username: alice.username, auth_password: alice.password, repo_name: 'copy', lfs: true },
    }), 201);
    expect(body.full_name).toBe('carol/copy');
    const file = await ok(await s.request('api/v1/repos/carol/copy/contents/big.bin', { auth: as(carol) }));
    expect(file).toMatchObject({ lfs_oid: bigOid, lfs_size: BIG });
    const res = await s.request('api/v1/repos/carol/copy/media/big.bin', { auth: as(carol) });
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(bigOid);
  }, 60_000);

  it('a mirror made with lfs: true fetches the LFS objects of later commits on each sync', async () => {
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(carol),
      json: { clone_addr: remoteUrl(s, 'alice', 'big'), auth_username: alice.username, auth_password: alice.password, repo_name: 'mirrored', mirror: true, lfs: true },
    }), 201);
    // A new object pushed to the source with git-lfs (the big one left unfetched in the clone).
    const dir = tempDir('hearth-lfs-mirror-');
    await git(dir, '-c', 'filter.lfs.smudge=git-lfs smudge --skip', '-c', 'filter.lfs.process=git-lfs filter-process --skip',
      'clone', '-q', remoteUrl(s, 'alice', 'big', alice.username, alice.password), 'c');
    const work = path.join(dir, 'c');
    await git(work, 'lfs', 'install', '--local', '--skip-smudge');
    const small = crypto.randomBytes(4096);
    fs.writeFileSync(path.join(work, 'small.bin'), small);
    await git(work, 'add', 'small.bin');
    await git(work, 'commit', '-q', '-m', 'a second LFS file');
    await git(work, 'push', '-q', 'origin', 'main');
    await ok(await s.request('api/v1/repos/carol/mirrored/mirror-sync', { method: 'POST', auth: as(carol) }));
    await eventually(async () => (await s.request('api/v1/repos/carol/mirrored/media/small.bin', { auth: as(carol) })).status === 200
      && (await ok(await s.request('api/v1/repos/carol/mirrored/contents/small.bin', { auth: as(carol) }))).lfs_oid === sha256(small));
    const res = await s.request('api/v1/repos/carol/mirrored/media/small.bin', { auth: as(carol) });
    expect(Buffer.from(await res.arrayBuffer()).equals(small)).toBe(true);
  }, 60_000);

  it('without lfs the pointers come, not the objects', async () => {
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(carol),
      json: { clone_addr: remoteUrl(s, 'alice', 'big'), auth_username: alice.username, auth_password: alice.password, repo_name: 'nolfs' },
    }), 201);
    const file = await ok(await s.request('api/v1/repos/carol/nolfs/contents/big.bin', { auth: as(carol) }));
    expect(file.lfs_oid).toBeUndefined();
  });
});

describe('the batch API', () => {
  const batchBody = (operation: string, objects: { oid: string; size: number }[]) => ({ operation, transfers: ['basic'], objects });

  it('answers download actions with the caller\'s Authorization header', async () => {
    const body = await ok(await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', bob, batchBody('download', [{ oid: bigOid, size: BIG }])));
    expect(body.transfer).toBe('basic');
    const [o] = body.objects;
    expect(o.actions.download.href).toBe(`${s.hearth.config.server.root_url}alice/big.git/info/lfs/objects/${bigOid}`);
    expect(o.actions.download.header.Authorization).toBe(basicHeader(bob.username, bob.password));
    expect(o.actions.download.expires_in).toBeGreaterThan(0);
  });

  it('refuses a private repository\'s batch without credentials (401 asking for them), and outsiders', async () => {
    const res = await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', null, batchBody('download', [{ oid: bigOid, size: BIG }]));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(res.headers.get('content-type')).toContain(LFS);
    expect((await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', carol, batchBody('download', [{ oid: bigOid, size: BIG }]))).status).toBe(404);
    expect((await s.request(lfsUrl('alice/big', `objects/${bigOid}`))).status).toBe(401);
  });

  it('upload needs write access; objects too large or with a wrong size are refused per object', async () => {
    await ok(await s.request('api/v1/repos/alice/big/collaborators/carol', { method: 'PUT', auth: as(alice), json: { permission: 'read' } }), 204);
    const small = Buffer.from('hello lfs\n');
    const p = { oid: sha256(small), size: small.length };
    expect((await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', carol, batchBody('upload', [p]))).status).toBe(403);
    const body = await ok(await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', bob, batchBody('upload', [
      p, { oid: 'f'.repeat(64), size: 70 * 1024 * 1024 }, { oid: bigOid, size: 3 }, { oid: 'nope', size: 1 },
    ])));
    expect(body.objects[0].actions.upload.href).toMatch(new RegExp(`/objects/${p.oid}/${p.size}$`));
    expect(body.objects[0].actions.verify.header.Accept).toBe(LFS);
    expect(body.objects[1].error.code).toBe(422);
    expect(body.objects[2].error.code).toBe(422);
    expect(body.objects[3].error.code).toBe(422);
    // A body that does not hash to the oid is refused and nothing is kept.
    const bad = await s.request(lfsUrl('alice/big', `objects/${p.oid}/${p.size}`), { method: 'PUT', auth: as(bob), body: 'HELLO LFS\n' });
    expect(bad.status).toBe(422);
    expect((await lfsCall(lfsUrl('alice/big', 'verify'), 'POST', bob, p)).status).toBe(404);
    await ok(await s.request(lfsUrl('alice/big', `objects/${p.oid}/${p.size}`), { method: 'PUT', auth: as(bob), body: small }));
    await ok(await lfsCall(lfsUrl('alice/big', 'verify'), 'POST', bob, p));
    // Already stored: no actions to take.
    const again = await ok(await lfsCall(lfsUrl('alice/big', 'objects/batch'), 'POST', bob, batchBody('upload', [p])));
    expect(again.objects[0].actions).toBeUndefined();
  });

  it('a batch call must accept the LFS media type (415)', async () => {
    const res = await s.request(lfsUrl('alice/big', 'objects/batch'), { method: 'POST', auth: as(bob), json: batchBody('download', []) });
    expect(res.status).toBe(415);
  });
});

describe('locks', () => {
  const locks = (rest: string) => lfsUrl('alice/big', `locks${rest}`);
  let lockId: string;

  it('git lfs lock takes a lock the API lists', async () => {
    const dir = tempDir('hearth-lfs-lock-');
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'big', alice.username, alice.password), 'c');
    const work = path.join(dir, 'c');
    await git(work, 'lfs', 'install', '--local');
    await git(work, 'lfs', 'lock', 'big.bin');
    expect(await git(work, 'lfs', 'locks')).toContain('big.bin');
    const body = await ok(await lfsCall(locks(''), 'GET', bob));
    expect(body.locks).toHaveLength(1);
    expect(body.locks[0]).toMatchObject({ path: 'big.bin', owner: { name: 'alice' } });
    expect(typeof body.locks[0].id).toBe('string');
    expect(Number.isNaN(Date.parse(body.locks[0].locked_at))).toBe(false);
    lockId = body.locks[0].id;
    const byPath = await ok(await lfsCall(`${locks('')}?path=big.bin`, 'GET', bob));
    expect(byPath.locks[0].id).toBe(lockId);
  }, 60_000);

  it('a second lock of the same path conflicts (409 with the lock)', async () => {
    const res = await lfsCall(locks(''), 'POST', bob, { path: 'big.bin' });
    expect(res.status).toBe(409);
    const body = await json(res);
    expect(body).toMatchObject({ message: 'already created lock', lock: { id: lockId } });
  });

  it('verify splits locks into ours and theirs', async () => {
    const mine = await ok(await lfsCall(locks('/verify'), 'POST', alice, {}));
    expect(mine.ours.map((l: { id: string }) => l.id)).toEqual([lockId]);
    expect(mine.theirs).toEqual([]);
    const other = await ok(await lfsCall(locks('/verify'), 'POST', bob, {}));
    expect(other.theirs.map((l: { id: string }) => l.id)).toEqual([lockId]);
    // Readers may list but not take or verify locks: asked for push access with a 401, as Gitea's lock handlers.
    const refused = await lfsCall(locks(''), 'POST', carol, { path: 'x.bin' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'You must have push access to create locks' });
  });

  it('another user cannot unlock, not even with force unless a repository admin', async () => {
    expect((await lfsCall(locks(`/${lockId}/unlock`), 'POST', bob, {})).status).toBe(403);
    expect((await lfsCall(locks(`/${lockId}/unlock`), 'POST', bob, { force: true })).status).toBe(403);
    const forced = await ok(await lfsCall(locks(`/${lockId}/unlock`), 'POST', s.admin, { force: true }));
    expect(forced.lock).toMatchObject({ id: lockId, path: 'big.bin', owner: { name: 'alice' } });
    expect((await ok(await lfsCall(locks(''), 'GET', bob))).locks).toEqual([]);
  });

  it('the owner unlocks their own lock', async () => {
    const created = await ok(await lfsCall(locks(''), 'POST', bob, { path: './dir/../other.bin' }), 201);
    expect(created.lock.path).toBe('other.bin');
    await ok(await lfsCall(locks(`/${created.lock.id}/unlock`), 'POST', bob, {}));
  });
});

describe('gc_lfs and deletion', () => {
  it('gc_lfs drops meta objects no ref points at and keeps the pushed one', async () => {
    const t = await startTestServer({
      HEARTH__CRON__GC_LFS__ENABLED: 'true', HEARTH__CRON__GC_LFS__OLDER_THAN: '0s', HEARTH__CRON__GC_LFS__LAST_UPDATED_MORE_THAN_AGO: '0s',
    });
    try {
      const owner = await createUser(t, 'dora');
      await createRepo(t, owner, 'gc');
      const dir = await lfsRepoDir();
      const kept = Buffer.from('kept object\n');
      fs.writeFileSync(path.join(dir, 'kept.bin'), kept);
      await git(dir, 'add', '-A');
      await git(dir, 'commit', '-q', '-m', 'kept');
      await git(dir, 'push', '-q', remoteUrl(t, 'dora', 'gc', owner.username, owner.password), 'main');
      const orphan = Buffer.from('nobody points at me\n');
      const put = await t.request(`dora/gc.git/info/lfs/objects/${sha256(orphan)}/${orphan.length}`, { method: 'PUT', auth: as(owner), body: orphan });
      expect(put.status).toBe(200);
      const stored = async (b: Buffer) => (await t.hearth.blobs.stat(blobKey(sha256(b)))) !== null;
      expect(await stored(orphan)).toBe(true);
      expect((await t.request('api/v1/admin/cron/gc_lfs', { method: 'POST', auth: as(t.admin) })).status).toBe(204);
      await cronOf(t.hearth.db)!.idle();
      expect(await stored(orphan)).toBe(false);
      expect(await stored(kept)).toBe(true);
      // Deleting the repository drops its meta objects and the bytes no one else uses.
      await ok(await t.request('api/v1/repos/dora/gc', { method: 'DELETE', auth: as(owner) }), 204);
      expect(await stored(kept)).toBe(false);
      expect(await t.hearth.db.selectFrom('lfs_meta_object').selectAll().execute()).toEqual([]);
    } finally {
      await t.stop();
    }
  }, 60_000);

  it('cleanup_packages leaves the bytes of a deleted package that are also an LFS object (shared store)', async () => {
    const t = await startTestServer({ HEARTH__CRON__CLEANUP_PACKAGES__OLDER_THAN: '0s' });
    try {
      const owner = await createUser(t, 'finn');
      await createRepo(t, owner, 'shared');
      const bytes = Buffer.from('the same bytes in two places\n');
      const oid = sha256(bytes);
      await ok(await t.request('api/packages/finn/generic/pkg/1.0/file.txt', { method: 'PUT', auth: as(owner), body: bytes }), 201);
      await ok(await t.request(`finn/shared.git/info/lfs/objects/${oid}/${bytes.length}`, { method: 'PUT', auth: as(owner), body: bytes }));
      await ok(await t.request('api/packages/finn/generic/pkg/1.0', { method: 'DELETE', auth: as(owner) }), 204);
      // cleanup_packages leaves blobs stored within the last second alone.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await t.request('api/v1/admin/cron/cleanup_packages', { method: 'POST', auth: as(t.admin) })).status).toBe(204);
      await cronOf(t.hearth.db)!.idle();
      expect(await t.hearth.db.selectFrom('package_blob').selectAll().execute()).toEqual([]);
      const res = await t.request(`finn/shared.git/info/lfs/objects/${oid}`, { auth: as(owner) });
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it('[server] lfs_start_server = false turns the LFS server off', async () => {
    const t = await startTestServer({ HEARTH__SERVER__LFS_START_SERVER: 'false' });
    try {
      const owner = await createUser(t, 'erin');
      await createRepo(t, owner, 'off');
      const res = await t.request('erin/off.git/info/lfs/objects/batch', {
        method: 'POST', auth: as(owner), headers: { Accept: LFS }, body: JSON.stringify({ operation: 'download', objects: [] }),
      });
      expect(res.status).toBe(404);
      expect((await ok(await t.request('api/v1/settings/repository'))).lfs_disabled).toBe(true);
    } finally {
      await t.stop();
    }
  });
});
