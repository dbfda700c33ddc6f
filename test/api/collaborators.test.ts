import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, gitTry, remoteUrl, tempDir } from '../helpers/git';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectRepoShape } from '../helpers/repo-shape';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;

const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const collab = (name: string, repo = 'secret') => `api/v1/repos/alice/${repo}/collaborators/${name}`;
const putCollab = (who: { username: string; password: string }, name: string, body: unknown = {}, repo = 'secret') =>
  s.request(collab(name, repo), { method: 'PUT', ...as(who), json: body });

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'secret', { auto_init: true, private: true });
  await createRepo(s, alice, 'open', { auto_init: true });
});
afterAll(async () => { await s.stop(); });

describe('a private repository shared with a collaborator', () => {
  it('is invisible to others before sharing: 404 over the API and over git', async () => {
    expect((await s.request('api/v1/repos/alice/secret', as(bob))).status).toBe(404);
    const r = await gitTry(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'secret', bob.username, bob.password), 'c');
    expect(r.code).not.toBe(0);
    expect((await s.request(collab('bob'), as(bob))).status).toBe(404);
  });

  it('PUT adds a read collaborator (204); check answers 204 and the list shows them', async () => {
    const res = await putCollab(alice, 'bob', { permission: 'read' });
    expect(res.status).toBe(204);
    expect((await s.request(collab('bob'), as(alice))).status).toBe(204);
    const list = await s.request('api/v1/repos/alice/secret/collaborators', as(alice));
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    const body = await json(list);
    expectShape(body, '[User]');
    expect(body.map((u: { login: string }) => u.login)).toEqual(['bob']);
  });

  it('the collaborator can GET the repository with pull permission only', async () => {
    const res = await s.request('api/v1/repos/alice/secret', as(bob));
    expect(res.status).toBe(200);
    const body = await json(res);
    expectRepoShape(body);
    expect(body.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  it('the collaborator clones with the real git CLI but may not push with read', async () => {
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'secret', bob.username, bob.password), 'c');
    const wt = path.join(dir, 'c');
    expect(fs.readFileSync(path.join(wt, 'README.md'), 'utf8')).toContain('secret');
    fs.writeFileSync(path.join(wt, 'bob.txt'), 'hi');
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', 'bob');
    const push = await gitTry(wt, 'push', '-q', 'origin', 'HEAD');
    expect(push.code).not.toBe(0);
  });

  it('write permission lets the collaborator push', async () => {
    expect((await putCollab(alice, 'bob', { permission: 'write' })).status).toBe(204);
    const dir = tempDir();
    await git(dir, 'clone', '-q', remoteUrl(s, 'alice', 'secret', bob.username, bob.password), 'c');
    const wt = path.join(dir, 'c');
    fs.writeFileSync(path.join(wt, 'bob.txt'), 'hi');
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', 'bob');
    await git(wt, 'push', '-q', 'origin', 'HEAD');
    const perm = await json(await s.request(`${collab('bob')}/permission`, as(alice)));
    expect(perm.permission).toBe('write');
  });

  it('a non-collaborator still gets 404', async () => {
    expect((await s.request('api/v1/repos/alice/secret', as(carol))).status).toBe(404);
    const r = await gitTry(tempDir(), 'clone', '-q', remoteUrl(s, 'alice', 'secret', carol.username, carol.password), 'c');
    expect(r.code).not.toBe(0);
  });

  it('DELETE removes the collaborator (204): access goes with it', async () => {
    expect((await s.request(collab('bob'), { method: 'DELETE', ...as(alice) })).status).toBe(204);
    expect((await s.request('api/v1/repos/alice/secret', as(bob))).status).toBe(404);
    expect((await s.request(collab('bob'), as(alice))).status).toBe(404);
    // Removing someone who is not a collaborator is not an error either.
    expect((await s.request(collab('bob'), { method: 'DELETE', ...as(alice) })).status).toBe(204);
  });
});

