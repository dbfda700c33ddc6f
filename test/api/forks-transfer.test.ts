import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, tempDir } from '../helpers/git';
import { expectRepoShape } from '../helpers/repo-shape';
import { createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;

const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const call = (method: string, p: string, who?: { username: string; password: string }, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...(who ? as(who) : {}), ...(body === undefined ? {} : { json: body }), redirect: 'manual' });
const repoJson = async (p: string, who: Creds = alice) => json(await call('GET', `repos/${p}`, who));
const onDisk = (owner: string, name: string) => fs.existsSync(path.join(s.hearth.config.repository.root, owner, `${name}.git`));

async function cloneHead(owner: string, name: string, who: Creds): Promise<{ dir: string; head: string }> {
  const dir = path.join(tempDir(), 'c');
  await git(path.dirname(dir), 'clone', '-q', remoteUrl(s, owner, name, who.username, who.password), 'c');
  return { dir, head: (await git(dir, 'rev-parse', 'HEAD')).trim() };
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'proj', { auto_init: true, description: 'the project' });
  await createRepo(s, alice, 'hidden', { auto_init: true, private: true });
});
afterAll(async () => { await s.stop(); });

describe('forks', () => {
  let parentHead: string;

  it('POST /forks answers 202 with the fork and its parent', async () => {
    parentHead = (await cloneHead('alice', 'proj', alice)).head;
    const res = await call('POST', 'repos/alice/proj/forks', bob, {});
    expect(res.status).toBe(202);
    const body = await json(res);
    expectRepoShape(body);
    expect(body).toMatchObject({
      full_name: 'bob/proj', fork: true, description: 'the project', empty: false, default_branch: 'main',
      permissions: { admin: true, push: true, pull: true }, parent: { full_name: 'alice/proj' },
    });
    expect((await repoJson('alice/proj')).forks_count).toBe(1);
    const got = await repoJson('bob/proj', bob);
    expect(got.parent.full_name).toBe('alice/proj');
  });

  it('the fork clones with the real git CLI and has the parent\'s commits', async () => {
    const { dir, head } = await cloneHead('bob', 'proj', bob);
    expect(head).toBe(parentHead);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('proj');
    // It is a separate repository: a push to the fork leaves the parent alone.
    fs.writeFileSync(path.join(dir, 'fork.txt'), 'only in the fork');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'fork work');
    await git(dir, 'push', '-q', 'origin', 'HEAD');
    expect((await cloneHead('alice', 'proj', alice)).head).toBe(parentHead);
  });

  it('GET /forks lists the forks (paged)', async () => {
    const res = await call('GET', 'repos/alice/proj/forks');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    const list = await json(res);
    expectRepoShape(list, true);
    expect(list.map((r: { full_name: string }) => r.full_name)).toEqual(['bob/proj']);
  });

  it('forking twice into the same owner is 409, as is the own repository under its name', async () => {
    expect((await call('POST', 'repos/alice/proj/forks', bob, { name: 'again' })).status).toBe(409);
    const own = await call('POST', 'repos/alice/proj/forks', alice, {});
    expect(own.status).toBe(409);
    expectShape(await json(own), 'APIError');
  });

  it('the owner may fork under a new name', async () => {
    const res = await call('POST', 'repos/alice/proj/forks', alice, { name: 'proj-copy' });
    expect(res.status).toBe(202);
    expect((await json(res)).full_name).toBe('alice/proj-copy');
    expect(onDisk('alice', 'proj-copy')).toBe(true);
  });

  it('an unknown organization is 422; an invalid name is 422', async () => {
    expect((await call('POST', 'repos/alice/proj/forks', carol, { organization: 'no-such-org' })).status).toBe(422);
    expect((await call('POST', 'repos/alice/proj/forks', carol, { name: 'bad name' })).status).toBe(422);
    expect(onDisk('carol', 'proj')).toBe(false);
  });

  it('a private repository forks only for readers, and the fork stays private', async () => {
    expect((await call('POST', 'repos/alice/hidden/forks', carol, {})).status).toBe(404);
    expect((await call('PUT', 'repos/alice/hidden/collaborators/carol', alice, { permission: 'read' })).status).toBe(204);
    const res = await call('POST', 'repos/alice/hidden/forks', carol, {});
    expect(res.status).toBe(202);
    expect((await json(res)).private).toBe(true);
  });

  it('an empty repository forks into an empty fork', async () => {
    await createRepo(s, alice, 'nothing-yet');
    const res = await call('POST', 'repos/alice/nothing-yet/forks', bob, {});
    expect(res.status).toBe(202);
    expect(await json(res)).toMatchObject({ full_name: 'bob/nothing-yet', empty: true, fork: true });
  });

  it('deleting the parent leaves its forks as plain repositories (bug: fork stayed true without a parent)', async () => {
    await createRepo(s, carol, 'short-lived', { auto_init: true });
    expect((await call('POST', 'repos/carol/short-lived/forks', bob, { name: 'orphan' })).status).toBe(202);
    expect(await repoJson('bob/orphan', bob)).toMatchObject({ fork: true, parent: { full_name: 'carol/short-lived' } });
    expect((await call('DELETE', 'repos/carol/short-lived', carol)).status).toBe(204);
    const orphan = await repoJson('bob/orphan', bob);
    expect(orphan.fork).toBe(false);
    expect(orphan.parent).toBeUndefined();
  });

  it('anonymous callers may not fork (401)', async () => {
    expect((await call('POST', 'repos/alice/proj/forks', undefined, {})).status).toBe(401);
  });
});

