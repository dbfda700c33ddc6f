import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, issueApi, json, type Creds } from '../helpers/issue-fixtures';
import { expectShape } from '../helpers/swagger';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let h: ReturnType<typeof issueApi>;
let owner: Creds;
let alice: Creds;
let bob: Creds;

beforeAll(async () => {
  s = await startTestServer();
  h = issueApi(s);
  owner = await createUser(s, 'sowner');
  alice = await createUser(s, 'salice');
  bob = await createUser(s, 'sbob');
  await h.makeRepo(owner, 'subs');
  await h.makeRepo(owner, 'hidden', { private: true });
  await h.issue(owner, 'sowner/subs', 'one');
  await h.issue(owner, 'sowner/hidden', 'secret');
});
afterAll(async () => { await s.stop(); });

const sub = (user: string, method: string, who: Creds) =>
  h.api(`repos/sowner/subs/issues/1/subscriptions/${user}`, { method, auth: as(who) });
const check = async (who: Creds) => {
  const res = await h.api('repos/sowner/subs/issues/1/subscriptions/check', { auth: as(who) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectShape(Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)), 'WatchInfo');
  return body;
};

describe('issue subscriptions', () => {
  it('checks: the poster is subscribed implicitly, others are not', async () => {
    const mine = await check(owner);
    const root = s.hearth.config.server.root_url;
    expect(mine).toMatchObject({
      subscribed: true, ignored: false, reason: null,
      url: `${root}api/v1/repos/sowner/subs/issues/1/subscriptions`,
      repository_url: `${root}api/v1/repos/sowner/subs`,
    });
    expect(await check(alice)).toMatchObject({ subscribed: false, ignored: true });
  });

  it('subscribes (201), again (200), and lists the subscribers', async () => {
    expect((await sub('salice', 'PUT', alice)).status).toBe(201);
    expect((await sub('salice', 'PUT', alice)).status).toBe(200);
    expect((await check(alice)).subscribed).toBe(true);
    const res = await h.api('repos/sowner/subs/issues/1/subscriptions', { auth: as(bob) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[User]');
    expect(body.map((u: { login: string }) => u.login)).toEqual(['salice']);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('unsubscribes (201), again (200); the poster can opt out explicitly', async () => {
    expect((await sub('salice', 'DELETE', alice)).status).toBe(201);
    expect((await sub('salice', 'DELETE', alice)).status).toBe(200);
    expect((await sub('sowner', 'DELETE', owner)).status).toBe(201);
    expect((await check(owner)).subscribed).toBe(false);
  });

  it('only the user or a site admin changes a subscription (403)', async () => {
    expect((await sub('salice', 'PUT', bob)).status).toBe(403);
    const admin = { username: s.admin.username, password: s.admin.password, id: 0 };
    expect((await sub('sbob', 'PUT', admin)).status).toBe(201);
    expect((await check(bob)).subscribed).toBe(true);
  });

  it('commenters and repository watchers count as subscribed', async () => {
    const fresh = await createUser(s, 'scommenter');
    expect((await check(fresh)).subscribed).toBe(false);
    await h.api('repos/sowner/subs/issues/1/comments', { method: 'POST', auth: as(fresh), json: { body: 'hi' } });
    expect((await check(fresh)).subscribed).toBe(true);
    const watcher = await createUser(s, 'swatcher');
    await h.api('repos/sowner/subs/subscription', { method: 'PUT', auth: as(watcher) });
    expect((await check(watcher)).subscribed).toBe(true);
  });

  it('answers 404 for unknown users, issues and unreadable repositories; 401 anonymously', async () => {
    expect((await sub('nobody', 'PUT', alice)).status).toBe(404);
    expect((await h.api('repos/sowner/subs/issues/9/subscriptions/salice', { method: 'PUT', auth: as(alice) })).status).toBe(404);
    expect((await h.api('repos/sowner/hidden/issues/1/subscriptions/salice', { method: 'PUT', auth: as(alice) })).status).toBe(404);
    expect((await h.api('repos/sowner/subs/issues/1/subscriptions/check')).status).toBe(401);
  });
});
