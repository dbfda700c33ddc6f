import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let ann: Creds;
let ben: Creds;
let cat: Creds;
let hidden: Creds;

const call = (method: string, path: string, who?: Creds) => s.request(`api/v1/${path}`, { method, ...(who ? { auth: as(who) } : {}) });
const logins = (body: { login: string }[]) => body.map((u) => u.login);
const counts = async (who: Creds) => {
  const u = await json(await call('GET', 'user', who));
  return [u.followers_count, u.following_count];
};

beforeAll(async () => {
  s = await startTestServer();
  ann = await createUser(s, 'ann');
  ben = await createUser(s, 'ben');
  cat = await createUser(s, 'cat');
  hidden = await createUser(s, 'hidden', { visibility: 'private' });
});
afterAll(async () => { await s.stop(); });

describe('following', () => {
  it('PUT /user/following/{username} follows (204), idempotently, and both counts move', async () => {
    expect((await call('PUT', 'user/following/ben', ann)).status).toBe(204);
    expect((await call('PUT', 'user/following/ben', ann)).status).toBe(204);
    expect(await counts(ann)).toEqual([0, 1]);
    expect(await counts(ben)).toEqual([1, 0]);
    expect((await call('GET', 'user/following/ben', ann)).status).toBe(204);
    expect((await call('GET', 'user/following/cat', ann)).status).toBe(404);
    expect((await call('GET', 'users/ann/following/ben')).status).toBe(204);
    expect((await call('GET', 'users/ben/following/ann')).status).toBe(404);
  });

  it('lists followers and following as UserList with X-Total-Count', async () => {
    expect((await call('PUT', 'user/following/ben', cat)).status).toBe(204);
    const followers = await call('GET', 'users/ben/followers');
    expect(followers.status).toBe(200);
    expect(followers.headers.get('x-total-count')).toBe('2');
    const body = await json(followers);
    expectShape(body, '[User]');
    expect(logins(body)).toEqual(['ann', 'cat']);
    expect(logins(await json(await call('GET', 'user/followers', ben)))).toEqual(['ann', 'cat']);
    const following = await json(await call('GET', 'user/following', ann));
    expectShape(following, '[User]');
    expect(logins(following)).toEqual(['ben']);
    expect(logins(await json(await call('GET', 'users/cat/following')))).toEqual(['ben']);
    const paged = await call('GET', 'users/ben/followers?limit=1&page=2');
    expect(logins(await json(paged))).toEqual(['cat']);
    expect(paged.headers.get('link')).toContain('rel="first"');
  });

  it('following yourself changes nothing (204, as Gitea)', async () => {
    expect((await call('PUT', 'user/following/ann', ann)).status).toBe(204);
    expect((await call('GET', 'user/following/ann', ann)).status).toBe(404);
    expect(await counts(ann)).toEqual([0, 1]);
  });

  it('DELETE /user/following/{username} unfollows (204), idempotently', async () => {
    expect((await call('DELETE', 'user/following/ben', cat)).status).toBe(204);
    expect((await call('DELETE', 'user/following/ben', cat)).status).toBe(204);
    expect(await counts(cat)).toEqual([0, 0]);
    expect(await counts(ben)).toEqual([1, 0]);
    expect((await call('GET', 'users/cat/following/ben')).status).toBe(404);
  });

  it('a block either way refuses the follow (403)', async () => {
    expect((await call('PUT', 'user/blocks/cat', ben)).status).toBe(204);
    const res = await call('PUT', 'user/following/ben', cat);
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe('user is blocked');
    expect((await call('PUT', 'user/following/cat', ben)).status).toBe(403);
    expect(await counts(ben)).toEqual([1, 0]);
    expect((await call('DELETE', 'user/blocks/cat', ben)).status).toBe(204);
  });

  it('organizations can be followed; they are listed under following, not as followers', async () => {
    await createOrg(s, ann, 'guild');
    expect((await call('PUT', 'user/following/guild', cat)).status).toBe(204);
    expect(logins(await json(await call('GET', 'user/following', cat)))).toEqual(['guild']);
    expect((await call('DELETE', 'user/following/guild', cat)).status).toBe(204);
  });

  it('private users are hidden from who may not see them', async () => {
    expect((await call('PUT', 'user/following/ben', hidden)).status).toBe(204);
    expect(logins(await json(await call('GET', 'users/ben/followers')))).toEqual(['ann']);
    expect(logins(await json(await call('GET', 'users/ben/followers', cat)))).toEqual(['ann']);
    // Ben is followed by hidden: Gitea shows a viewer its own followers.
    expect(logins(await json(await call('GET', 'users/ben/followers', ben)))).toEqual(['ann', 'hidden']);
    expect(logins(await json(await call('GET', 'users/ben/followers', hidden)))).toEqual(['ann', 'hidden']);
    expect((await call('GET', 'users/hidden/following/ben', cat)).status).toBe(404);
    expect((await call('PUT', 'user/following/hidden', cat)).status).toBe(404);
  });

  it('answers 404 for unknown users, 401 to anonymous writers, and enforces token scopes', async () => {
    expect((await call('PUT', 'user/following/nobody', ann)).status).toBe(404);
    expect((await call('GET', 'users/nobody/followers')).status).toBe(404);
    expect((await call('GET', 'users/ann/following/nobody')).status).toBe(404);
    expect((await call('PUT', 'user/following/ben')).status).toBe(401);
    expect((await call('GET', 'user/followers')).status).toBe(401);
    const read = await createToken(s, cat, ['read:user']);
    expect((await s.request('api/v1/user/following', { auth: { token: read } })).status).toBe(200);
    expect((await s.request('api/v1/user/following/ben', { method: 'PUT', auth: { token: read } })).status).toBe(403);
    const write = await createToken(s, cat, ['write:user']);
    expect((await s.request('api/v1/user/following/ben', { method: 'PUT', auth: { token: write } })).status).toBe(204);
  });
});
