import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { eventually } from '../helpers/wait';
import { createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

// POST /repos/{owner}/{repo}/merge-upstream: a fork's branch brought up to its parent's.

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owns the upstream repositories
let bob: Creds; // forks them
let carol: Creds; // read collaborator on bob's forks
let dave: Creds; // write collaborator on bob's forks

const as = (u: Creds) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const call = (method: string, p: string, who: Creds | null, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...(who ? as(who) : {}), ...(body === undefined ? {} : { json: body }) });
const sync = (repo: string, body: Record<string, unknown>, who: Creds = bob) => call('POST', `repos/bob/${repo}/merge-upstream`, who, body);

async function headOf(owner: string, repo: string, branch = 'main'): Promise<string> {
  return (await ok(await call('GET', `repos/${owner}/${repo}/branches/${branch}`, owner === 'alice' ? alice : bob))).commit.id;
}

/** Writes `path` on `branch` through the contents API (creating or updating it); returns the new commit. */
async function write(owner: Creds, repo: string, path: string, content: string, branch = 'main'): Promise<string> {
  const p = `repos/${owner.username}/${repo}/contents/${path}`;
  const cur = await call('GET', `${p}?ref=${branch}`, owner);
  const body = { content: Buffer.from(content).toString('base64'), message: `write ${path}`, branch };
  const res = cur.status === 200
    ? await call('PUT', p, owner, { ...body, sha: (await json(cur)).sha })
    : await call('POST', p, owner, body);
  return (await ok(res, cur.status === 200 ? 200 : 201)).commit.sha;
}

