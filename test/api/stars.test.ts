import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { expectRepoShape } from '../helpers/repo-shape';
import { createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;

const as = (u: { username: string; password: string }) => ({ auth: { basic: [u.username, u.password] as [string, string] } });
const call = (method: string, path: string, who?: { username: string; password: string }, body?: unknown) =>
  s.request(`api/v1/${path}`, { method, ...(who ? as(who) : {}), ...(body === undefined ? {} : { json: body }) });
const repoJson = async (path: string, who = alice) => json(await call('GET', `repos/${path}`, who));
const me = async (who: Creds) => json(await call('GET', 'user', who));

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'pub', { auto_init: true });
  await createRepo(s, alice, 'priv', { auto_init: true, private: true });
});
afterAll(async () => { await s.stop(); });

describe('stars', () => {
  it('PUT /user/starred/{owner}/{repo} stars (204), idempotently; both counts move', async () => {
    expect((await call('PUT', 'user/starred/alice/pub', bob)).status).toBe(204);
    expect((await call('PUT', 'user/starred/alice/pub', bob)).status).toBe(204);
    expect((await call('GET', 'user/starred/alice/pub', bob)).status).toBe(204);
    expect((await repoJson('alice/pub')).stars_count).toBe(1);
    expect((await me(bob)).starred_repos_count).toBe(1);
  });

  it('lists stargazers and starred repositories', async () => {
    const gazers = await call('GET', 'repos/alice/pub/stargazers', carol);
    expect(gazers.status).toBe(200);
    expect(gazers.headers.get('x-total-count')).toBe('1');
    const users = await json(gazers);
    expectShape(users, '[User]');
    expect(users.map((u: { login: string }) => u.login)).toEqual(['bob']);
    const mine = await json(await call('GET', 'user/starred', bob));
    expectRepoShape(mine, true);
    expect(mine.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/pub']);
    const theirs = await json(await call('GET', 'users/bob/starred'));
    expect(theirs.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/pub']);
  });

  it('another user\'s starred list shows public repositories only', async () => {
    expect((await call('PUT', 'repos/alice/priv/collaborators/bob', alice, {})).status).toBe(204);
    expect((await call('PUT', 'user/starred/alice/priv', bob)).status).toBe(204);
    const own = await json(await call('GET', 'user/starred', bob));
    expect(own.map((r: { full_name: string }) => r.full_name).sort()).toEqual(['alice/priv', 'alice/pub']);
    const seen = await json(await call('GET', 'users/bob/starred', carol));
    expect(seen.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/pub']);
  });

  it('a repository the caller cannot see cannot be starred (404)', async () => {
    expect((await call('PUT', 'user/starred/alice/priv', carol)).status).toBe(404);
    expect((await call('GET', 'user/starred/alice/pub', carol)).status).toBe(404);
  });

  it('DELETE unstars (204); the check then answers 404', async () => {
    expect((await call('DELETE', 'user/starred/alice/pub', bob)).status).toBe(204);
    expect((await call('DELETE', 'user/starred/alice/pub', bob)).status).toBe(204);
    expect((await call('GET', 'user/starred/alice/pub', bob)).status).toBe(404);
    expect((await repoJson('alice/pub')).stars_count).toBe(0);
    expect((await me(bob)).starred_repos_count).toBe(1);
  });

  it('deleting a starred repository lowers its stargazers\' counts', async () => {
    await createRepo(s, alice, 'doomed');
    expect((await call('PUT', 'user/starred/alice/doomed', carol)).status).toBe(204);
    expect((await me(carol)).starred_repos_count).toBe(1);
    expect((await call('DELETE', 'repos/alice/doomed', alice)).status).toBe(204);
    expect((await me(carol)).starred_repos_count).toBe(0);
  });

  it('needs sign-in for /user/starred (401) and the repository scope for tokens', async () => {
    expect((await call('GET', 'user/starred')).status).toBe(401);
    const token = await createToken(s, bob, ['read:user']);
    expect((await s.request('api/v1/user/starred', { auth: { token } })).status).toBe(403);
  });
});

describe('stars disabled', () => {
  it('answers 403 on every star route', async () => {
    const t = await startTestServer({ HEARTH__REPOSITORY__DISABLE_STARS: 'true' });
    try {
      const dave = await createUser(t, 'dave');
      await createRepo(t, dave, 'r');
      const auth = { basic: [dave.username, dave.password] as [string, string] };
      expect((await t.request('api/v1/user/starred/dave/r', { method: 'PUT', auth })).status).toBe(403);
      expect((await t.request('api/v1/user/starred', { auth })).status).toBe(403);
      expect((await t.request('api/v1/users/dave/starred', { auth })).status).toBe(403);
      expect((await t.request('api/v1/repos/dave/r/stargazers', { auth })).status).toBe(403);
    } finally {
      await t.stop();
    }
  });
});

describe('watchers', () => {
  it('the creator of a repository watches it, as in Gitea', async () => {
    expect((await repoJson('alice/pub')).watchers_count).toBe(1);
    const subs = await json(await call('GET', 'repos/alice/pub/subscribers'));
    expectShape(subs, '[User]');
    expect(subs.map((u: { login: string }) => u.login)).toEqual(['alice']);
  });

  it('PUT /subscription watches and answers WatchInfo; GET reports it', async () => {
    const res = await call('PUT', 'repos/alice/pub/subscription', carol);
    expect(res.status).toBe(200);
    const info = await json(res);
    expectShape(info, 'WatchInfo');
    expect(info).toMatchObject({ subscribed: true, ignored: false, reason: null });
    expect(info.url).toMatch(/\/api\/v1\/repos\/alice\/pub\/subscription$/);
    expect(info.repository_url).toMatch(/\/api\/v1\/repos\/alice\/pub$/);
    const check = await call('GET', 'repos/alice/pub/subscription', carol);
    expect(check.status).toBe(200);
    expectShape(await json(check), 'WatchInfo');
    expect((await repoJson('alice/pub')).watchers_count).toBe(2);
  });

  it('lists watched repositories for the caller and for a user', async () => {
    const mine = await json(await call('GET', 'user/subscriptions', carol));
    expectRepoShape(mine, true);
    expect(mine.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/pub']);
    const alices = await json(await call('GET', 'users/alice/subscriptions', carol));
    expect(alices.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/pub']);
    const own = await json(await call('GET', 'users/alice/subscriptions', alice));
    expect(own.map((r: { full_name: string }) => r.full_name).sort()).toEqual(['alice/priv', 'alice/pub']);
  });

  it('DELETE unwatches (204); GET then answers 404', async () => {
    expect((await call('DELETE', 'repos/alice/pub/subscription', carol)).status).toBe(204);
    expect((await call('GET', 'repos/alice/pub/subscription', carol)).status).toBe(404);
    expect((await repoJson('alice/pub')).watchers_count).toBe(1);
  });

  it('anonymous callers may list watchers but not watch (401)', async () => {
    expect((await call('GET', 'repos/alice/pub/subscribers')).status).toBe(200);
    expect((await call('PUT', 'repos/alice/pub/subscription')).status).toBe(401);
  });
});

describe('topics', () => {
  it('PUT replaces the list: lower-cased, de-duplicated; GET lists them', async () => {
    expect((await call('PUT', 'repos/alice/pub/topics', alice, { topics: ['Go', 'web', 'go', ' '] })).status).toBe(204);
    const res = await call('GET', 'repos/alice/pub/topics');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'TopicName');
    expect(body.topics).toEqual(['go', 'web']);
    expect((await repoJson('alice/pub')).topics).toEqual(['go', 'web']);
  });

  it('invalid topics answer 422 with invalidTopics', async () => {
    const res = await call('PUT', 'repos/alice/pub/topics', alice, { topics: ['ok', '-bad', 'x'.repeat(36)] });
    expect(res.status).toBe(422);
    expect(await json(res)).toEqual({ invalidTopics: ['-bad', 'x'.repeat(36)], message: 'Topic names are invalid' });
    const many = Array.from({ length: 26 }, (_, i) => `t${i}`);
    const tooMany = await call('PUT', 'repos/alice/pub/topics', alice, { topics: many });
    expect(tooMany.status).toBe(422);
    expect((await json(tooMany)).message).toBe('Exceeding maximum number of topics per repo');
  });

  it('PUT/DELETE /topics/{topic} add and remove one', async () => {
    expect((await call('PUT', 'repos/alice/pub/topics/API', alice)).status).toBe(204);
    expect((await json(await call('GET', 'repos/alice/pub/topics'))).topics).toEqual(['api', 'go', 'web']);
    expect((await call('DELETE', 'repos/alice/pub/topics/web', alice)).status).toBe(204);
    expect((await call('DELETE', 'repos/alice/pub/topics/web', alice)).status).toBe(404);
    const bad = await call('PUT', 'repos/alice/pub/topics/Not_Valid', alice);
    expect(bad.status).toBe(422);
    expect(await json(bad)).toEqual({ invalidTopics: 'not_valid', message: 'Topic name is invalid' });
  });

  it('only repository admins may change topics (403)', async () => {
    expect((await call('PUT', 'repos/alice/pub/topics', bob, { topics: ['x'] })).status).toBe(403);
    expect((await call('PUT', 'repos/alice/pub/topics/x', bob)).status).toBe(403);
  });

  it('GET /topics/search finds topics with their repository counts', async () => {
    await createRepo(s, bob, 'other');
    expect((await call('PUT', 'repos/bob/other/topics', bob, { topics: ['go', 'golang'] })).status).toBe(204);
    const res = await call('GET', 'topics/search?q=go');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    const body = await json(res);
    expectShape(body.topics, '[TopicResponse]');
    expect(body.topics.map((t: { topic_name: string; repo_count: number }) => [t.topic_name, t.repo_count]))
      .toEqual([['go', 2], ['golang', 1]]);
    expect((await json(await call('GET', 'topics/search?q=zzz'))).topics).toEqual([]);
  });

  it('repositories can be searched by topic', async () => {
    const res = await json(await call('GET', 'repos/search?q=golang&topic=true'));
    expect(res.data.map((r: { full_name: string }) => r.full_name)).toEqual(['bob/other']);
  });
});

describe('languages', () => {
  it('an empty repository has none', async () => {
    await createRepo(s, alice, 'empty');
    const res = await call('GET', 'repos/alice/empty/languages');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
  });

  it('counts bytes per language on the default branch, leaving out vendored, docs and data files', async () => {
    await createRepo(s, alice, 'code');
    const wt = await workTree({
      'src/main.ts': 'x'.repeat(300),
      'src/util.ts': 'y'.repeat(100),
      'cmd/tool.go': 'z'.repeat(200),
      'web/index.html': 'h'.repeat(50),
      'README.md': 'r'.repeat(1000),
      'docs/conf.py': 'p'.repeat(1000),
      'vendor/lib/x.go': 'v'.repeat(1000),
      'node_modules/a/index.js': 'n'.repeat(1000),
      'package.json': '{}'.repeat(500),
      '.eslintrc.js': 'e'.repeat(1000),
    });
    await git(wt, 'push', '-q', remoteUrl(s, 'alice', 'code', alice.username, alice.password), 'main');
    const res = await call('GET', 'repos/alice/code/languages');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({ TypeScript: 400, Go: 200, HTML: 50 });
  });
});
