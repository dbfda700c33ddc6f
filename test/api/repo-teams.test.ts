import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let admin: Creds; // admin collaborator of flex/app and rigid/app
let writer: Creds; // write collaborator
let member: Creds; // on `readers`
let outsider: Creds;
const teams: Record<string, number> = {};

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const names = (body: { name: string }[]) => body.map((t) => t.name);

async function ok(res: Response, status: number): Promise<void> {
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'olive');
  admin = await createUser(s, 'adam');
  writer = await createUser(s, 'wendy');
  member = await createUser(s, 'mia');
  outsider = await createUser(s, 'otis');
  // `flex` lets repository admins change team access; `rigid` does not.
  await createOrg(s, owner, 'flex', { repo_admin_change_team_access: true });
  await createOrg(s, owner, 'rigid');
  for (const org of ['flex', 'rigid']) {
    await ok(await api(`orgs/${org}/repos`, { method: 'POST', auth: as(owner), json: { name: 'app' } }), 201);
    for (const [name, visibility] of [['readers', 'limited'], ['hidden', 'private'], ['extra', 'public']]) {
      const res = await api(`orgs/${org}/teams`, { method: 'POST', auth: as(owner), json: { name, permission: 'read', units: ['repo.code'], visibility } });
      await ok(res, 201);
      teams[`${org}/${name}`] = (await json(res)).id;
    }
    await ok(await api(`teams/${teams[`${org}/readers`]}/members/mia`, { method: 'PUT', auth: as(owner) }), 204);
    for (const t of ['readers', 'hidden']) await ok(await api(`teams/${teams[`${org}/${t}`]}/repos/${org}/app`, { method: 'PUT', auth: as(owner) }), 204);
    await ok(await api(`repos/${org}/app/collaborators/adam`, { method: 'PUT', auth: as(owner), json: { permission: 'admin' } }), 204);
    await ok(await api(`repos/${org}/app/collaborators/wendy`, { method: 'PUT', auth: as(owner), json: { permission: 'write' } }), 204);
  }
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/teams', () => {
  it('lists the teams on the repository for owners (all of them)', async () => {
    const res = await api('repos/flex/app/teams', { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Team]');
    // The Owners team includes every repository.
    expect(names(body)).toEqual(['hidden', 'Owners', 'readers']);
  });

  it('leaves out private teams the caller may not list', async () => {
    expect(names(await json(await api('repos/flex/app/teams', { auth: as(member) })))).toEqual(['Owners', 'readers']);
    expect(names(await json(await api('repos/flex/app/teams', { auth: as(writer) })))).toEqual([]);
  });

  it('needs read access on the repository (outsiders read a public one) and sign-in', async () => {
    expect((await api('repos/flex/app/teams', { auth: as(outsider) })).status).toBe(200);
    await ok(await api('orgs/flex/repos', { method: 'POST', auth: as(owner), json: { name: 'closed', private: true } }), 201);
    expect((await api('repos/flex/closed/teams', { auth: as(outsider) })).status).toBe(404);
    expect((await api('repos/flex/closed/teams/owners', { auth: as(outsider) })).status).toBe(404);
    expect((await api('repos/flex/app/teams')).status).toBe(401);
    expect((await api('repos/flex/nope/teams', { auth: as(owner) })).status).toBe(404);
  });

  it('answers 405 for a user\'s repository', async () => {
    await createRepo(s, owner, 'mine');
    const res = await api('repos/olive/mine/teams', { auth: as(owner) });
    expect(res.status).toBe(405);
    expect((await api('repos/olive/mine/teams/readers', { auth: as(owner) })).status).toBe(405);
    expect((await api('repos/olive/mine/teams/readers', { method: 'PUT', auth: as(owner) })).status).toBe(405);
  });
});

describe('GET /repos/{owner}/{repo}/teams/{team}', () => {
  it('returns the team when it is on the repository (by name, any case)', async () => {
    const res = await api('repos/flex/app/teams/READERS', { auth: as(member) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Team');
    expect(body).toMatchObject({ id: teams['flex/readers'], name: 'readers', permission: 'none', units_map: { 'repo.code': 'read' } });
  });

  it('is 404 when the team is not on it, does not exist, or is hidden from the caller', async () => {
    expect((await api('repos/flex/app/teams/extra', { auth: as(owner) })).status).toBe(404);
    expect((await api('repos/flex/app/teams/ghost', { auth: as(owner) })).status).toBe(404);
    expect((await api('repos/flex/app/teams/hidden', { auth: as(member) })).status).toBe(404);
    expect((await api('repos/flex/app/teams/hidden', { auth: as(owner) })).status).toBe(200);
  });
});

describe('PUT/DELETE /repos/{owner}/{repo}/teams/{team}', () => {
  it('lets organization owners add and remove teams; 422 when already (not) there', async () => {
    expect((await api('repos/rigid/app/teams/extra', { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect((await api('repos/rigid/app/teams/extra', { auth: as(owner) })).status).toBe(200);
    expect((await api('repos/rigid/app/teams/extra', { method: 'PUT', auth: as(owner) })).status).toBe(422);
    expect((await api('repos/rigid/app/teams/extra', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await api('repos/rigid/app/teams/extra', { auth: as(owner) })).status).toBe(404);
    expect((await api('repos/rigid/app/teams/extra', { method: 'DELETE', auth: as(owner) })).status).toBe(422);
    expect((await api('repos/rigid/app/teams/ghost', { method: 'PUT', auth: as(owner) })).status).toBe(404);
  });

  it('lets repository admins change teams only when the organization allows it', async () => {
    expect((await api('repos/rigid/app/teams/extra', { method: 'PUT', auth: as(admin) })).status).toBe(403);
    expect((await api('repos/flex/app/teams/extra', { method: 'PUT', auth: as(admin) })).status).toBe(204);
    expect((await api('repos/flex/app/teams/extra', { method: 'DELETE', auth: as(admin) })).status).toBe(204);
  });

  it('refuses writers and readers (403) and needs write:repository', async () => {
    expect((await api('repos/flex/app/teams/extra', { method: 'PUT', auth: as(writer) })).status).toBe(403);
    expect((await api('repos/flex/app/teams/extra', { method: 'PUT', auth: as(member) })).status).toBe(403);
    const read = await createToken(s, owner, ['read:repository']);
    expect((await api('repos/flex/app/teams/extra', { method: 'PUT', auth: { token: read } })).status).toBe(403);
    const write = await createToken(s, owner, ['write:repository']);
    expect((await api('repos/flex/app/teams/extra', { method: 'PUT', auth: { token: write } })).status).toBe(204);
  });

  it('gives the added team\'s members access to a private repository, and takes it back', async () => {
    await ok(await api('orgs/rigid/repos', { method: 'POST', auth: as(owner), json: { name: 'vault', private: true } }), 201);
    expect((await api('repos/rigid/vault', { auth: as(member) })).status).toBe(404);
    expect((await api('repos/rigid/vault/teams/readers', { method: 'PUT', auth: as(owner) })).status).toBe(204);
    const res = await api('repos/rigid/vault', { auth: as(member) });
    expect(res.status).toBe(200);
    expect((await json(res)).permissions).toEqual({ admin: false, push: false, pull: true });
    expect((await api('repos/rigid/vault/teams/readers', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await api('repos/rigid/vault', { auth: as(member) })).status).toBe(404);
  });
});
