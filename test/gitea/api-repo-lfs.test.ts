import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_lfs_test.go: the git-lfs batch, upload and verify
// endpoints under /{owner}/{repo}.git/info/lfs. Gitea writes objects into its content store
// directly; here they go in through the upload endpoint (of another repository when the object
// must be in the store but not linked to the repository under test). Basic auth for the session.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const LFS = 'application/vnd.git-lfs+json';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
type Obj = { oid: string; size: number; error?: { code: number; message: string }; actions?: Record<string, { href: string }> };

async function lfsRepo(name: string): Promise<string> {
  await repo(g, 'user2', `lfs-${name}-repo`);
  return `user2/lfs-${name}-repo`;
}

/** Gitea's storeObjectInRepo: `text` uploaded into `full`; its oid. */
async function store(full: string, text: string, by = 'user2'): Promise<string> {
  const oid = sha(text);
  const res = await g.s.request(`${full}.git/info/lfs/objects/${oid}/${text.length}`, { method: 'PUT', auth: await g.basic(by), body: text });
  expect(res.status).toBe(200);
  return oid;
}

async function batch(full: string, body: unknown, server = g): Promise<{ status: number; objects: Obj[] }> {
  const res = await server.s.request(`${full}.git/info/lfs/objects/batch`, {
    method: 'POST', auth: await server.basic('user2'), headers: { Accept: LFS, 'Content-Type': LFS }, body: body === null ? 'null' : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, objects: res.status === 200 ? (JSON.parse(text) as { objects: Obj[] }).objects : [] };
}

describe('api_repo_lfs_test', () => {
  it('TestAPILFSNotStarted', async () => {
    const off = await startGitea({ HEARTH__SERVER__LFS_START_SERVER: 'false' });
    try {
      await off.repo1();
      for (const [method, path] of [['POST', 'objects/batch'], ['PUT', 'objects/oid/10'], ['GET', 'objects/oid/name'], ['GET', 'objects/oid'], ['POST', 'verify']] as const) {
        expect((await off.s.request(`user2/repo1.git/info/lfs/${path}`, { method })).status, `${method} ${path}`).toBe(404);
      }
    } finally {
      await off.stop();
    }
  });

  it('TestAPILFSMediaType', async () => {
    await g.repo1();
    expect((await g.s.request('user2/repo1.git/info/lfs/objects/batch', { method: 'POST' })).status).toBe(415);
    expect((await g.s.request('user2/repo1.git/info/lfs/verify', { method: 'POST' })).status).toBe(415);
  });

  describe('TestAPILFSBatch', () => {
    const world = async () => {
      const full = await lfsRepo('batch');
      return { full, oid: await store(full, 'dummy1') };
    };

    it('TestAPILFSBatch/InvalidJsonRequest', async () => {
      const { full } = await world();
      expect((await batch(full, null)).status).toBe(400);
    });

    it('TestAPILFSBatch/InvalidOperation', async () => {
      const { full } = await world();
      expect((await batch(full, { operation: 'dummy' })).status).toBe(400);
    });

    it('TestAPILFSBatch/InvalidPointer', async () => {
      const { full, oid } = await world();
      const { objects } = await batch(full, { operation: 'download', objects: [{ oid: 'dummy' }, { oid, size: -1 }] });
      expect(objects).toHaveLength(2);
      expect(objects[0]).toMatchObject({ oid: 'dummy', size: 0, error: { code: 422, message: 'Oid or size are invalid' } });
      expect(objects[1]).toMatchObject({ oid, size: -1, error: { code: 422, message: 'Oid or size are invalid' } });
    });

    it('TestAPILFSBatch/PointerSizeMismatch', async () => {
      const { full, oid } = await world();
      const { objects } = await batch(full, { operation: 'download', objects: [{ oid, size: 1 }] });
      expect(objects[0]!.error).toEqual({ code: 422, message: `Object ${oid} is not 1 bytes` });
    });

    it('TestAPILFSBatch/Download/PointerNotInStore', async () => {
      const { full } = await world();
      const { objects } = await batch(full, { operation: 'download', objects: [{ oid: sha('dummy2'), size: 6 }] });
      expect(objects[0]!.error?.code).toBe(404);
    });

    it('TestAPILFSBatch/Download/MetaNotFound', async () => {
      const { full } = await world();
      // In the store through another repository, not linked to this one.
      const oid = await store(await lfsRepo('batch-other'), 'dummy0');
      const { objects } = await batch(full, { operation: 'download', objects: [{ oid, size: 6 }] });
      expect(objects[0]!.error?.code).toBe(404);
    });

    it('TestAPILFSBatch/Download/Success', async () => {
      const { full, oid } = await world();
      const { objects } = await batch(full, { operation: 'download', objects: [{ oid, size: 6 }] });
      expect(objects[0]!.error).toBeUndefined();
      expect(objects[0]!.actions?.download?.href).toBeTruthy();
    });

    it('TestAPILFSBatch/Upload/FileTooBig', async () => {
      const small = await startGitea({ HEARTH__SERVER__LFS_MAX_FILE_SIZE: '2' });
      try {
        await repo(small, 'user2', 'lfs-batch-repo');
        const { objects } = await batch('user2/lfs-batch-repo', { operation: 'upload', objects: [{ oid: sha('dummy2'), size: 6 }] }, small);
        expect(objects[0]!.error).toEqual({ code: 422, message: 'Size must be less than or equal to 2' });
      } finally {
        await small.stop();
      }
    });

    it('TestAPILFSBatch/Upload/AddMeta', async () => {
      const { full } = await world();
      const oid = await store(await lfsRepo('batch2'), 'dummy0');
      const { objects } = await batch(full, { operation: 'upload', objects: [{ oid, size: 6 }] });
      expect(objects[0]!.error).toBeUndefined();
      expect(objects[0]!.actions ?? {}).toEqual({});
      // Now linked: a download of it answers with a link.
      expect((await batch(full, { operation: 'download', objects: [{ oid, size: 6 }] })).objects[0]!.actions?.download).toBeTruthy();
    });

    it('TestAPILFSBatch/Upload/AlreadyExists', async () => {
      const { full, oid } = await world();
      const { objects } = await batch(full, { operation: 'upload', objects: [{ oid, size: 6 }] });
      expect(objects[0]!.error).toBeUndefined();
      expect(objects[0]!.actions ?? {}).toEqual({});
    });

    it('TestAPILFSBatch/Upload/NewFile', async () => {
      const { full } = await world();
      const { objects } = await batch(full, { operation: 'upload', objects: [{ oid: sha('new-file'), size: 1 }] });
      expect(objects[0]!.error).toBeUndefined();
      expect(objects[0]!.actions?.upload?.href).toBeTruthy();
      expect(objects[0]!.actions?.verify?.href).toBeTruthy();
    });
  });

  describe('TestAPILFSUpload', () => {
    const put = async (full: string, oid: string, size: number, body: string) =>
      (await g.s.request(`${full}.git/info/lfs/objects/${oid}/${size}`, { method: 'PUT', auth: await g.basic('user2'), body })).status;
    const world = async () => {
      const full = await lfsRepo('upload');
      return { full, oid: await store(full, 'dummy3') };
    };

    it('TestAPILFSUpload/InvalidPointer', async () => {
      const { full } = await world();
      expect(await put(full, 'dummy', 0, '')).toBe(422);
    });

    it('TestAPILFSUpload/AlreadyExistsInStore', async () => {
      const { full } = await world();
      // In the store through a private repository of user5, which user2 cannot read: the
      // upload must prove it has the bytes.
      await repo(g, 'user5', 'lfs-hidden', { private: true });
      const oid = await store('user5/lfs-hidden', 'dummy5', 'user5');
      expect(await put(full, oid, 6, 'invalid')).toBe(422);
      expect(await put(full, oid, 6, 'dummy5')).toBe(200);
      expect((await batch(full, { operation: 'download', objects: [{ oid, size: 6 }] })).objects[0]!.actions?.download).toBeTruthy();
    });

    it('TestAPILFSUpload/MetaAlreadyExists', async () => {
      const { full, oid } = await world();
      expect(await put(full, oid, 6, '')).toBe(200);
    });

    it('TestAPILFSUpload/HashMismatch', async () => {
      const { full } = await world();
      expect(await put(full, sha('b'), 1, 'a')).toBe(422);
    });

    it('TestAPILFSUpload/SizeMismatch', async () => {
      const { full } = await world();
      expect(await put(full, sha('a'), 2, 'a')).toBe(422);
    });

    it('TestAPILFSUpload/Success', async () => {
      const { full } = await world();
      const oid = sha('gitea');
      expect(await put(full, oid, 5, 'gitea')).toBe(200);
      const got = await g.s.request(`${full}.git/info/lfs/objects/${oid}`, { auth: await g.basic('user2') });
      expect(await got.text()).toBe('gitea');
    });
  });

  describe('TestAPILFSVerify', () => {
    const verify = async (full: string, body: string) => (await g.s.request(`${full}.git/info/lfs/verify`, {
      method: 'POST', auth: await g.basic('user2'), headers: { Accept: LFS, 'Content-Type': LFS }, body,
    })).status;
    const world = async () => {
      const full = await lfsRepo('verify');
      return { full, oid: await store(full, 'dummy3') };
    };

    it('TestAPILFSVerify/InvalidJsonRequest', async () => {
      const { full } = await world();
      expect(await verify(full, 'null')).toBe(422);
    });

    it('TestAPILFSVerify/InvalidPointer', async () => {
      const { full } = await world();
      expect(await verify(full, '{}')).toBe(422);
    });

    it('TestAPILFSVerify/PointerNotExisting', async () => {
      const { full } = await world();
      expect(await verify(full, JSON.stringify({ oid: sha('dummy2'), size: 6 }))).toBe(404);
    });

    it('TestAPILFSVerify/Success', async () => {
      const { full, oid } = await world();
      expect(await verify(full, JSON.stringify({ oid, size: 6 }))).toBe(200);
    });
  });
});
