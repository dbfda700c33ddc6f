import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, org, repo } from '../helpers/gitea-extra';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { git, remoteUrl, tempDir } from '../helpers/git';

// Renamed users and organizations (Gitea's user_redirect): the old name's API paths and git
// URLs are sent to the new name (307 for the API, as Gitea's RedirectToUser; git follows the
// HTTP redirect), a private repository stays a 404 to those who may not see it, and an account
// taking the old name ends the redirect.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); }, 120_000);
afterAll(async () => { await g.stop(); });

const manual = { redirect: 'manual' as const };
const location = (res: Response) => new URL(res.headers.get('location')!, 'http://x').pathname + new URL(res.headers.get('location')!, 'http://x').search;

async function renameUser(from: string, to: string): Promise<void> {
  await g.call(`admin/users/${from}/rename`, { method: 'POST', auth: await g.basic('user1'), json: { new_username: to } }, 204);
}

describe('user rename redirects', () => {
  it('API paths of the old name answer 307 to the new name; following them reads the repository', async () => {
    await g.user('user8');
    await repo(g, 'user8', 'moving');
    await renameUser('user8', 'user8-renamed');
    const auth = await g.basic('user1');
    const res = await g.api('repos/user8/moving/branches?limit=5', { auth, ...manual });
    expect(res.status).toBe(307);
    expect(location(res)).toBe('/api/v1/repos/user8-renamed/moving/branches?limit=5');
    const followed = await g.call('repos/user8/moving', { auth });
    expect(followed.full_name).toBe('user8-renamed/moving');
    const user = await g.api('users/user8', { auth, ...manual });
    expect(user.status).toBe(307);
    expect(location(user)).toBe('/api/v1/users/user8-renamed');
    expect((await g.call('users/user8/repos', { auth })).map((r: { name: string }) => r.name)).toEqual(['moving']);
  });

  it('git clones through the old name', async () => {
    await g.user('user12');
    await repo(g, 'user12', 'cloned');
    await renameUser('user12', 'user12-renamed');
    const dir = path.join(tempDir(), 'c');
    await git(path.dirname(dir), 'clone', '-q', remoteUrl(g.s, 'user12', 'cloned'), dir);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it('a private repository under the old name stays 404 to a stranger and to anonymous callers', async () => {
    const owner = await g.user('user13');
    await repo(g, 'user13', 'secret', { private: true });
    await renameUser('user13', 'user13-renamed');
    expect((await g.api('repos/user13/secret', { ...manual })).status).toBe(404);
    expect((await g.api('repos/user13/secret', { auth: await g.basic('user4'), ...manual })).status).toBe(404);
    const own = await g.api('repos/user13/secret', { auth: as({ ...owner, username: 'user13-renamed' }), ...manual });
    expect(own.status).toBe(307);
    expect(location(own)).toBe('/api/v1/repos/user13-renamed/secret');
  });

  it('a new account taking the old name ends the redirect', async () => {
    await g.user('user15');
    await repo(g, 'user15', 'kept');
    await renameUser('user15', 'user15-renamed');
    const auth = await g.basic('user1');
    expect((await g.api('repos/user15/kept', { auth, ...manual })).status).toBe(307);
    await g.call('admin/users', { method: 'POST', auth, json: { username: 'user15', email: 'new15@example.com', password: 'pw-new-user15', must_change_password: false } }, 201);
    expect((await g.api('repos/user15/kept', { auth, ...manual })).status).toBe(404);
    expect((await g.call('users/user15', { auth })).email).toBe('new15@example.com');
  });

  it('renaming back to the old name works and drops the redirect', async () => {
    await g.user('user18');
    await repo(g, 'user18', 'back');
    await renameUser('user18', 'user18-renamed');
    await renameUser('user18-renamed', 'user18');
    const auth = await g.basic('user1');
    expect((await g.call('repos/user18/back', { auth })).full_name).toBe('user18/back');
    const res = await g.api('repos/user18-renamed/back', { auth, ...manual });
    expect(res.status).toBe(307);
    expect(location(res)).toBe('/api/v1/repos/user18/back');
  });
});

describe('organization rename redirects', () => {
  it('the old name\'s organization and repository paths answer 307 to the new name', async () => {
    await org(g, 'org-old', 'user2', { visibility: 'public' });
    await repo(g, 'org-old', 'tools', {}, 'user2');
    const auth = await g.basic('user2');
    await g.call('orgs/org-old/rename', { method: 'POST', auth, json: { new_name: 'org-new' } }, 204);
    const orgRes = await g.api('orgs/org-old/repos', { auth, ...manual });
    expect(orgRes.status).toBe(307);
    expect(location(orgRes)).toBe('/api/v1/orgs/org-new/repos');
    const repoRes = await g.api('repos/org-old/tools', { auth, ...manual });
    expect(repoRes.status).toBe(307);
    expect(location(repoRes)).toBe('/api/v1/repos/org-new/tools');
    expect((await g.call('repos/org-old/tools', { auth })).full_name).toBe('org-new/tools');
  });
});