describe('transfer', () => {
  beforeAll(async () => {
    await createRepo(s, alice, 'moving', { auto_init: true, private: true });
  });

  it('to another user is pending (201) until they accept; the repository shows the transfer', async () => {
    const res = await call('POST', 'repos/alice/moving/transfer', alice, { new_owner: 'bob' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.full_name).toBe('alice/moving');
    expectShape(body.repo_transfer, 'RepoTransfer');
    expect(body.repo_transfer).toMatchObject({ doer: { login: 'alice' }, recipient: { login: 'bob' }, teams: [] });
    const got = await repoJson('alice/moving');
    expect(got.repo_transfer.recipient.login).toBe('bob');
    // The recipient may now see the repository to accept it.
    expect((await call('GET', 'repos/alice/moving', bob)).status).toBe(200);
  });

  it('a second transfer while one is pending is 409; only the recipient may accept (403)', async () => {
    expect((await call('POST', 'repos/alice/moving/transfer', alice, { new_owner: 'carol' })).status).toBe(409);
    expect((await call('POST', 'repos/alice/moving/transfer/accept', alice)).status).toBe(403);
  });

  it('accept moves the repository: 202, the new path clones, the old one redirects', async () => {
    const res = await call('POST', 'repos/alice/moving/transfer/accept', bob);
    expect(res.status).toBe(202);
    const body = await json(res);
    expectRepoShape(body);
    expect(body).toMatchObject({ full_name: 'bob/moving', owner: { login: 'bob' } });
    expect(body).not.toHaveProperty('repo_transfer');
    expect(onDisk('bob', 'moving')).toBe(true);
    expect(onDisk('alice', 'moving')).toBe(false);
    const { dir } = await cloneHead('bob', 'moving', bob);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
    const old = await call('GET', 'repos/alice/moving', bob);
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toContain('/repos/bob/moving');
    // The old owner has no access to the private repository any more.
    expect((await call('GET', 'repos/bob/moving', alice)).status).toBe(404);
    expect((await call('POST', 'repos/bob/moving/transfer/accept', bob)).status).toBe(404);
  });

  it('reject drops the pending transfer (200) and the repository stays', async () => {
    await createRepo(s, alice, 'kept', { auto_init: true });
    expect((await call('POST', 'repos/alice/kept/transfer', alice, { new_owner: 'carol' })).status).toBe(201);
    const res = await call('POST', 'repos/alice/kept/transfer/reject', carol);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ full_name: 'alice/kept' });
    expect(body).not.toHaveProperty('repo_transfer');
    expect(await repoJson('alice/kept')).not.toHaveProperty('repo_transfer');
    expect((await call('POST', 'repos/alice/kept/transfer/reject', carol)).status).toBe(404);
  });

  it('a site admin transfers at once (202), rows and directory together', async () => {
    await createRepo(s, alice, 'direct', { auto_init: true });
    const res = await call('POST', 'repos/alice/direct/transfer', s.admin as Creds, { new_owner: 'carol' });
    expect(res.status).toBe(202);
    expect((await json(res)).full_name).toBe('carol/direct');
    expect(onDisk('carol', 'direct')).toBe(true);
    const { head } = await cloneHead('carol', 'direct', carol);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses: unknown owner 404, a taken name 422, teams for a user 422, non-owners 403', async () => {
    await createRepo(s, alice, 'dup');
    await createRepo(s, bob, 'dup');
    expect((await call('POST', 'repos/alice/dup/transfer', alice, { new_owner: 'nobody' })).status).toBe(404);
    expect((await call('POST', 'repos/alice/dup/transfer', alice, { new_owner: 'bob' })).status).toBe(422);
    expect((await call('POST', 'repos/alice/dup/transfer', s.admin as Creds, { new_owner: 'bob' })).status).toBe(422);
    expect(onDisk('alice', 'dup')).toBe(true);
    expect((await call('POST', 'repos/alice/dup/transfer', alice, { new_owner: 'carol', team_ids: [1] })).status).toBe(422);
    expect((await call('POST', 'repos/alice/dup/transfer', alice, {})).status).toBe(422);
    expect((await call('PUT', 'repos/alice/dup/collaborators/carol', alice, { permission: 'admin' })).status).toBe(204);
    expect((await call('POST', 'repos/alice/dup/transfer', carol, { new_owner: 'carol' })).status).toBe(403);
  });
});

