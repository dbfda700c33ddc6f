import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };
type ApiEmail = { email: string; verified: boolean; primary: boolean; user_id: number; username: string };

let s: TestServer;
let alice: Creds;
let bob: Creds;


const listOf = async (u: Creds): Promise<ApiEmail[]> => {
  const res = await s.request('api/v1/user/emails', { auth: as(u) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectShape(body, '[Email]');
  return body;
};
const addresses = async (u: Creds) => (await listOf(u)).map((e) => e.email);
const add = (u: Creds, emails: unknown) =>
  s.request('api/v1/user/emails', { method: 'POST', auth: as(u), json: { emails } });
const remove = (u: Creds, emails: unknown) =>
  s.request('api/v1/user/emails', { method: 'DELETE', auth: as(u), json: { emails } });

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
});
afterAll(async () => { await s.stop(); });

describe('GET /user/emails', () => {
  it('needs a signed-in caller', async () => {
    expect((await s.request('api/v1/user/emails')).status).toBe(401);
    expect((await s.request('api/v1/user/emails', { method: 'POST', json: { emails: ['x@example.com'] } })).status).toBe(401);
    expect((await s.request('api/v1/user/emails', { method: 'DELETE', json: { emails: ['x@example.com'] } })).status).toBe(401);
  });

  it('lists the primary address, verified, with every Email field', async () => {
    const list = await listOf(alice);
    // As Gitea's ToEmail: the owner is the caller, so user_id and username stay empty here.
    expect(list).toEqual([{ email: 'alice@example.com', verified: true, primary: true, user_id: 0, username: '' }]);
    expectAllFields(list[0]!, 'Email');
  });

  it('needs read:user with a token', async () => {
    const read = await createToken(s, alice, ['read:user']);
    expect((await s.request('api/v1/user/emails', { auth: { token: read } })).status).toBe(200);
    const other = await createToken(s, alice, ['read:issue']);
    expect((await s.request('api/v1/user/emails', { auth: { token: other } })).status).toBe(403);
    // Adding needs write:user.
    const denied = await s.request('api/v1/user/emails', {
      method: 'POST', auth: { token: read }, json: { emails: ['alice-token@example.com'] },
    });
    expect(denied.status).toBe(403);
    expect(await addresses(alice)).not.toContain('alice-token@example.com');
  });
});

