import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creds } from '../helpers/gitea-fixtures';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

// Each test works on issues of its own (fresh()), or reads the state beforeAll built, so that
// any test runs alone.

let s: TestServer;
let owner: Creds;
let writer: Creds;
let reader: Creds;
let outsider: Creds;

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const comment = (repo: string, index: number, body: unknown, who: Creds = owner) =>
  api(`repos/owner/${repo}/issues/${index}/comments`, { method: 'POST', auth: as(who), json: { body } });
const numComments = async (repo: string, index: number) => (await json(await api(`repos/owner/${repo}/issues/${index}`, { auth: as(owner) }))).comments;

/** A new issue of `repo` with comments by owner, reader and outsider when asked; its number. */
async function fresh(repo = 'pub', comments = false): Promise<number> {
  const index = (await json(await api(`repos/owner/${repo}/issues`, { method: 'POST', auth: as(owner), json: { title: 'fresh' } }))).number as number;
  if (comments) for (const [who, body] of [[owner, 'First!'], [reader, 'from a reader'], [outsider, 'from outside']] as const) await comment(repo, index, body, who);
  return index;
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  writer = await createUser(s, 'writer');
  reader = await createUser(s, 'reader');
  outsider = await createUser(s, 'outsider');
  for (const [name, priv] of [['pub', false], ['priv', true]] as const) {
    await api('user/repos', { method: 'POST', auth: as(owner), json: { name, private: priv } });
    for (const [u, permission] of [[writer, 'write'], [reader, 'read']] as const) {
      await api(`repos/owner/${name}/collaborators/${u.username}`, { method: 'PUT', auth: as(owner), json: { permission } });
    }
    for (const title of ['one', 'two']) await api(`repos/owner/${name}/issues`, { method: 'POST', auth: as(owner), json: { title } });
  }
  // pub#1 carries three comments, then a rename and a close (events, not comments) after them.
  for (const [who, body] of [[owner, 'First!'], [reader, 'from a reader'], [outsider, 'from outside']] as const) await comment('pub', 1, body, who);
  await api('repos/owner/pub/issues/1', { method: 'PATCH', auth: as(owner), json: { title: 'one (renamed)', state: 'closed' } });
  await comment('pub', 2, 'on two');
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/issues/{index}/comments', () => {
  it('adds a comment (201, every Comment field); num_comments follows', async () => {
    const index = await fresh();
    const res = await comment('pub', index, 'First!');
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'Comment');
    expectAllFields(body, 'Comment');
    const root = s.hearth.config.server.root_url;
    expect(body).toMatchObject({
      body: 'First!', user: { login: 'owner' }, assets: [], original_author: '', pull_request_url: '',
      issue_url: `${root}owner/pub/issues/${index}`, html_url: `${root}owner/pub/issues/${index}#issuecomment-${body.id}`,
    });
    expect(await numComments('pub', index)).toBe(1);
  });

  it('takes comments from readers; refuses an empty body (422), anonymous (401), outsiders of private repos (404)', async () => {
    const index = await fresh();
    expect((await comment('pub', index, 'from a reader', reader)).status).toBe(201);
    expect((await comment('pub', index, 'from outside', outsider)).status).toBe(201);
    expect((await comment('pub', index, '')).status).toBe(422);
    expect((await api(`repos/owner/pub/issues/${index}/comments`, { method: 'POST', auth: as(owner), json: {} })).status).toBe(422);
    expect((await api(`repos/owner/pub/issues/${index}/comments`, { method: 'POST', json: { body: 'x' } })).status).toBe(401);
    expect((await comment('priv', 1, 'let me in', outsider)).status).toBe(404);
    expect((await comment('pub', 999, 'no issue')).status).toBe(404);
    expect(await numComments('pub', index)).toBe(2);
  });

  it('refuses comments from non-writers on a locked issue (403)', async () => {
    const index = await fresh();
    expect((await api(`repos/owner/pub/issues/${index}/lock`, { method: 'PUT', auth: as(owner), json: {} })).status).toBe(204);
    expect((await comment('pub', index, 'locked?', reader)).status).toBe(403);
    expect((await comment('pub', index, 'writers may', writer)).status).toBe(201);
  });
});

