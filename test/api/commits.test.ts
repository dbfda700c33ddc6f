import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git } from '../helpers/git';
import { cloneRepo, commitFiles, withoutNulls } from '../helpers/history';
import { as, createToken, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let bob: Creds; // read collaborator
let root: string;
const t0 = Math.floor(Date.now() / 1000) + 86_400; // after the auto_init commit, so date order is history order
const day = 86_400;
const shas: Record<string, string> = {};

const call = (p: string, method = 'GET', body?: unknown, who: { username: string; password: string } | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: as(who), json: body });


const expectCommit = (body: unknown) => expectShape(withoutNulls(body), 'Commit');

beforeAll(async () => {
  s = await startTestServer();
  root = s.hearth.config.server.root_url;
  alice = await createUser(s, 'alice', { full_name: 'Alice Liddell' });
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'hist', { auto_init: true });
  await createRepo(s, alice, 'empty');
  await createRepo(s, alice, 'many', { auto_init: true });
  await ok(await call('hist/collaborators/bob', 'PUT', { permission: 'read' }), 204);
  await createRepo(s, alice, 'arch', { auto_init: true });
  await ok(await call('arch', 'PATCH', { archived: true }));

  const wt = await cloneRepo(s, alice, 'alice', 'hist');
  shas.init = (await git(wt, 'rev-parse', 'HEAD')).trim();
  shas.c1 = await commitFiles(wt, { files: { 'src/a.txt': 'one\ntwo\n' }, message: 'add a', author: 'Alice <alice@example.com>', unix: t0 });
  shas.c2 = await commitFiles(wt, { files: { 'src/a.txt': 'one\nTWO\nthree\n', 'b.bin': Buffer.from([0, 1, 2, 0]) }, message: 'change a\n\nwith a body', unix: t0 + day });
  shas.c3 = await commitFiles(wt, { files: { 'b.bin': null, 'docs/x.md': '# x\n' }, message: 'docs', unix: t0 + 2 * day });
  await git(wt, 'checkout', '-q', '-b', 'feature/x');
  shas.f1 = await commitFiles(wt, { files: { 'feature.txt': 'f\n' }, message: 'feature work', unix: t0 + 3 * day });
  shas.f2 = await commitFiles(wt, { files: { 'feature.txt': 'f2\n' }, message: 'more feature work', unix: t0 + 4 * day });
  await git(wt, 'tag', 'v1.0', shas.c2);
  await git(wt, 'push', '-q', 'origin', 'main', 'feature/x', 'v1.0');

  const many = await cloneRepo(s, alice, 'alice', 'many');
  for (let i = 1; i <= 7; i++) await commitFiles(many, { files: { 'n.txt': `${i}\n` }, message: `n${i}`, unix: t0 + i * 60 });
  await git(many, 'push', '-q', 'origin', 'main');
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/commits', () => {
  it('lists the default branch newest first with files, stats and matched users', async () => {
    const res = await call('hist/commits');
    const body = await ok(res);
    expect(body.map((c: { sha: string }) => c.sha)).toEqual([shas.c3, shas.c2, shas.c1, shas.init]);
    for (const c of body) expectCommit(c);
    const [c3, c2, c1] = body;
    expect(c2).toMatchObject({
      sha: shas.c2, url: `${root}api/v1/repos/alice/hist/git/commits/${shas.c2}`, html_url: `${root}alice/hist/commit/${shas.c2}`,
      parents: [{ sha: shas.c1, url: `${root}api/v1/repos/alice/hist/git/commits/${shas.c1}` }],
      stats: { additions: 2, deletions: 1, total: 3 },
      commit: { message: 'change a\n\nwith a body\n', author: { name: 'Tester', email: 'tester@example.com' } },
      author: null, committer: null,
    });
    expect(c2.commit.author.date).toBe(new Date((t0 + day) * 1000 + 7_200_000).toISOString().replace('.000Z', '+02:00'));
    expect(c2.created).toBe(c2.commit.committer.date);
    expect(c2.commit.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit' });
    expect([...c2.files].sort((a: { filename: string }, b: { filename: string }) => a.filename.localeCompare(b.filename)))
      .toEqual([{ filename: 'b.bin', status: 'added' }, { filename: 'src/a.txt', status: 'modified' }]);
    expect(c3.files).toEqual(expect.arrayContaining([{ filename: 'b.bin', status: 'removed' }, { filename: 'docs/x.md', status: 'added' }]));
    const tree = (await git(s.hearth.config.repository.root + '/alice/hist.git', 'rev-parse', `${shas.c2}^{tree}`)).trim();
    expect(c2.commit.tree).toMatchObject({ sha: tree, url: `${root}api/v1/repos/alice/hist/git/trees/${tree}` });
    // An email that belongs to an account shows that account.
    expect(c1.author).toMatchObject({ login: 'alice', id: alice.id });
    expectShape(c1.author, 'User');
    expect(c1.committer).toBeNull();
    expect(res.headers.get('X-Total')).toBe('4');
  });

  it('pages with X-Total, X-PageCount, X-HasMore, X-Page, X-PerPage and Link', async () => {
    const res = await call('many/commits?limit=3&page=2');
    const body = await ok(res);
    expect(body.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual(['n4', 'n3', 'n2']);
    const h = (k: string) => res.headers.get(k);
    expect([h('X-Total'), h('X-Total-Count'), h('X-PageCount'), h('X-HasMore'), h('X-Page'), h('X-PerPage')])
      .toEqual(['8', '8', '3', 'true', '2', '3']);
    const link = h('Link')!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="prev"');
    expect(link).toContain(`<${root}api/v1/repos/alice/many/commits?limit=3&page=3>; rel="next"`);
    expect(h('Access-Control-Expose-Headers')).toContain('X-HasMore');
    const last = await call('many/commits?limit=3&page=3');
    expect((await ok(last)).length).toBe(2);
    expect(last.headers.get('X-HasMore')).toBe('false');
    const beyond = await call('many/commits?limit=3&page=9');
    expect(await ok(beyond)).toEqual([]);
  });

  it('uses the default page size and caps limit at the maximum', async () => {
    const res = await call('many/commits?limit=1000');
    await ok(res);
    expect(res.headers.get('X-PerPage')).toBe(String(s.hearth.config.api.max_response_items));
  });

  it('starts from sha (branch, tag or commit) and excludes `not`', async () => {
    const fromBranch = await ok(await call('hist/commits?sha=feature/x&limit=2'));
    expect(fromBranch.map((c: { sha: string }) => c.sha)).toEqual([shas.f2, shas.f1]);
    const fromSha = await ok(await call(`hist/commits?sha=${shas.c2}`));
    expect(fromSha.map((c: { sha: string }) => c.sha)).toEqual([shas.c2, shas.c1, shas.init]);
    const notMain = await call('hist/commits?sha=feature/x&not=main');
    expect((await ok(notMain)).map((c: { sha: string }) => c.sha)).toEqual([shas.f2, shas.f1]);
    expect(notMain.headers.get('X-Total')).toBe('2');
  });

  it('filters by path (404 when nothing touched it)', async () => {
    const res = await call('hist/commits?path=src/a.txt&limit=1');
    const body = await ok(res);
    // Gitea ignores `limit` with `path`.
    expect(body.map((c: { sha: string }) => c.sha)).toEqual([shas.c2, shas.c1]);
    expect(res.headers.get('X-Total')).toBe('2');
    expect((await call('hist/commits?path=nowhere.txt')).status).toBe(404);
    const dirBody = await ok(await call('hist/commits?path=docs&sha=feature/x'));
    expect(dirBody.map((c: { sha: string }) => c.sha)).toEqual([shas.c3]);
  });

  it('filters by since and until (ISO 8601)', async () => {
    const iso = (unix: number) => new Date(unix * 1000).toISOString();
    const since = await call(`hist/commits?since=${encodeURIComponent(iso(t0 + day - 60))}`);
    expect((await ok(since)).map((c: { sha: string }) => c.sha)).toEqual([shas.c3, shas.c2]);
    expect(since.headers.get('X-Total')).toBe('2');
    const range = await ok(await call(`hist/commits?since=${iso(t0 - 60)}&until=${iso(t0 + 60)}`));
    expect(range.map((c: { sha: string }) => c.sha)).toEqual([shas.c1]);
    expect((await call('hist/commits?since=yesterday-ish')).status).toBe(422);
  });

  it('lists files without stats and stats without files', async () => {
    const [filesOnly] = await ok(await call('hist/commits?limit=1&stat=false'));
    expect(filesOnly.stats).toBeNull();
    expect(filesOnly.files.length).toBe(2);
    const [statsOnly] = await ok(await call('hist/commits?limit=1&files=no'));
    expect(statsOnly.files).toBeNull();
    expect(statsOnly.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
  });

  it('leaves out files, stats and verification when asked', async () => {
    const body = await ok(await call('hist/commits?limit=1&files=false&stat=0&verification=false'));
    expect(body[0].files).toBeNull();
    expect(body[0].stats).toBeNull();
    expect(body[0].commit.verification).toBeNull();
    expectCommit(body[0]);
  });

  it('answers 409 on an empty repository and 404 for an unknown sha', async () => {
    const empty = await call('empty/commits');
    expect(empty.status).toBe(409);
    const err = await json(empty);
    expect(err.message).toBe('Git Repository is empty.');
    expectShape(err, 'APIError');
    expect((await call('hist/commits?sha=no-such-branch')).status).toBe(404);
    expect((await call('hist/commits?sha=--all')).status).toBe(404);
    expect((await call('hist/commits?not=ghost')).status).toBe(404);
  });

  it('follows repository visibility', async () => {
    expect((await s.request('api/v1/repos/alice/hist/commits?limit=1')).status).toBe(200);
    await ok(await s.request('api/v1/repos/alice/empty', { method: 'PATCH', auth: as(alice), json: { private: true } }));
    expect((await s.request('api/v1/repos/alice/empty/commits')).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/git/commits/{sha}', () => {
  it('returns one commit by sha, short sha or ref', async () => {
    const body = await ok(await call(`hist/git/commits/${shas.c1}`));
    expectCommit(body);
    expect(body).toMatchObject({ sha: shas.c1, files: [{ filename: 'src/a.txt', status: 'added' }], stats: { additions: 2, deletions: 0, total: 2 } });
    expect((await ok(await call(`hist/git/commits/${shas.c1.slice(0, 8)}`))).sha).toBe(shas.c1);
    expect((await ok(await call('hist/git/commits/main'))).sha).toBe(shas.c3);
    const root0 = await ok(await call(`hist/git/commits/${shas.init}`));
    expect(root0.parents).toEqual([]);
    expect(root0.files.length).toBeGreaterThan(0);
    expect(root0.author).toMatchObject({ login: 'alice' });
  });

  it('takes a dotted ref for a ref, not for a diff type', async () => {
    expect((await ok(await call('hist/git/commits/v1.0'))).sha).toBe(shas.c2);
    const diff = await call('hist/git/commits/v1.0.diff');
    expect(diff.status).toBe(200);
    expect(await diff.text()).toContain('+three');
  });

  it('answers 422 for text that cannot be a ref and 404 for an unknown one', async () => {
    for (const bad of ['a..b', 'x~1', 'a:b', 'trailing.', 'x.lock', 'sp ace']) {
      expect((await call(`hist/git/commits/${encodeURIComponent(bad)}`)).status, bad).toBe(422);
    }
    expect((await call('hist/git/commits/0123456789abcdef0123456789abcdef01234567')).status).toBe(404);
    expect((await call('hist/git/commits/ghost')).status).toBe(404);
  });

  it('serves the raw diff and patch', async () => {
    const diff = await call(`hist/git/commits/${shas.c2}.diff`);
    expect(diff.status).toBe(200);
    expect(diff.headers.get('Content-Type')).toMatch(/^text\/plain/);
    const text = await diff.text();
    expect(text).toContain('diff --git a/src/a.txt b/src/a.txt');
    expect(text).toContain('+three');
    const patch = await (await call(`hist/git/commits/${shas.c2}.patch`)).text();
    expect(patch).toMatch(/^From [0-9a-f]{40} /);
    expect(patch).toContain('Subject: [PATCH] change a');
    expect((await call('hist/git/commits/ghost.diff')).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/compare/{basehead}', () => {
  it('lists the commits head has over base, for ... and ..', async () => {
    for (const sep of ['...', '..']) {
      const body = await ok(await call(`hist/compare/main${sep}feature/x`));
      expectShape(withoutNulls(body), 'Compare');
      expect(body.total_commits).toBe(2);
      expect(body.commits.map((c: { sha: string }) => c.sha)).toEqual([shas.f2, shas.f1]);
      expect(body.commits[0].stats).toMatchObject({ additions: 1, deletions: 1 });
    }
    const shaRange = await ok(await call(`hist/compare/${shas.c1}...${shas.c3}`));
    expect(shaRange.commits.map((c: { sha: string }) => c.sha)).toEqual([shas.c3, shas.c2]);
    const encoded = await ok(await call(`hist/compare/${encodeURIComponent('main...feature/x')}`));
    expect(encoded.total_commits).toBe(2);
    const reverse = await ok(await call('hist/compare/feature/x...main'));
    expect(reverse).toEqual({ total_commits: 0, commits: [] });
    const lone = await ok(await call('hist/compare/feature/x'));
    expect(lone.total_commits).toBe(2);
    const owned = await ok(await call('hist/compare/main...alice:feature/x'));
    expect(owned.total_commits).toBe(2);
  });

  it('answers 404 for unknown refs', async () => {
    expect((await call('hist/compare/main...ghost')).status).toBe(404);
    expect((await call('hist/compare/ghost..main')).status).toBe(404);
    expect((await call('hist/compare/main...bob:feature/x')).status).toBe(404);
    expect((await call('empty/compare/main...main')).status).toBe(404);
  });
});

describe('commit statuses', () => {
  it('creates statuses with increasing per-commit ids (201)', async () => {
    const first = await ok(await call(`hist/statuses/${shas.c3}`, 'POST', {
      state: 'pending', context: 'ci/build', description: ' building ', target_url: 'https://ci.example.com/1',
    }), 201);
    expectShape(first, 'CommitStatus');
    expect(first).toMatchObject({
      id: 1, status: 'pending', context: 'ci/build', description: 'building', target_url: 'https://ci.example.com/1',
      url: `${root}api/v1/repos/alice/hist/statuses/${shas.c3}`, creator: { login: 'alice' },
    });
    expect(first.created_at).toBe(first.updated_at);
    const second = await ok(await call('hist/statuses/main', 'POST', { state: 'success', context: 'ci/build' }), 201);
    expect(second.id).toBe(2);
    expect(second.url).toContain(shas.c3);
    await ok(await call(`hist/statuses/${shas.c3.slice(0, 10)}`, 'POST', { state: 'warning', context: 'lint' }), 201);
    // Another commit counts from 1 again.
    expect((await ok(await call(`hist/statuses/${shas.c2}`, 'POST', { state: 'failure' }), 201)).id).toBe(1);
  });

  it('refuses bad states (422), unknown commits (404), readers (403) and anonymous callers (401)', async () => {
    expect((await call(`hist/statuses/${shas.c3}`, 'POST', { state: 'great' })).status).toBe(422);
    expect((await call(`hist/statuses/${shas.c3}`, 'POST', {})).status).toBe(422);
    expect((await call('hist/statuses/0123456789abcdef0123456789abcdef01234567', 'POST', { state: 'success' })).status).toBe(404);
    expect((await call(`hist/statuses/${shas.c3}`, 'POST', { state: 'success' }, bob)).status).toBe(403);
    expect((await call(`hist/statuses/${shas.c3}`, 'POST', { state: 'success' }, null)).status).toBe(401);
    const reader = await createToken(s, alice, ['read:repository']);
    const res = await s.request(`api/v1/repos/alice/hist/statuses/${shas.c3}`, { method: 'POST', auth: { token: reader }, json: { state: 'success' } });
    expect(res.status).toBe(403);
    const archived = await ok(await call('arch/branches/main'));
    expect((await call(`arch/statuses/${archived.commit.id}`, 'POST', { state: 'success' })).status).toBe(423);
    expect(await ok(await call(`arch/statuses/${archived.commit.id}`))).toEqual([]);
  });

  it('lists statuses by sha and by ref with sort and state filters', async () => {
    const all = await call(`hist/statuses/${shas.c3}`, 'GET', undefined, bob);
    const body = await ok(all);
    expectShape(body, '[CommitStatus]');
    expect(all.headers.get('X-Total-Count')).toBe('3');
    expect(body.map((x: { id: number }) => x.id).sort()).toEqual([1, 2, 3]);
    const oldestByIndex = await ok(await call(`hist/commits/main/statuses?sort=highestindex`));
    expect(oldestByIndex.map((x: { id: number }) => x.id)).toEqual([1, 2, 3]);
    const newestByIndex = await ok(await call(`hist/commits/main/statuses?sort=leastindex`));
    expect(newestByIndex.map((x: { id: number }) => x.id)).toEqual([3, 2, 1]);
    const success = await ok(await call(`hist/commits/${shas.c3}/statuses?state=success`));
    expect(success.map((x: { status: string }) => x.status)).toEqual(['success']);
    const paged = await call(`hist/commits/main/statuses?limit=1&page=2&sort=highestindex`);
    expect((await ok(paged)).map((x: { id: number }) => x.id)).toEqual([2]);
    expect(paged.headers.get('Link')).toContain('rel="next"');
    expect(await ok(await call(`hist/statuses/${shas.c1}`))).toEqual([]);
    expect((await call('hist/commits/ghost/statuses')).status).toBe(404);
  });

  it('combines the latest status of each context', async () => {
    const res = await call('hist/commits/main/status');
    const body = await ok(res);
    expectShape(withoutNulls(body), 'CombinedStatus');
    expect(body).toMatchObject({
      state: 'success', sha: shas.c3, total_count: 2,
      commit_url: `${root}api/v1/repos/alice/hist/commits/${shas.c3}`, url: `${root}api/v1/repos/alice/hist/commits/${shas.c3}/status`,
      repository: { full_name: 'alice/hist' },
    });
    expect(body.statuses.map((x: { context: string; status: string }) => `${x.context}=${x.status}`).sort())
      .toEqual(['ci/build=success', 'lint=warning']);
    expect(res.headers.get('X-Total-Count')).toBe('2');
    const failing = await ok(await call(`hist/commits/${shas.c2}/status`));
    expect(failing.state).toBe('failure');
    const none = await ok(await call('hist/commits/feature%2Fx/status'));
    expect(none).toMatchObject({ state: 'pending', sha: shas.f2, total_count: 0, statuses: [] });
    expect((await call('hist/commits/ghost/status')).status).toBe(404);
    expect((await call('hist/commits/main~1/status')).status).toBe(404);
  });
});
