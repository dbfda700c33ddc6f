import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

let s: TestServer;
let alice: { username: string; password: string; id: number };

const get = (p: string) => s.request(`api/v1/${p}`, { auth: as(alice) });
const license = (name: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'assets', 'options', 'license', name), 'utf8');

beforeAll(async () => {
  s = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(s, 'alice');
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/licenses', () => {
  it('a repository created with the MIT template answers ["MIT"], also in the Repository JSON', async () => {
    const created = await createRepo(s, alice, 'mit', { auto_init: true, license: 'MIT' });
    expect(created.licenses).toEqual(['MIT']);
    const list = await ok(await get('repos/alice/mit/licenses'));
    expect(list).toEqual(['MIT']);
    const repo = await ok(await get('repos/alice/mit'));
    expectShape(repo, 'Repository');
    expect(repo.licenses).toEqual(['MIT']);
  });

  it('a repository generated from a template and a migrated one come with their licenses', async () => {
    await ok(await s.request('api/v1/repos/alice/mit', { method: 'PATCH', auth: as(alice), json: { template: true } }));
    await ok(await s.request('api/v1/repos/alice/mit/generate', {
      method: 'POST', auth: as(alice), json: { owner: 'alice', name: 'gen', git_content: true },
    }), 201);
    expect(await ok(await get('repos/alice/gen/licenses'))).toEqual(['MIT']);
    await ok(await s.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(alice),
      json: { clone_addr: `${s.hearth.config.server.root_url}alice/mit.git`, repo_name: 'migrated', auth_username: 'alice', auth_password: alice.password },
    }), 201);
    expect(await ok(await get('repos/alice/migrated/licenses'))).toEqual(['MIT']);
  });

  it('the template chosen at creation is the license, as Gitea records it (not its alias)', async () => {
    const created = await createRepo(s, alice, 'gpl', { auto_init: true, license: 'GPL-3.0-or-later' });
    expect(created.licenses).toEqual(['GPL-3.0-or-later']);
    expect(await ok(await get('repos/alice/gpl/licenses'))).toEqual(['GPL-3.0-or-later']);
  });

  it('answers [] for a repository without a license file and for an empty one', async () => {
    await createRepo(s, alice, 'plain', { auto_init: true });
    await createRepo(s, alice, 'empty');
    expect(await ok(await get('repos/alice/plain/licenses'))).toEqual([]);
    expect(await ok(await get('repos/alice/empty/licenses'))).toEqual([]);
  });

  it('follows pushes to the default branch: a reflowed Apache text with a copyright line is recognised, a removal clears it', async () => {
    await createRepo(s, alice, 'pushed', { auto_init: true });
    const dir = path.join(tempDir(), 'c');
    await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, 'alice', 'pushed', alice.username, alice.password), 'c');
    const text = `# License\n\nCopyright 2024 Alice\n\n${license('Apache-2.0').replace(/\s+/g, ' ')}`;
    fs.writeFileSync(path.join(dir, 'LICENSE.md'), text);
    fs.writeFileSync(path.join(dir, 'COPYING'), license('GPL-3.0-or-later'));
    await git(dir, 'add', '-A');
    await git(dir, '-c', 'user.name=a', '-c', 'user.email=a@x', 'commit', '-q', '-m', 'license');
    await git(dir, 'push', '-q', 'origin', 'main');
    expect(await ok(await get('repos/alice/pushed/licenses'))).toEqual(['Apache-2.0', 'GPL-3.0']);

    // A push to another branch leaves them alone.
    await git(dir, 'checkout', '-q', '-b', 'other');
    await git(dir, 'rm', '-q', 'LICENSE.md', 'COPYING');
    await git(dir, '-c', 'user.name=a', '-c', 'user.email=a@x', 'commit', '-q', '-m', 'drop');
    await git(dir, 'push', '-q', 'origin', 'other');
    expect(await ok(await get('repos/alice/pushed/licenses'))).toEqual(['Apache-2.0', 'GPL-3.0']);

    // Making the branch without them the default branch: the licenses follow at once.
    const edited = await ok(await s.request('api/v1/repos/alice/pushed', { method: 'PATCH', auth: as(alice), json: { default_branch: 'other' } }));
    expect(edited.licenses).toEqual([]);
    await ok(await s.request('api/v1/repos/alice/pushed', { method: 'PATCH', auth: as(alice), json: { default_branch: 'main' } }));
    expect(await ok(await get('repos/alice/pushed/licenses'))).toEqual(['Apache-2.0', 'GPL-3.0']);

    await git(dir, 'push', '-q', 'origin', 'other:main');
    expect(await ok(await get('repos/alice/pushed/licenses'))).toEqual([]);
  });

  it('a file that is not a known license is not reported', async () => {
    await createRepo(s, alice, 'custom', { auto_init: true });
    const res = await s.request('api/v1/repos/alice/custom/contents/LICENSE', {
      method: 'POST', auth: as(alice), json: { content: Buffer.from('All rights reserved. Do not copy.\n').toString('base64') },
    });
    await ok(res, 201);
    expect(await ok(await get('repos/alice/custom/licenses'))).toEqual([]);
  });

  it('the sync_repo_licenses cron task is listed, disabled by default, and runs', async () => {
    const admin = { auth: { basic: [s.admin.username, s.admin.password] as [string, string] } };
    const tasks = await ok(await s.request('api/v1/admin/cron?limit=50', admin));
    const task = tasks.find((t: { name: string }) => t.name === 'sync_repo_licenses');
    expect(task).toMatchObject({ schedule: '-' });
    await ok(await s.request('api/v1/admin/cron/sync_repo_licenses', { method: 'POST', ...admin }), 204);
  });
});
