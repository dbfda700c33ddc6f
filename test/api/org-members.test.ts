import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOwner, addTeam, createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let alice: Creds; // member, public membership
let bob: Creds; // member, concealed membership
let outsider: Creds;
let orgId: number;
let teamId: number;

const logins = (body: { login: string }[]) => body.map((u) => u.login);

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  outsider = await createUser(s, 'outsider');
  orgId = (await createOrg(s, owner, 'crew')).id;
  teamId = await addTeam(s, orgId, 'devs', { mode: 2, uids: [alice.id, bob.id] });
  const res = await s.request('api/v1/orgs/crew/public_members/alice', { method: 'PUT', auth: as(alice) });
  expect(res.status).toBe(204);
});
afterAll(async () => { await s.stop(); });

describe('GET /orgs/{org}/members', () => {
  it('shows members every member, in the order they joined', async () => {
    const res = await s.request('api/v1/orgs/crew/members', { auth: as(bob) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[User]');
    expect(logins(body)).toEqual(['owner', 'alice', 'bob']);
    expect(res.headers.get('x-total-count')).toBe('3');
  });

  it('shows others only public members; site admins see all', async () => {
    expect(logins(await json(await s.request('api/v1/orgs/crew/members', { auth: as(outsider) })))).toEqual(['alice']);
    const admin = await json(await s.request('api/v1/orgs/crew/members', { auth: as(s.admin) }));
    expect(logins(admin)).toEqual(['owner', 'alice', 'bob']);
  });

  it('needs sign-in (401) and pages', async () => {
    expect((await s.request('api/v1/orgs/crew/members')).status).toBe(401);
    const res = await s.request('api/v1/orgs/crew/members?limit=2&page=2', { auth: as(owner) });
    expect(logins(await json(res))).toEqual(['bob']);
    expect(res.headers.get('link')).toContain('rel="first"');
  });

  it('reads with read:organization; not with read:user only', async () => {
    const ok = await createToken(s, owner, ['read:organization']);
    expect((await s.request('api/v1/orgs/crew/members', { auth: { token: ok } })).status).toBe(200);
    const no = await createToken(s, owner, ['read:user']);
    expect((await s.request('api/v1/orgs/crew/members', { auth: { token: no } })).status).toBe(403);
  });
});

describe('GET /orgs/{org}/public_members', () => {
  it('lists public members to anyone (UserList)', async () => {
    const res = await s.request('api/v1/orgs/crew/public_members');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[User]');
    expect(logins(body)).toEqual(['alice']);
  });

  it('answers 204 for a public member, 404 otherwise', async () => {
    expect((await s.request('api/v1/orgs/crew/public_members/alice')).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/public_members/bob')).status).toBe(404);
    expect((await s.request('api/v1/orgs/crew/public_members/outsider')).status).toBe(404);
    expect((await s.request('api/v1/orgs/crew/public_members/ghost-user')).status).toBe(404);
  });
});

describe('GET /orgs/{org}/members/{username}', () => {
  it('tells members and admins whether a user is a member (204 / 404)', async () => {
    expect((await s.request('api/v1/orgs/crew/members/bob', { auth: as(alice) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/members/outsider', { auth: as(alice) })).status).toBe(404);
    expect((await s.request('api/v1/orgs/crew/members/bob', { auth: as(s.admin) })).status).toBe(204);
  });

  it('sends other callers to the public membership check (303)', async () => {
    const res = await s.request('api/v1/orgs/crew/members/bob', { auth: as(outsider), redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/api/v1/orgs/crew/public_members/bob');
  });

  it('answers 404 to a non-member asking about themselves, and for unknown users', async () => {
    expect((await s.request('api/v1/orgs/crew/members/outsider', { auth: as(outsider), redirect: 'manual' })).status).toBe(404);
    expect((await s.request('api/v1/orgs/crew/members/ghost-user', { auth: as(alice) })).status).toBe(404);
  });
});

describe('PUT/DELETE /orgs/{org}/public_members/{username}', () => {
  it('lets a member publicize and conceal their own membership', async () => {
    expect((await s.request('api/v1/orgs/crew/public_members/bob', { method: 'PUT', auth: as(bob) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/public_members/bob')).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/public_members/bob', { method: 'DELETE', auth: as(bob) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/public_members/bob')).status).toBe(404);
  });

  it('refuses changing someone else\'s, even for an owner (403)', async () => {
    expect((await s.request('api/v1/orgs/crew/public_members/bob', { method: 'PUT', auth: as(alice) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/crew/public_members/alice', { method: 'DELETE', auth: as(owner) })).status).toBe(403);
  });

  it('refuses non-members (403) and anonymous callers (401)', async () => {
    expect((await s.request('api/v1/orgs/crew/public_members/outsider', { method: 'PUT', auth: as(outsider) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/crew/public_members/alice', { method: 'PUT' })).status).toBe(401);
  });
});

describe('DELETE /orgs/{org}/members/{username}', () => {
  it('is for owners only (403)', async () => {
    expect((await s.request('api/v1/orgs/crew/members/bob', { method: 'DELETE', auth: as(alice) })).status).toBe(403);
    expect((await s.request('api/v1/orgs/crew/members/bob', { method: 'DELETE', auth: as(outsider) })).status).toBe(403);
  });

  it('removes the member from every team and the organization; access goes with it', async () => {
    const made = await s.request('api/v1/orgs/crew/repos', { method: 'POST', auth: as(owner), json: { name: 'inner', private: true } });
    expect(made.status).toBe(201);
    await addTeam(s, orgId, 'all-readers', { mode: 1, allRepos: true, uids: [bob.id] });
    expect((await s.request('api/v1/repos/crew/inner', { auth: as(bob) })).status).toBe(200);
    expect((await s.request('api/v1/repos/crew/inner/subscription', { method: 'PUT', auth: as(bob) })).status).toBeLessThan(300);

    expect((await s.request('api/v1/orgs/crew/members/bob', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/members/bob', { auth: as(owner) })).status).toBe(404);
    expect((await s.request('api/v1/repos/crew/inner', { auth: as(bob) })).status).toBe(404);
    expect(logins(await json(await s.request('api/v1/user/orgs', { auth: as(bob) })))).toEqual([]);
    const db = s.hearth.db;
    expect(await db.selectFrom('team_user').selectAll().where('uid', '=', bob.id).execute()).toEqual([]);
    const team = await db.selectFrom('team').select('num_members').where('id', '=', teamId).executeTakeFirstOrThrow();
    expect(team.num_members).toBe(1);
    expect(await db.selectFrom('watch').selectAll().where('uid', '=', bob.id).execute()).toEqual([]);
  });

  it('answers 204 for a user who is not a member, 404 for an unknown one', async () => {
    expect((await s.request('api/v1/orgs/crew/members/outsider', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/members/ghost-user', { method: 'DELETE', auth: as(owner) })).status).toBe(404);
  });

  it('keeps the last owner (422); a second owner can leave', async () => {
    const res = await s.request('api/v1/orgs/crew/members/owner', { method: 'DELETE', auth: as(owner) });
    expect(res.status).toBe(422);
    expect((await json(res)).message).toMatch(/last member of owner team/);
    await addOwner(s, orgId, alice.id);
    expect((await s.request('api/v1/orgs/crew/members/alice', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await s.request('api/v1/orgs/crew/members/owner', { method: 'DELETE', auth: as(owner) })).status).toBe(422);
  });
});

describe('a private organization', () => {
  it('hides its members and public members from outsiders (404)', async () => {
    const priv = await createOrg(s, owner, 'hushed', { visibility: 'private' });
    expect(priv.visibility).toBe('private');
    expect((await s.request('api/v1/orgs/hushed/members', { auth: as(outsider) })).status).toBe(404);
    expect((await s.request('api/v1/orgs/hushed/public_members')).status).toBe(404);
    expect((await s.request('api/v1/orgs/hushed/members/owner', { auth: as(outsider) })).status).toBe(404);
    expect(logins(await json(await s.request('api/v1/orgs/hushed/members', { auth: as(owner) })))).toEqual(['owner']);
  });
});