describe('collaborator permission', () => {
  beforeAll(async () => {
    expect((await putCollab(alice, 'bob', { permission: 'read' }, 'open')).status).toBe(204);
  });

  it('reports the mode name as permission and role_name', async () => {
    const res = await s.request(`${collab('bob', 'open')}/permission`, as(alice));
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'RepoCollaboratorPermission');
    expect(body).toMatchObject({ permission: 'read', role_name: 'read', user: { login: 'bob' } });
  });

  it('reports owner for the owner and read for anyone on a public repository', async () => {
    expect((await json(await s.request(`${collab('alice', 'open')}/permission`, as(alice)))).permission).toBe('owner');
    expect((await json(await s.request(`${collab('carol', 'open')}/permission`, as(alice)))).permission).toBe('read');
  });

  it('a collaborator may ask about themselves only (403 otherwise)', async () => {
    expect((await s.request(`${collab('bob', 'open')}/permission`, as(bob))).status).toBe(200);
    const res = await s.request(`${collab('alice', 'open')}/permission`, as(bob));
    expect(res.status).toBe(403);
    expectShape(await json(res), 'APIError');
  });

  it('an unknown user is 404', async () => {
    expect((await s.request(`${collab('nobody', 'open')}/permission`, as(alice))).status).toBe(404);
  });

  it('site admins may ask about anyone', async () => {
    const res = await s.request(`${collab('bob', 'open')}/permission`, as(s.admin));
    expect(res.status).toBe(200);
  });
});

describe('who may manage collaborators, and bad input', () => {
  it('a write collaborator may not add others (403); an admin collaborator may', async () => {
    expect((await putCollab(alice, 'bob', { permission: 'write' }, 'open')).status).toBe(204);
    expect((await putCollab(bob, 'carol', {}, 'open')).status).toBe(403);
    expect((await putCollab(alice, 'bob', { permission: 'admin' }, 'open')).status).toBe(204);
    expect((await putCollab(bob, 'carol', {}, 'open')).status).toBe(204);
    const perm = await json(await s.request(`${collab('carol', 'open')}/permission`, as(alice)));
    expect(perm.permission).toBe('write'); // the default
  });

  it('an unknown user, the owner or an invalid permission is 422', async () => {
    for (const [name, body] of [['nobody', {}], ['alice', {}], ['carol', { permission: 'owner' }]] as const) {
      const res = await putCollab(alice, name, body, 'open');
      expect(res.status, name).toBe(422);
      expectShape(await json(res), 'APIError');
    }
    expect((await s.request(collab('nobody', 'open'), as(alice))).status).toBe(422);
    expect((await s.request(collab('nobody', 'open'), { method: 'DELETE', ...as(alice) })).status).toBe(422);
  });

  it('needs a signed-in caller (401) and a repository token scope', async () => {
    expect((await s.request('api/v1/repos/alice/open/collaborators')).status).toBe(401);
    const readOnly = await createToken(s, alice, ['read:repository']);
    expect((await s.request('api/v1/repos/alice/open/collaborators', { auth: { token: readOnly } })).status).toBe(200);
    const res = await s.request(collab('carol', 'open'), { method: 'PUT', auth: { token: readOnly }, json: {} });
    expect(res.status).toBe(403);
  });

  it('pages the list with Gitea headers', async () => {
    const res = await s.request('api/v1/repos/alice/open/collaborators?limit=1', as(alice));
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(await json(res)).toHaveLength(1);
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('removing a collaborator stops their watch, as Gitea', async () => {
    expect((await s.request('api/v1/repos/alice/open/subscription', { method: 'PUT', ...as(carol) })).status).toBe(200);
    const before = (await json(await s.request('api/v1/repos/alice/open', as(alice)))).watchers_count;
    expect((await s.request(collab('carol', 'open'), { method: 'DELETE', ...as(alice) })).status).toBe(204);
    const after = (await json(await s.request('api/v1/repos/alice/open', as(alice)))).watchers_count;
    expect(after).toBe(before - 1);
  });
});