describe('listing comments', () => {
  it('lists an issue\'s comments oldest first, only plain comments, with X-Total-Count (CommentList)', async () => {
    const res = await api('repos/owner/pub/issues/1/comments');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Comment]');
    expect(body.map((c: { body: string }) => c.body)).toEqual(['First!', 'from a reader', 'from outside']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await json(await api('repos/owner/pub/issues/1/comments?since=2999-01-01T00:00:00Z')))).toEqual([]);
    expect((await json(await api('repos/owner/pub/issues/1/comments?before=2000-01-01T00:00:00Z')))).toEqual([]);
    expect((await api('repos/owner/pub/issues/1/comments?since=bad')).status).toBe(422);
    expect((await api('repos/owner/priv/issues/1/comments', { auth: as(outsider) })).status).toBe(404);
  });

  it('lists a repository\'s comments with paging', async () => {
    const res = await api('repos/owner/pub/issues/comments?limit=2');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Comment]');
    expect(body.map((c: { body: string }) => c.body)).toEqual(['First!', 'from a reader']);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(4);
    expect(res.headers.get('link')).toContain('rel="next"');
  });
});

describe('GET/PATCH/DELETE /repos/{owner}/{repo}/issues/comments/{id}', () => {
  const commentsOf = async (index: number) => json(await api(`repos/owner/pub/issues/${index}/comments`));

  it('gets a comment; an event comment answers 204; another repository\'s is 404', async () => {
    const [first] = await commentsOf(1);
    const res = await api(`repos/owner/pub/issues/comments/${first.id}`);
    expect(res.status).toBe(200);
    expectShape(await json(res), 'Comment');
    const event = await s.hearth.db.selectFrom('comment').select('id').where('type', '=', 2).executeTakeFirstOrThrow();
    expect((await api(`repos/owner/pub/issues/comments/${event.id}`)).status).toBe(204);
    expect((await api(`repos/owner/priv/issues/comments/${first.id}`, { auth: as(owner) })).status).toBe(404);
    expect((await api('repos/owner/pub/issues/comments/999999')).status).toBe(404);
    expect((await api('repos/owner/pub/issues/comments/abc')).status).toBe(404);
  });

  it('lets the author or a writer edit (200); others get 403', async () => {
    const index = await fresh('pub', true);
    const [, fromReader, fromOutsider] = await commentsOf(index);
    const edit = (id: number, who: Creds, body = 'edited') =>
      api(`repos/owner/pub/issues/comments/${id}`, { method: 'PATCH', auth: as(who), json: { body } });
    let res = await edit(fromReader.id, reader, 'reader edited');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Comment');
    expect(body.body).toBe('reader edited');
    expect((await edit(fromReader.id, writer, 'writer edited')).status).toBe(200);
    expect((await edit(fromReader.id, outsider)).status).toBe(403);
    expect((await edit(fromOutsider.id, reader)).status).toBe(403);
    expect((await edit(fromReader.id, reader, '')).status).toBe(422);
    res = await api(`repos/owner/pub/issues/${index}/comments/${fromReader.id}`, { method: 'PATCH', auth: as(reader), json: { body: 'deprecated path' } });
    expect(res.status).toBe(200);
    const row = await s.hearth.db.selectFrom('comment').selectAll().where('id', '=', fromReader.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ content: 'deprecated path', content_version: 3 });
  });

  it('lets the author or a writer delete (204); others get 403; num_comments follows', async () => {
    const index = await fresh('pub', true);
    const [, fromReader, fromOutsider] = await commentsOf(index);
    const del = (id: number, who: Creds, path = `repos/owner/pub/issues/comments/${id}`) => api(path, { method: 'DELETE', auth: as(who) });
    expect((await del(fromOutsider.id, reader)).status).toBe(403);
    expect((await del(fromReader.id, reader)).status).toBe(204);
    expect((await del(fromOutsider.id, writer, `repos/owner/pub/issues/${index}/comments/${fromOutsider.id}`)).status).toBe(204);
    expect((await api(`repos/owner/pub/issues/comments/${fromReader.id}`)).status).toBe(404);
    expect(await numComments('pub', index)).toBe(1);
  });

  it('answers 423 to comment writes in an archived repository', async () => {
    const index = await fresh('pub', true);
    const [first] = await commentsOf(index);
    await api('repos/owner/pub', { method: 'PATCH', auth: as(owner), json: { archived: true } });
    expect((await comment('pub', index, 'frozen')).status).toBe(423);
    expect((await api(`repos/owner/pub/issues/comments/${first.id}`, { method: 'PATCH', auth: as(owner), json: { body: 'x' } })).status).toBe(423);
    expect((await api(`repos/owner/pub/issues/comments/${first.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(423);
    await api('repos/owner/pub', { method: 'PATCH', auth: as(owner), json: { archived: false } });
  });
});