describe('generate from a template', () => {
  beforeAll(async () => {
    await createRepo(s, alice, 'tmpl', { auto_init: true, template: true });
    // A second commit, so that the generated single root commit is distinguishable from a copy.
    const { dir } = await cloneHead('alice', 'tmpl', alice);
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'index.js'), 'console.log("hi");\n');
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '-m', 'add code');
    await git(dir, 'push', '-q', 'origin', 'HEAD');
    expect((await call('PUT', 'repos/alice/tmpl/topics', alice, { topics: ['starter', 'node'] })).status).toBe(204);
    await createRepo(s, alice, 'plain', { auto_init: true });
  });

  it('copies the default branch tree as one new root commit (201)', async () => {
    const res = await call('POST', 'repos/alice/tmpl/generate', bob, {
      owner: 'bob', name: 'fresh', description: 'from a template', git_content: true, topics: true, private: true,
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectRepoShape(body);
    expect(body).toMatchObject({
      full_name: 'bob/fresh', description: 'from a template', private: true, empty: false,
      default_branch: 'main', topics: ['starter', 'node'], fork: false, template: false,
    });
    const { dir } = await cloneHead('bob', 'fresh', bob);
    expect((await git(dir, 'rev-list', '--count', 'HEAD')).trim()).toBe('1');
    expect((await git(dir, 'log', '-1', '--format=%s')).trim()).toBe('Initial commit');
    const src = await cloneHead('alice', 'tmpl', alice);
    expect((await git(dir, 'rev-parse', 'HEAD^{tree}')).trim()).toBe((await git(src.dir, 'rev-parse', 'HEAD^{tree}')).trim());
    expect(fs.readFileSync(path.join(dir, 'src', 'index.js'), 'utf8')).toContain('hi');
  });

  it('without git content the new repository is empty', async () => {
    const res = await call('POST', 'repos/alice/tmpl/generate', alice, { owner: 'alice', name: 'bare-gen', topics: true });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ empty: true, topics: ['starter', 'node'] });
  });

  it('refuses: not a template 422, nothing selected 422, another user\'s account 403, a taken name 409', async () => {
    expect((await call('POST', 'repos/alice/plain/generate', alice, { owner: 'alice', name: 'x1', git_content: true })).status).toBe(422);
    expect((await call('POST', 'repos/alice/tmpl/generate', alice, { owner: 'alice', name: 'x2' })).status).toBe(422);
    expect((await call('POST', 'repos/alice/tmpl/generate', alice, { owner: 'bob', name: 'x3', git_content: true })).status).toBe(403);
    expect((await call('POST', 'repos/alice/tmpl/generate', alice, { owner: 'nobody', name: 'x4', git_content: true })).status).toBe(404);
    expect((await call('POST', 'repos/alice/tmpl/generate', alice, { owner: 'alice', name: 'plain', git_content: true })).status).toBe(409);
    expect((await call('POST', 'repos/alice/tmpl/generate', alice, { name: 'x5', git_content: true })).status).toBe(422);
    expect(onDisk('alice', 'x1') || onDisk('alice', 'x2') || onDisk('bob', 'x3')).toBe(false);
  });

  it('a private template is 404 to those who cannot read it', async () => {
    await createRepo(s, alice, 'secret-tmpl', { auto_init: true, template: true, private: true });
    expect((await call('POST', 'repos/alice/secret-tmpl/generate', carol, { owner: 'carol', name: 'y', git_content: true })).status).toBe(404);
  });
});