describe('POST /user/emails', () => {
  it('adds several addresses and answers the full list (201)', async () => {
    const res = await add(alice, ['alice.two@example.com', 'Alice.Three@Example.com']);
    expect(res.status).toBe(201);
    const body = (await json(res)) as ApiEmail[];
    expectShape(body, '[Email]');
    expect(body.map((e) => e.email)).toEqual(['alice@example.com', 'alice.two@example.com', 'Alice.Three@Example.com']);
    expect(body.filter((e) => e.primary).map((e) => e.email)).toEqual(['alice@example.com']);
    for (const e of body) expect(e).toMatchObject({ verified: true, user_id: 0, username: '' });
    expect(await listOf(alice)).toEqual(body);
  });

  it('refuses an address used by another user (422), case-insensitively', async () => {
    for (const email of ['bob@example.com', 'BOB@EXAMPLE.COM']) {
      const res = await add(alice, [email]);
      expect(res.status).toBe(422);
      const body = await json(res);
      expect(Object.keys(body).sort()).toEqual(['message', 'url']);
      expect(body.message).toContain('Email address has been used');
    }
    expect(await addresses(alice)).not.toContain('bob@example.com');
  });

  it('regression: an address the caller already has is refused (422), as Gitea', async () => {
    for (const email of ['alice@example.com', 'alice.two@example.com', 'ALICE.TWO@example.com']) {
      const res = await add(alice, [email]);
      expect(res.status, email).toBe(422);
      expect((await json(res)).message).toContain('Email address has been used');
    }
  });

  it('regression: the same new address twice in one request is refused (422) and nothing is added', async () => {
    const res = await add(alice, ['alice.twice@example.com', 'Alice.Twice@example.com']);
    expect(res.status).toBe(422);
    expect(await addresses(alice)).not.toContain('alice.twice@example.com');
  });

  it('adds all or nothing: a used address among new ones writes none', async () => {
    const before = await listOf(alice);
    const res = await add(alice, ['alice.four@example.com', 'bob@example.com']);
    expect(res.status).toBe(422);
    expect(await listOf(alice)).toEqual(before);
  });

  it.each([
    ['no at sign', 'not-an-email'],
    ['a space', 'al ice@example.com'],
    ['an empty string', ''],
    ['two at signs', 'a@b@example.com'],
  ])('refuses an invalid address (%s) with 422', async (_what, email) => {
    const before = await listOf(alice);
    const res = await add(alice, ['alice.five@example.com', email]);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toContain('invalid');
    expect(await listOf(alice)).toEqual(before);
  });

  it('refuses an empty list (422)', async () => {
    const res = await add(alice, []);
    expect(res.status).toBe(422);
    expect((await json(res)).message).toBe('Email list empty');
    const missing = await s.request('api/v1/user/emails', { method: 'POST', auth: as(alice), json: {} });
    expect(missing.status).toBe(422);
  });

  it('refuses a body whose emails is not a list of strings (422)', async () => {
    expect((await add(alice, 'alice.six@example.com')).status).toBe(422);
    expect((await add(alice, [42])).status).toBe(422);
  });

  it('lets the new address be seen by admins in /admin/emails', async () => {
    const res = await s.request('api/v1/admin/emails/search?q=alice.two', { auth: as(s.admin) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Email]');
    expect(body).toEqual([{ email: 'alice.two@example.com', verified: true, primary: false, user_id: alice.id, username: 'alice' }]);
  });
});

describe('DELETE /user/emails', () => {
  it('deletes addresses (204)', async () => {
    await add(alice, ['alice.del1@example.com', 'alice.del2@example.com']);
    const res = await remove(alice, ['alice.del1@example.com', 'ALICE.DEL2@example.com']);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const left = await addresses(alice);
    expect(left).not.toContain('alice.del1@example.com');
    expect(left).not.toContain('alice.del2@example.com');
  });

  it('frees the address for another user', async () => {
    await add(alice, ['shared@example.com']);
    expect((await add(bob, ['shared@example.com'])).status).toBe(422);
    expect((await remove(alice, ['shared@example.com'])).status).toBe(204);
    expect((await add(bob, ['shared@example.com'])).status).toBe(201);
    expect(await addresses(bob)).toContain('shared@example.com');
  });

  it('is 404 for an address the caller does not have', async () => {
    const res = await remove(alice, ['nobody@example.com']);
    expect(res.status).toBe(404);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
  });

  it('is 404 for another user\'s address, which stays', async () => {
    expect((await remove(alice, ['bob@example.com'])).status).toBe(404);
    expect(await addresses(bob)).toContain('bob@example.com');
  });

  it('deletes all or nothing: a missing address among others deletes none', async () => {
    await add(alice, ['alice.keep@example.com']);
    const res = await remove(alice, ['alice.keep@example.com', 'nobody@example.com']);
    expect(res.status).toBe(404);
    expect(await addresses(alice)).toContain('alice.keep@example.com');
  });

  it('refuses to delete the primary address (400) and keeps it', async () => {
    // Gitea answers 500 here (ErrPrimaryEmailCannotDelete is not mapped); hearth answers 400.
    const res = await remove(alice, ['alice@example.com']);
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain('primary');
    const list = await listOf(alice);
    expect(list.find((e) => e.primary)?.email).toBe('alice@example.com');
  });

  it('answers 204 for an empty list, as Gitea', async () => {
    const before = await listOf(alice);
    expect((await remove(alice, [])).status).toBe(204);
    expect((await s.request('api/v1/user/emails', { method: 'DELETE', auth: as(alice), json: {} })).status).toBe(204);
    expect(await listOf(alice)).toEqual(before);
  });

  it('refuses a body whose emails is not a list (422)', async () => {
    expect((await remove(alice, 'alice.keep@example.com')).status).toBe(422);
    expect(await addresses(alice)).toContain('alice.keep@example.com');
  });
});
