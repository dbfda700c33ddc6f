import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { createRepo, git, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
const dirs: string[] = [];

const admin = () => ({ basic: [s.admin.username, s.admin.password] as [string, string] });
// The audit record is flat, as the seed gives it.
type AuditRow = { operator_name: string; target_type: string; target_id: number; target_name: string };
const auditRows = async (op: string) => (await ok(await s.request(`api/v1/admin/audit-logs?operation_type=${op}`, { auth: admin() }))) as AuditRow[];
const bareDir = (owner: string, name: string) => path.join(s.hearth.config.repository.root, owner, `${name}.git`);

/** A bare repository made with git alone, beside the server's: branches main and dev, HEAD on dev, a tag. */
async function makeBare(owner: string, name: string): Promise<string> {
  const wt = await workTree({ 'README.md': '# found on disk\n', 'src/a.txt': 'a\n' });
  dirs.push(wt);
  await git(wt, 'checkout', '-q', '-b', 'dev');
  fs.writeFileSync(path.join(wt, 'dev.txt'), 'dev\n');
  await git(wt, 'add', '-A');
  await git(wt, 'commit', '-q', '-m', 'on dev');
  await git(wt, 'tag', 'v1.0');
  const bare = bareDir(owner, name);
  await git(wt, 'clone', '-q', '--bare', wt, bare);
  await git(bare, 'symbolic-ref', 'HEAD', 'refs/heads/dev');
  // A hook left behind by whoever made it: never run by the server.
  fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  return bare;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'adopted-already', { auto_init: true });
  await createOrg(s, alice, 'crew');
  await makeBare('alice', 'found');
  await makeBare('alice', 'junk');
  await makeBare('crew', 'tools');
  await makeBare('nobody-here', 'orphan'); // no such user: never listed
});
afterAll(async () => {
  await s.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('GET /admin/unadopted', () => {
  it('lists directories without a row as owner/name, paged', async () => {
    const res = await s.request('api/v1/admin/unadopted', { auth: admin() });
    const names = await ok(res);
    // The reference's StringSlice response.
    expect(names.every((n: unknown) => typeof n === 'string')).toBe(true);
    expect(names).toEqual(['alice/found', 'alice/junk', 'crew/tools']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(await ok(await s.request('api/v1/admin/unadopted?limit=2&page=2', { auth: admin() }))).toEqual(['crew/tools']);
  });

  it('filters with a pattern (owner glob / name glob); Gitea\'s `query` works too', async () => {
    expect(await ok(await s.request('api/v1/admin/unadopted?pattern=crew', { auth: admin() }))).toEqual(['crew/tools']);
    expect(await ok(await s.request('api/v1/admin/unadopted?pattern=alice/f*', { auth: admin() }))).toEqual(['alice/found']);
    expect(await ok(await s.request('api/v1/admin/unadopted?query=*/j*', { auth: admin() }))).toEqual(['alice/junk']);
  });

  it('is for site admins only', async () => {
    expect((await s.request('api/v1/admin/unadopted', { auth: as(alice) })).status).toBe(403);
  });
});

describe('POST /admin/unadopted/{owner}/{repo}', () => {
  it('adopts: a private repository built from the bare one, HEAD\'s branch as default, cloneable', async () => {
    await ok(await s.request('api/v1/admin/unadopted/alice/found', { method: 'POST', auth: admin() }), 204);
    const repo = await ok(await s.request('api/v1/repos/alice/found', { auth: as(alice) }));
    expectShape(repo, 'Repository');
    expect(repo).toMatchObject({ name: 'found', private: true, empty: false, default_branch: 'dev' });
    expect(repo.size).toBeGreaterThan(0);
    const branches = await ok(await s.request('api/v1/repos/alice/found/branches', { auth: as(alice) }));
    expect(branches.map((b: { name: string }) => b.name).sort()).toEqual(['dev', 'main']);
    const tags = await ok(await s.request('api/v1/repos/alice/found/tags', { auth: as(alice) }));
    expect(tags.map((t: { name: string }) => t.name)).toEqual(['v1.0']);

    const clone = tempDir();
    dirs.push(clone);
    await git(clone, 'clone', '-q', remoteUrl(s, 'alice', 'found', alice.username, alice.password), 'c');
    expect(fs.readFileSync(path.join(clone, 'c', 'dev.txt'), 'utf8')).toBe('dev\n');
    // The directory's own hooks are gone: a push lands.
    fs.writeFileSync(path.join(clone, 'c', 'more.txt'), 'more\n');
    await git(path.join(clone, 'c'), 'add', '-A');
    await git(path.join(clone, 'c'), 'commit', '-q', '-m', 'after adoption');
    await git(path.join(clone, 'c'), 'push', '-q', 'origin', 'dev');
    const dev = await ok(await s.request('api/v1/repos/alice/found/branches/dev', { auth: as(alice) }));
    expect(dev.commit.message.trim()).toBe('after adoption');

    const listed = await ok(await s.request('api/v1/admin/unadopted', { auth: admin() }));
    expect(listed).toEqual(['alice/junk', 'crew/tools']);
    // The audit log has the adoption, by the admin, on the new row.
    expect(await auditRows('repo.adopt')).toEqual([expect.objectContaining({
      operator_name: s.admin.username, target_type: 'repo', target_id: repo.id, target_name: 'alice/found',
    })]);
  });

  it('adopts into an organization', async () => {
    await ok(await s.request('api/v1/admin/unadopted/crew/tools', { method: 'POST', auth: admin() }), 204);
    const repo = await ok(await s.request('api/v1/repos/crew/tools', { auth: as(alice) }));
    expect(repo.owner.login).toBe('crew');
    expect(repo.permissions.admin).toBe(true);
  });

  it('answers 404 for a repository that has a row, a missing directory or owner', async () => {
    for (const p of ['alice/adopted-already', 'alice/nothing', 'nobody-here/orphan']) {
      expect((await s.request(`api/v1/admin/unadopted/${p}`, { method: 'POST', auth: admin() })).status, p).toBe(404);
    }
    expect((await s.request('api/v1/admin/unadopted/alice/junk', { method: 'POST', auth: as(alice) })).status).toBe(403);
  });

  it('refuses a directory that is not a bare repository (422)', async () => {
    fs.mkdirSync(bareDir('alice', 'notgit'), { recursive: true });
    fs.writeFileSync(path.join(bareDir('alice', 'notgit'), 'hello.txt'), 'hi');
    expect((await s.request('api/v1/admin/unadopted/alice/notgit', { method: 'POST', auth: admin() })).status).toBe(422);
    expect((await s.request('api/v1/repos/alice/notgit', { auth: as(alice) })).status).toBe(404);
  });
});

describe('DELETE /admin/unadopted/{owner}/{repo}', () => {
  it('removes the directory (204); a repository with a row is not touched (404)', async () => {
    await ok(await s.request('api/v1/admin/unadopted/alice/junk', { method: 'DELETE', auth: admin() }), 204);
    expect(fs.existsSync(bareDir('alice', 'junk'))).toBe(false);
    expect((await s.request('api/v1/admin/unadopted/alice/junk', { method: 'DELETE', auth: admin() })).status).toBe(404);
    expect((await s.request('api/v1/admin/unadopted/alice/adopted-already', { method: 'DELETE', auth: admin() })).status).toBe(404);
    expect(fs.existsSync(bareDir('alice', 'adopted-already'))).toBe(true);
    await ok(await s.request('api/v1/admin/unadopted/alice/notgit', { method: 'DELETE', auth: admin() }), 204);
    expect(await ok(await s.request('api/v1/admin/unadopted', { auth: admin() }))).toEqual([]);
    expect((await auditRows('repo.unadopted.delete')).map((r) => r.target_name).sort()).toEqual(['alice/junk', 'alice/notgit']);
  });
});
