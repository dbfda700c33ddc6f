import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRepoByOwnerAndName } from '../../src/models/repo';
import { getUserByName } from '../../src/models/user';
import { importFromGitea, type ImportCounts } from '../../src/services/migrate/import-items';
import { migrationDispatcher } from '../../src/services/migrate/remote-address';
import { createRepo, git, remoteUrl } from '../helpers/git';
import { cloneWork } from '../helpers/pull-fixtures';
import { as, createToken, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectNullableShape } from '../helpers/issue-shape';
import { expectShape } from '../helpers/swagger';

// The Gitea importer of POST /repos/migrate: a second hearth (which speaks Gitea's API) is the
// source; the target's repository is cloned from it with git, then importFromGitea reads the
// source's REST API into the target's database.

type Creds = { username: string; password: string; id: number };

let src: TestServer;
let dst: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let dstAlice: Creds;
let counts: ImportCounts;
const assetBytes = 'asset one\n'.repeat(20);

const srcApi = (p: string, who: Creds, method = 'GET', body?: unknown) =>
  src.request(`api/v1/repos/alice/proj/${p}`, { method, auth: as(who), json: body });
const dstApi = (p: string) => dst.request(`api/v1/repos/alice/proj${p}`, { auth: as(dstAlice) });

async function upload(releaseId: number, name: string, data: string) {
  const form = new FormData();
  form.append('attachment', new Blob([data]), name);
  await ok(await src.request(`api/v1/repos/alice/proj/releases/${releaseId}/assets`, { method: 'POST', auth: as(alice), body: form }), 201);
}

async function seedSource() {
  await createRepo(src, alice, 'proj', { auto_init: true });
  await ok(await srcApi('labels', alice, 'POST', { name: 'bug', color: '#ee0701', description: 'broken' }), 201);
  await ok(await srcApi('labels', alice, 'POST', { name: 'feature', color: '00aabb' }), 201);
  await ok(await srcApi('milestones', alice, 'POST', { title: 'v1', description: 'first', due_on: '2030-01-02T00:00:00Z' }), 201);
  const m0 = await ok(await srcApi('milestones', alice, 'POST', { title: 'v0' }), 201);
  await ok(await srcApi(`milestones/${m0.id}`, alice, 'PATCH', { state: 'closed' }), 200);
  const i1 = await ok(await srcApi('issues', alice, 'POST', { title: 'first issue', body: 'it breaks', labels: [await labelId('bug')], milestone: (await milestone('v1')).id }), 201);
  const c1 = await ok(await srcApi('issues/1/comments', bob, 'POST', { body: 'me too' }), 201);
  await ok(await srcApi('issues/1/comments', carol, 'POST', { body: 'carol was here' }), 201);
  await ok(await srcApi('issues/1/reactions', carol, 'POST', { content: '+1' }), 201);
  await ok(await srcApi('issues/1/reactions', bob, 'POST', { content: 'heart' }), 201);
  // Another source user without an account on the target, with the same emoji as carol's.
  await ok(await srcApi('issues/1/reactions', await createUser(src, 'dave'), 'POST', { content: '+1' }), 201);
  await ok(await srcApi(`issues/comments/${c1.id}/reactions`, alice, 'POST', { content: 'laugh' }), 201);
  expect(i1.number).toBe(1);
  await ok(await srcApi('issues', carol, 'POST', { title: 'second issue by carol' }), 201);
  await ok(await srcApi('issues/2', alice, 'PATCH', { state: 'closed' }), 201);
  const work = await cloneWork(src, 'alice', 'proj', alice);
  await work.branch('feat', { 'feat.txt': 'feature\n' });
  await work.branch('fix', { 'fix.txt': 'fix\n' });
  await ok(await srcApi('pulls', alice, 'POST', { title: 'add feature', head: 'feat', base: 'main', labels: [await labelId('feature')] }), 201);
  await ok(await srcApi('pulls', alice, 'POST', { title: 'a fix', head: 'fix', base: 'main', body: 'fixes #1' }), 201);
  await ok(await srcApi('issues/4/comments', carol, 'POST', { body: 'looks fine' }), 201);
  await ok(await srcApi('pulls/4/reviews', carol, 'POST', { event: 'COMMENT', body: 'one remark' }), 200);
  await ok(await srcApi('pulls/3/merge', alice, 'POST', { Do: 'merge' }), 200);
  const r1 = await ok(await srcApi('releases', alice, 'POST', { tag_name: 'v1.0', target_commitish: 'main', name: 'One', body: 'notes 1' }), 201);
  const r2 = await ok(await srcApi('releases', alice, 'POST', { tag_name: 'v2.0', target_commitish: 'main', name: 'Two', prerelease: true }), 201);
  await upload(r1.id, 'one.txt', assetBytes);
  await upload(r2.id, 'two.bin', 'second asset');
  await ok(await srcApi('topics', alice, 'PUT', { topics: ['forge', 'migration'] }), 204);
}