/** alice/{name} with a README, forked by bob (carol reads, dave writes the fork). */
async function forked(name: string): Promise<void> {
  await createRepo(s, alice, name, { auto_init: true });
  await ok(await call('POST', `repos/alice/${name}/forks`, bob, {}), 202);
  await ok(await call('PUT', `repos/bob/${name}/collaborators/carol`, bob, { permission: 'read' }), 204);
  await ok(await call('PUT', `repos/bob/${name}/collaborators/dave`, bob, { permission: 'write' }), 204);
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob', { full_name: 'Bob Builder' });
  carol = await createUser(s, 'carol');
  dave = await createUser(s, 'dave');
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/merge-upstream', () => {
  it('fast-forwards a fork that has nothing of its own, then answers up-to-date', async () => {
    await forked('ff');
    const upstream = await write(alice, 'ff', 'a.txt', 'from upstream\n');
    const body = await ok(await sync('ff', { branch: 'main' }));
    expectShape(body, 'MergeUpstreamResponse');
    expect(body).toEqual({ merge_type: 'fast-forward' });
    expect(await headOf('bob', 'ff')).toBe(upstream);
    const file = await ok(await call('GET', 'repos/bob/ff/contents/a.txt', bob));
    expect(Buffer.from(file.content, 'base64').toString()).toBe('from upstream\n');
    expect(await ok(await sync('ff', { branch: 'main' }))).toEqual({ merge_type: 'up-to-date' });
    // The move went through refsMoved: the fork's feed shows bob's commit_repo with the commit.
    await eventually(async () => {
      const feed = await ok(await call('GET', 'repos/bob/ff/activities/feeds', bob));
      return feed.some((a: { op_type: string; content: string }) => a.op_type === 'commit_repo' && a.content.includes(upstream));
    }, 10_000, 'the sync in the fork\'s feed');
    // The fetched upstream tip is not left behind as a ref.
    const dir = path.join(s.hearth.config.repository.root, 'bob', 'ff.git');
    expect((await git(dir, 'for-each-ref', 'refs/hearth')).trim()).toBe('');
  });

  it('two syncs at once queue on the fork: one fast-forwards, the other finds it up-to-date', async () => {
    await forked('race');
    const upstream = await write(alice, 'race', 'a.txt', 'x\n');
    const bodies = await Promise.all([sync('race', { branch: 'main' }), sync('race', { branch: 'main' })].map(async (r) => ok(await r)));
    expect(bodies.map((b) => b.merge_type).sort()).toEqual(['fast-forward', 'up-to-date']);
    expect(await headOf('bob', 'race')).toBe(upstream);
  });

  it('a fork ahead of its parent is up-to-date and keeps its commits', async () => {
    await forked('ahead');
    const own = await write(bob, 'ahead', 'mine.txt', 'fork only\n');
    expect(await ok(await sync('ahead', { branch: 'main' }))).toEqual({ merge_type: 'up-to-date' });
    expect(await headOf('bob', 'ahead')).toBe(own);
  });

  it('diverged: ff_only is refused with 400 and the branch stays; otherwise a merge commit of both', async () => {
    await forked('div');
    const ours = await write(bob, 'div', 'mine.txt', 'fork only\n');
    const theirs = await write(alice, 'div', 'theirs.txt', 'upstream only\n');
    const refused = await sync('div', { branch: 'main', ff_only: true });
    expect(refused.status).toBe(400);
    expect((await json(refused)).message).toBe('fast-forward merge not possible: branch has diverged');
    expect(await headOf('bob', 'div')).toBe(ours);

    const body = await ok(await sync('div', { branch: 'main' }));
    expectShape(body, 'MergeUpstreamResponse');
    expect(body).toEqual({ merge_type: 'merge' });
    const head = await headOf('bob', 'div');
    const commit = await ok(await call('GET', `repos/bob/div/git/commits/${head}`, bob));
    expect(commit.parents.map((p: { sha: string }) => p.sha)).toEqual([ours, theirs]);
    expect(commit.commit.message.trim()).toBe('merge upstream');
    expect(commit.commit.author.name).toBe('Bob Builder');
    expect(commit.commit.committer.name).toBe('Bob Builder');
    for (const f of ['mine.txt', 'theirs.txt']) await ok(await call('GET', `repos/bob/div/contents/${f}`, bob));
    // The parent is not touched.
    expect(await headOf('alice', 'div')).toBe(theirs);
  });

  it('conflicting changes answer 409 and leave the fork\'s branch as it was', async () => {
    await forked('clash');
    const ours = await write(bob, 'clash', 'README.md', 'the fork says this\n');
    await write(alice, 'clash', 'README.md', 'upstream says that\n');
    const res = await sync('clash', { branch: 'main' });
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/conflict/);
    expect(await headOf('bob', 'clash')).toBe(ours);
  });

  it('a branch the parent lacks is synced from the parent\'s default branch (as Gitea)', async () => {
    await forked('side');
    await ok(await call('POST', 'repos/bob/side/branches', bob, { new_branch_name: 'feature' }), 201);
    const upstream = await write(alice, 'side', 'a.txt', 'upstream\n');
    expect(await ok(await sync('side', { branch: 'feature' }))).toEqual({ merge_type: 'fast-forward' });
    expect(await headOf('bob', 'side', 'feature')).toBe(upstream);
  });

  it('a branch missing in the fork is 404', async () => {
    await forked('missing');
    const res = await sync('missing', { branch: 'nope' });
    expect(res.status).toBe(404);
    expect((await json(res)).message).toMatch(/^branch does not exist/);
    expect((await sync('missing', {})).status).toBe(404);
  });

  it('a repository that is not a fork is refused with 400', async () => {
    await createRepo(s, bob, 'plain', { auto_init: true });
    const res = await sync('plain', { branch: 'main' });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('repo is not a fork');
  });

  it('needs write access: a reader gets 403, anonymous 401, a write collaborator may sync', async () => {
    await forked('perm');
    const upstream = await write(alice, 'perm', 'a.txt', 'x\n');
    const reader = await sync('perm', { branch: 'main' }, carol);
    expect(reader.status).toBe(403);
    const anon = await call('POST', 'repos/bob/perm/merge-upstream', null, { branch: 'main' });
    expect(anon.status).toBe(401);
    expect(await headOf('bob', 'perm')).not.toBe(upstream);
    expect(await ok(await sync('perm', { branch: 'main' }, dave))).toEqual({ merge_type: 'fast-forward' });
    expect(await headOf('bob', 'perm')).toBe(upstream);
  });

  it('branch protection on the fork applies as to a push: 403 and the branch stays', async () => {
    await forked('guarded');
    const before = await headOf('bob', 'guarded');
    await ok(await call('POST', 'repos/bob/guarded/branch_protections', bob, { rule_name: 'main', enable_push: false }), 201);
    await write(alice, 'guarded', 'a.txt', 'x\n');
    const res = await sync('guarded', { branch: 'main' }, dave);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('Not allowed to push to protected branch main');
    expect(await headOf('bob', 'guarded')).toBe(before);
  });

  it('an archived fork answers 423', async () => {
    await forked('frozen');
    await ok(await call('PATCH', 'repos/bob/frozen', bob, { archived: true }));
    expect((await sync('frozen', { branch: 'main' })).status).toBe(423);
  });

  it('a fork of a private parent the caller can no longer read gets nothing from it', async () => {
    await createRepo(s, alice, 'secret', { auto_init: true, private: true });
    await ok(await call('PUT', 'repos/alice/secret/collaborators/bob', alice, { permission: 'read' }), 204);
    await ok(await call('POST', 'repos/alice/secret/forks', bob, {}), 202);
    await ok(await call('DELETE', 'repos/alice/secret/collaborators/bob', alice), 204);
    const before = await headOf('bob', 'secret');
    await write(alice, 'secret', 'a.txt', 'hidden\n');
    const res = await sync('secret', { branch: 'main' });
    expect(res.status).toBe(404);
    expect((await json(res)).message).toMatch(/^repository does not exist/);
    expect(await headOf('bob', 'secret')).toBe(before);
  });
});
