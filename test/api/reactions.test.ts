import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, json, ok, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let alice: Creds; // owner
let carol: Creds; // read collaborator
let eve: Creds; // outsider
let commentId: number;

const call = (p: string, method = 'GET', body?: unknown, who: Creds | null = alice) =>
  s.request(`api/v1/repos/alice/${p}`, { method, auth: as(who), json: body });


beforeAll(async () => {
  s = await startTestServer({ HEARTH__UI__REACTIONS: '+1,heart,rocket' });
  alice = await createUser(s, 'alice');
  carol = await createUser(s, 'carol');
  eve = await createUser(s, 'eve');
  for (const name of ['pub', 'priv']) {
    await createRepo(s, alice, name, { private: name === 'priv' });
    await ok(await call(`${name}/collaborators/carol`, 'PUT', { permission: 'read' }), 204);
    await ok(await call(`${name}/issues`, 'POST', { title: 'first' }), 201);
  }
  commentId = (await ok(await call('pub/issues/1/comments', 'POST', { body: 'a comment' }), 201)).id;
});
afterAll(async () => { await s.stop(); });

describe('issue reactions', () => {
  it('adds a reaction (201), and answers 200 with the same one when given twice', async () => {
    const first = await ok(await call('pub/issues/1/reactions', 'POST', { content: 'heart' }), 201);
    expectShape(first, 'Reaction');
    expect(first.content).toBe('heart');
    expect(first.user.login).toBe('alice');
    const again = await ok(await call('pub/issues/1/reactions', 'POST', { content: 'heart' }));
    expectShape(again, 'Reaction');
    expect(again).toEqual(first);
  });

  it('lets readers react and lists every reaction oldest first', async () => {
    await ok(await call('pub/issues/1/reactions', 'POST', { content: '+1' }, carol), 201);
    await ok(await call('pub/issues/1/reactions', 'POST', { content: '+1' }, eve), 201);
    const res = await call('pub/issues/1/reactions', 'GET', undefined, null);
    const list = await ok(res);
    expectShape(list, '[Reaction]');
    expect(list.map((r: { user: { login: string }; content: string }) => `${r.user.login}:${r.content}`))
      .toEqual(['alice:heart', 'carol:+1', 'eve:+1']);
    expect(res.headers.get('x-total-count')).toBe('3');
    const page = await ok(await call('pub/issues/1/reactions?page=2&limit=2'));
    expect(page.map((r: { user: { login: string } }) => r.user.login)).toEqual(['eve']);
  });

  it('refuses reactions the instance does not allow (403)', async () => {
    const res = await call('pub/issues/1/reactions', 'POST', { content: 'laugh' });
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('\'laugh\' is not an allowed reaction');
    expect((await call('pub/issues/1/reactions', 'POST', {})).status).toBe(403);
  });

  it('removes the caller\'s reaction only (200), also when there is none', async () => {
    await ok(await call('pub/issues/1/reactions', 'DELETE', { content: '+1' }, carol));
    await ok(await call('pub/issues/1/reactions', 'DELETE', { content: 'rocket' }, carol));
    const list = await ok(await call('pub/issues/1/reactions'));
    expect(list.map((r: { user: { login: string } }) => r.user.login)).toEqual(['alice', 'eve']);
  });

  it('needs a signed-in caller to change reactions (401) and keeps private issues hidden (404)', async () => {
    expect((await call('pub/issues/1/reactions', 'POST', { content: '+1' }, null)).status).toBe(401);
    expect((await call('priv/issues/1/reactions', 'GET', undefined, eve)).status).toBe(404);
    expect((await call('priv/issues/1/reactions', 'POST', { content: '+1' }, eve)).status).toBe(404);
    expect((await call('pub/issues/42/reactions')).status).toBe(404);
  });

  it('refuses readers on a locked issue (403) but not writers', async () => {
    const issue = await ok(await call('pub/issues', 'POST', { title: 'locked' }), 201);
    await s.hearth.db.updateTable('issue').set({ is_locked: 1 }).where('id', '=', issue.id).execute();
    const res = await call(`pub/issues/${issue.number}/reactions`, 'POST', { content: '+1' }, carol);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('no permission to change reaction');
    await ok(await call(`pub/issues/${issue.number}/reactions`, 'POST', { content: '+1' }), 201);
  });

  it('refuses users blocked by the repository owner (403)', async () => {
    await ok(await s.request('api/v1/user/blocks/eve', { method: 'PUT', auth: as(alice) }), 204);
    expect((await call('pub/issues/1/reactions', 'POST', { content: 'rocket' }, eve)).status).toBe(403);
    await ok(await s.request('api/v1/user/blocks/eve', { method: 'DELETE', auth: as(alice) }), 204);
  });
});

describe('comment reactions', () => {
  it('adds, lists and removes reactions on a comment', async () => {
    const r = await ok(await call(`pub/issues/comments/${commentId}/reactions`, 'POST', { content: 'rocket' }, carol), 201);
    expectShape(r, 'Reaction');
    await ok(await call(`pub/issues/comments/${commentId}/reactions`, 'POST', { content: 'rocket' }, carol));
    const list = await ok(await call(`pub/issues/comments/${commentId}/reactions`));
    expectShape(list, '[Reaction]');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ content: 'rocket', user: { login: 'carol' } });
    // Comment reactions are apart from the issue's.
    const issueList = await ok(await call('pub/issues/1/reactions'));
    expect(issueList.some((x: { content: string }) => x.content === 'rocket')).toBe(false);
    await ok(await call(`pub/issues/comments/${commentId}/reactions`, 'DELETE', { content: 'rocket' }, carol));
    expect(await ok(await call(`pub/issues/comments/${commentId}/reactions`))).toEqual([]);
  });

  it('answers 404 for a missing comment or one of another repository, 403 for a forbidden reaction', async () => {
    expect((await call('pub/issues/comments/9999/reactions')).status).toBe(404);
    expect((await call(`priv/issues/comments/${commentId}/reactions`)).status).toBe(404);
    expect((await call(`pub/issues/comments/${commentId}/reactions`, 'POST', { content: 'eyes' })).status).toBe(403);
  });
});