async function labelId(name: string): Promise<number> {
  const list = await ok(await srcApi('labels', alice));
  return list.find((l: { name: string }) => l.name === name).id;
}
async function milestone(title: string) {
  return (await ok(await srcApi('milestones?state=all', alice))).find((m: { title: string }) => m.title === title);
}

beforeAll(async () => {
  src = await startTestServer();
  dst = await startTestServer({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' });
  alice = await createUser(src, 'alice');
  bob = await createUser(src, 'bob');
  carol = await createUser(src, 'carol');
  await seedSource();
  // On the target, alice and bob exist (BOB in another case: names match case-insensitively); carol does not.
  dstAlice = await createUser(dst, 'alice');
  await createUser(dst, 'Bob');
  await createRepo(dst, dstAlice, 'proj');
  const dir = path.join(dst.hearth.config.repository.root, 'alice', 'proj.git');
  await git(dir, 'fetch', '-q', remoteUrl(src, 'alice', 'proj', alice.username, alice.password),
    '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*', '+refs/pull/*:refs/pull/*');
  const { db, config, log } = dst.hearth;
  const owner = (await getUserByName(db, 'alice'))!;
  const repo = (await getRepoByOwnerAndName(db, owner.id, 'proj'))!;
  counts = await importFromGitea(db, { repo, owner, doer: owner }, {
    baseUrl: src.hearth.config.server.root_url, owner: 'alice', repo: 'proj', service: 'gitea',
    token: await createToken(src, alice, ['read:repository', 'read:issue']),
  }, {
    items: { labels: true, milestones: true, issues: true, pull_requests: true, releases: true },
    log, signal: new AbortController().signal, dispatcher: migrationDispatcher(config), maxAttempts: 3, retryBackoffMs: 10,
    blobs: dst.hearth.blobs, spoolDir: path.join(config.server.data_dir, 'tmp', 'uploads'), gitDir: dir,
  });
}, 60_000);

afterAll(async () => {
  await src?.stop();
  await dst?.stop();
});

describe('importFromGitea from a Gitea-compatible source', () => {
  it('returns the counts of what it imported', () => {
    expect(counts).toMatchObject({
      labels: 2, milestones: 2, issues: 2, issue_comments: 2, issue_reactions: 4, pull_requests: 2, pull_comments: 1,
      releases: 2, release_assets: 2, topics: 2, pull_heads_missing: 0, reviews: 1,
    });
  });

  it('keeps labels and milestones with their state', async () => {
    const labels = await ok(await dstApi('/labels'));
    expect(labels.map((l: { name: string; color: string }) => [l.name, l.color]).sort()).toEqual([['bug', 'ee0701'], ['feature', '00aabb']]);
    labels.forEach((l: unknown) => expectShape(l, 'Label'));
    const ms = await ok(await dstApi('/milestones?state=all'));
    const byTitle = Object.fromEntries(ms.map((m: { title: string }) => [m.title, m]));
    expect(byTitle.v1).toMatchObject({ state: 'open', description: 'first', due_on: '2030-01-02T00:00:00Z', open_issues: 1 });
    expect(byTitle.v0.state).toBe('closed');
    expectNullableShape(byTitle.v1, 'Milestone');
  });

  it('keeps issue numbers, titles, states, labels, milestones and authors', async () => {
    const issues = await ok(await dstApi('/issues?state=all&type=issues'));
    expect(issues.map((i: { number: number; title: string; state: string }) => [i.number, i.title, i.state]).sort())
      .toEqual([[1, 'first issue', 'open'], [2, 'second issue by carol', 'closed']]);
    const one = await ok(await dstApi('/issues/1'));
    expectNullableShape(one, 'Issue');
    expect(one).toMatchObject({ body: 'it breaks', comments: 2, original_author: '', original_author_id: 0 });
    expect(one.user.login).toBe('alice');
    expect(one.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    expect(one.milestone.title).toBe('v1');
    // carol has no account on the target: the migrating user is shown, with her source login.
    const two = await ok(await dstApi('/issues/2'));
    expect(two).toMatchObject({ original_author: 'carol', original_author_id: carol.id, state: 'closed' });
    expect(two.user.login).toBe('alice');
    expect(two.closed_at).not.toBeNull();
  });

  it('keeps comments with their authors and reactions on issues and comments (bug: two reactions of users without an account here collapsed into one)', async () => {
    const comments = await ok(await dstApi('/issues/1/comments'));
    comments.forEach((c: unknown) => expectShape(c, 'Comment'));
    expect(comments.map((c: { body: string; user: { login: string }; original_author: string }) => [c.body, c.user.login, c.original_author]))
      .toEqual([['me too', 'Bob', ''], ['carol was here', 'alice', 'carol']]);
    const reactions = await ok(await dstApi('/issues/1/reactions'));
    reactions.forEach((r: unknown) => expectShape(r, 'Reaction'));
    expect(reactions.map((r: { content: string; user: { login: string } }) => [r.content, r.user.login]).sort())
      .toEqual([['+1', 'alice'], ['+1', 'alice'], ['heart', 'Bob']]);
    const onComment = await ok(await dstApi(`/issues/comments/${comments[0].id}/reactions`));
    expect(onComment.map((r: { content: string }) => r.content)).toEqual(['laugh']);
  });

  it('keeps pull requests with their merge state, and the next issue gets the next number', async () => {
    const merged = await ok(await dstApi('/pulls/3'));
    expectNullableShape(merged, 'PullRequest');
    expect(merged).toMatchObject({ title: 'add feature', state: 'closed', merged: true, head: { ref: 'feat' }, base: { ref: 'main' } });
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merged.labels.map((l: { name: string }) => l.name)).toEqual(['feature']);
    const open = await ok(await dstApi('/pulls/4'));
    // The review counts among the comments, as on the source.
    expect(open).toMatchObject({ state: 'open', merged: false, body: 'fixes #1', comments: 2 });
    const reviews = await ok(await dstApi('/pulls/4/reviews'));
    reviews.forEach((r: unknown) => expectNullableShape(r, 'PullReview'));
    expect(reviews.map((r: { state: string; body: string; user: { login: string } }) => [r.state, r.body, r.user.login])).toEqual([['COMMENT', 'one remark', 'alice']]);
    const repo = await ok(await dstApi(''));
    expect(repo).toMatchObject({ open_issues_count: 1, open_pr_counter: 1 });
    const created = await ok(await dst.request('api/v1/repos/alice/proj/issues', { method: 'POST', auth: as(dstAlice), json: { title: 'new here' } }), 201);
    expect(created.number).toBe(5);
  });

  it('keeps releases with downloadable assets, and the topics', async () => {
    const releases = await ok(await dstApi('/releases'));
    releases.forEach((r: unknown) => expectShape(r, 'Release'));
    const byTag = Object.fromEntries(releases.map((r: { tag_name: string }) => [r.tag_name, r]));
    expect(byTag['v1.0']).toMatchObject({ name: 'One', body: 'notes 1', prerelease: false, draft: false, target_commitish: 'main' });
    expect(byTag['v2.0'].prerelease).toBe(true);
    expect(byTag['v1.0'].author.login).toBe('alice');
    const asset = byTag['v1.0'].assets[0];
    expect(asset).toMatchObject({ name: 'one.txt', size: assetBytes.length });
    const file = await fetch(asset.browser_download_url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(assetBytes);
    expect((await ok(await dstApi('/topics'))).topics).toEqual(['forge', 'migration']);
  });
});

describe('the source API reader', () => {
  it('retries a 503 with backoff, sends the token as Gitea expects, and stops when aborted', async () => {
    const seen: { url: string; auth: string | undefined }[] = [];
    let failures = 1;
    const fake = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization });
      if (req.url?.includes('/labels') && failures-- > 0) return void res.writeHead(503).end('busy');
      const body = req.url?.includes('/labels') ? [{ name: 'flaky', color: 'ff0000' }] : req.url?.includes('/topics') ? { topics: [] } : [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const { db, config, log } = dst.hearth;
      await createRepo(dst, dstAlice, 'flaky');
      const owner = (await getUserByName(db, 'alice'))!;
      const repo = (await getRepoByOwnerAndName(db, owner.id, 'flaky'))!;
      const source = { baseUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`, owner: 'o', repo: 'r', service: 'gitea' as const, token: 'sekrit' };
      const opts = {
        items: { labels: true, milestones: false, issues: false, pull_requests: false, releases: false },
        log, signal: new AbortController().signal, dispatcher: migrationDispatcher(config), maxAttempts: 3, retryBackoffMs: 5,
        blobs: dst.hearth.blobs, spoolDir: path.join(config.server.data_dir, 'tmp', 'uploads'),
      };
      expect(await importFromGitea(db, { repo, owner, doer: owner }, source, opts)).toMatchObject({ labels: 1 });
      expect(seen.filter((r) => r.url.startsWith('/api/v1/repos/o/r/labels?')).length).toBe(2);
      expect(seen.every((r) => r.auth === 'token sekrit')).toBe(true);
      const aborted = new AbortController();
      aborted.abort(new Error('time limit'));
      await expect(importFromGitea(db, { repo, owner, doer: owner }, source, { ...opts, signal: aborted.signal })).rejects.toThrow('time limit');
    } finally {
      fake.close();
    }
  });
});

describe('POST /repos/migrate with service gitea', () => {
  it('clones the repository and imports its issues, pulls, releases and topics', async () => {
    const token = await createToken(src, alice, ['read:repository', 'read:issue']);
    const res = await dst.request('api/v1/repos/migrate', {
      method: 'POST', auth: as(dstAlice),
      json: {
        clone_addr: `${src.hearth.config.server.root_url}alice/proj.git`, repo_name: 'viaroute', service: 'gitea', auth_token: token,
        issues: true, labels: true, milestones: true, pull_requests: true, releases: true,
      },
    });
    expect((await ok(res, 201)).name).toBe('viaroute');
    const api = (p: string) => dst.request(`api/v1/repos/alice/viaroute${p}`, { auth: as(dstAlice) });
    // Read again: the answer of the migration may carry the row as it was before the import.
    const repo = await ok(await api(''));
    expect(repo).toMatchObject({ open_issues_count: 1, open_pr_counter: 1, topics: ['forge', 'migration'] });
    expect((await ok(await api('/issues/2'))).original_author).toBe('carol');
    expect((await ok(await api('/pulls/3'))).merged).toBe(true);
    expect((await ok(await api('/releases'))).map((r: { tag_name: string }) => r.tag_name).sort()).toEqual(['v1.0', 'v2.0']);
  });
});
