import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../helpers/orgs';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';
import type { Creds } from '../helpers/gitea-fixtures';

let s: TestServer;
let owner: Creds; // creates the organizations: on their Owners teams
let member: Creds; // on the `devs` team of each organization
let outsider: Creds;

const names = (body: { name: string }[]) => body.map((t) => t.name);
const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);

/**
 * Repository shape check: the repositories area sends `parent` and `repo_transfer` as null, which
 * the reference does not allow (Gitea omits them); that is theirs to settle, so they are set aside.
 */
function expectRepoShape(body: Record<string, unknown>[]): void {
  const strip = (r: Record<string, unknown>) => Object.fromEntries(
    Object.entries(r).filter(([k, v]) => !(v === null && (k === 'parent' || k === 'repo_transfer'))),
  );
  expectShape(body.map(strip), '[Repository]');
}

async function createTeam(org: string, body: Record<string, unknown>, who: Creds = owner) {
  const res = await api(`orgs/${org}/teams`, { method: 'POST', auth: as(who), json: body });
  if (res.status !== 201) throw new Error(`create team: ${res.status} ${await res.text()}`);
  return json(res);
}

async function createOrgRepo(org: string, name: string, priv = false) {
  const res = await api(`orgs/${org}/repos`, { method: 'POST', auth: as(owner), json: { name, private: priv } });
  if (res.status !== 201) throw new Error(`create repo: ${res.status} ${await res.text()}`);
  return json(res);
}

const isMember = async (org: string, user: Creds) => (await api(`orgs/${org}/members/${user.username}`, { auth: as(owner) })).status === 204;

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'olga');
  member = await createUser(s, 'max');
  outsider = await createUser(s, 'oscar');
  await createOrg(s, owner, 'acme', { email: 'acme@example.com' }); // an empty email fails User's format in repository owners
  await createOrg(s, owner, 'secret', { visibility: 'private' });
  for (const org of ['acme', 'secret']) {
    const devs = await createTeam(org, { name: 'devs', permission: 'write', units: ['repo.code', 'repo.issues'] });
    expect((await api(`teams/${devs.id}/members/max`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
  }
});
afterAll(async () => { await s.stop(); });

describe('POST /orgs/{org}/teams', () => {
  it('creates a team (201) with units at its permission and the organization', async () => {
    const res = await api('orgs/acme/teams', {
      method: 'POST', auth: as(owner),
      json: { name: 'Writers', description: 'They write', permission: 'write', units: ['repo.code', 'repo.pulls', 'repo.ext_wiki'], can_create_org_repo: true },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectShape(body, 'Team');
    expectShape(body.organization, 'Organization');
    expect(body).toMatchObject({
      name: 'Writers', description: 'They write', permission: 'none', includes_all_repositories: false, can_create_org_repo: true,
      units: ['repo.code', 'repo.pulls', 'repo.ext_wiki'],
      // External wikis can only be read.
      units_map: { 'repo.code': 'write', 'repo.pulls': 'write', 'repo.ext_wiki': 'read' },
    });
    // Gitea's Team has no visibility: hearth keeps it (it rules the listings) but does not show it.
    expect(body).not.toHaveProperty('visibility');
    expect(body.organization.name).toBe('acme');
  });

  it('takes the unit modes from units_map, which wins over units; the team reports none, as Gitea\'s unit-based teams', async () => {
    const body = await createTeam('acme', {
      name: 'mixed', permission: 'write', units: ['repo.wiki'],
      units_map: { 'repo.code': 'read', 'repo.issues': 'write', 'repo.wiki': 'none', 'repo.ext_issues': 'write' },
    });
    expect(body.permission).toBe('none');
    expect(body.units_map).toEqual({ 'repo.code': 'read', 'repo.issues': 'write', 'repo.wiki': 'none', 'repo.ext_issues': 'read' });
    expect([...body.units].sort()).toEqual(['repo.code', 'repo.ext_issues', 'repo.issues', 'repo.wiki']);
  });

  it('gives an admin team every unit at admin', async () => {
    const body = await createTeam('acme', { name: 'admins', permission: 'admin', units_map: { 'repo.code': 'read' } });
    expectShape(body, 'Team');
    expect(body.permission).toBe('admin');
    expect(body.units).toContain('repo.releases');
    expect(Object.values(body.units_map).every((m) => m === 'admin')).toBe(true);
  });

  it('answers 422 for invalid options and for a name taken (in any case)', async () => {
    const bad: Record<string, unknown>[] = [
      { permission: 'read', units: ['repo.code'] },
      { name: '', permission: 'read', units: ['repo.code'] },
      { name: 'sp ace', permission: 'read', units: ['repo.code'] },
      { name: 'x'.repeat(256), permission: 'read', units: ['repo.code'] },
      { name: 'new', permission: 'read', units: ['repo.code'] },
      { name: 'ok', permission: 'owner', units: ['repo.code'] },
      { name: 'ok', permission: 'read' },
      { name: 'ok', permission: 'read', units: ['repo.nope'] },
      { name: 'ok', permission: 'read', units_map: { 'repo.code': 'superuser' } },
      { name: 'ok', permission: 'read', units: ['repo.code'], visibility: 'secret' },
      { name: 'ok', permission: 'read', units: ['repo.code'], description: 'd'.repeat(256) },
      { name: 'DEVS', permission: 'read', units: ['repo.code'] },
    ];
    for (const body of bad) {
      const res = await api('orgs/acme/teams', { method: 'POST', auth: as(owner), json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(typeof (await json(res)).message).toBe('string');
    }
  });

  it('is for owners: members 403, outsiders of a private organization 404, anonymous 401', async () => {
    const body = { name: 'nope', permission: 'read', units: ['repo.code'] };
    expect((await api('orgs/acme/teams', { method: 'POST', auth: as(member), json: body })).status).toBe(403);
    expect((await api('orgs/acme/teams', { method: 'POST', auth: as(outsider), json: body })).status).toBe(403);
    expect((await api('orgs/secret/teams', { method: 'POST', auth: as(outsider), json: body })).status).toBe(404);
    expect((await api('orgs/acme/teams', { method: 'POST', json: body })).status).toBe(401);
    const admin = await api('orgs/acme/teams', { method: 'POST', auth: as(s.admin), json: { ...body, name: 'by-admin' } });
    expect(admin.status).toBe(201);
  });

  it('lists every existing repository on a team that includes all of them', async () => {
    await createOrgRepo('acme', 'existing');
    const team = await createTeam('acme', { name: 'all-in', permission: 'read', units: ['repo.code'], includes_all_repositories: true });
    expect(team.includes_all_repositories).toBe(true);
    const repos = await json(await api(`teams/${team.id}/repos`, { auth: as(owner) }));
    expect(repos.map((r: { name: string }) => r.name)).toContain('existing');
  });
});

describe('team visibility and listing', () => {
  let priv: { id: number };
  let pub: { id: number };
  beforeAll(async () => {
    await createOrg(s, owner, 'vis');
    pub = await createTeam('vis', { name: 'b-public', permission: 'read', units: ['repo.code'], visibility: 'public', description: 'Open to all' });
    await createTeam('vis', { name: 'c-limited', permission: 'read', units: ['repo.code'] });
    priv = await createTeam('vis', { name: 'd-private', permission: 'read', units: ['repo.code'], visibility: 'private' });
    const mine = await createTeam('vis', { name: 'e-private-mine', permission: 'read', units: ['repo.code'], visibility: 'private' });
    expect((await api(`teams/${mine.id}/members/max`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
  });

  it('shows owners and site admins every team, by name', async () => {
    for (const who of [owner, s.admin]) {
      const res = await api('orgs/vis/teams', { auth: as(who) });
      expect(res.status).toBe(200);
      const body = await json(res);
      expectShape(body, '[Team]');
      expect(names(body)).toEqual(['b-public', 'c-limited', 'd-private', 'e-private-mine', 'Owners']);
    }
  });

  it('shows members public and limited teams and the private ones they are on', async () => {
    const body = await json(await api('orgs/vis/teams', { auth: as(member) }));
    expect(names(body)).toEqual(['b-public', 'c-limited', 'e-private-mine', 'Owners']);
  });

  it('lists teams to members only, as Gitea: other signed-in users 403, outsiders of a private organization 404', async () => {
    expect((await api('orgs/vis/teams', { auth: as(outsider) })).status).toBe(403);
    expect((await api('orgs/vis/teams/search?q=public', { auth: as(outsider) })).status).toBe(403);
    expect((await api('orgs/secret/teams', { auth: as(outsider) })).status).toBe(404);
    expect((await api('orgs/vis/teams')).status).toBe(401);
  });

  it('pages with Link and X-Total-Count', async () => {
    const res = await api('orgs/vis/teams?limit=2&page=2', { auth: as(owner) });
    expect(names(await json(res))).toEqual(['d-private', 'e-private-mine']);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('GET /teams/{id} follows the same rules: 403 to members off a private team, 404 to others', async () => {
    expect((await api(`teams/${priv.id}`, { auth: as(owner) })).status).toBe(200);
    expect((await api(`teams/${priv.id}`, { auth: as(s.admin) })).status).toBe(200);
    expect((await api(`teams/${priv.id}`, { auth: as(member) })).status).toBe(403);
    expect((await api(`teams/${priv.id}`, { auth: as(outsider) })).status).toBe(404);
    const res = await api(`teams/${pub.id}`, { auth: as(outsider) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Team');
    expect(body).toMatchObject({ name: 'b-public', permission: 'none' });
    expect((await api('teams/999999', { auth: as(owner) })).status).toBe(404);
    expect((await api('teams/abc', { auth: as(owner) })).status).toBe(404);
    expect((await api(`teams/${pub.id}`)).status).toBe(401);
  });

  it('searches names, and descriptions unless include_desc=false ({ok, data})', async () => {
    const res = await api('orgs/vis/teams/search?q=LIMIT', { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.ok).toBe(true);
    expectShape(body.data, '[Team]');
    expect(names(body.data)).toEqual(['c-limited']);
    expect(names((await json(await api('orgs/vis/teams/search?q=open', { auth: as(owner) }))).data)).toEqual(['b-public']);
    expect((await json(await api('orgs/vis/teams/search?q=open&include_desc=false', { auth: as(owner) }))).data).toEqual([]);
    expect(names((await json(await api('orgs/vis/teams/search?q=private', { auth: as(member) }))).data)).toEqual(['e-private-mine']);
    const paged = await api('orgs/vis/teams/search?limit=1', { auth: as(owner) });
    expect(paged.headers.get('x-total-count')).toBe('5');
  });

  it('GET /user/teams lists the caller\'s teams in every organization, with the organization', async () => {
    const res = await api('user/teams', { auth: as(member) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[Team]');
    const pairs = body.map((t: { name: string; organization: { name: string } }) => `${t.organization.name}/${t.name}`).sort();
    expect(pairs).toEqual(['acme/devs', 'secret/devs', 'vis/e-private-mine']);
    expect(await json(await api('user/teams', { auth: as(outsider) }))).toEqual([]);
  });
});

describe('PATCH /teams/{id}', () => {
  let team: { id: number };
  beforeAll(async () => {
    team = await createTeam('acme', { name: 'editable', permission: 'read', units: ['repo.code'], visibility: 'public' });
  });

  it('keeps the name when none is given (as Gitea\'s EditTeam); an invalid value is 422', async () => {
    const kept = await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: { description: 'x' } });
    expect(kept.status).toBe(200);
    expect(((await kept.json()) as { name: string }).name).toBe('editable');
    for (const body of [{ name: 'editable', visibility: 'hidden' }, { name: 'bad name' }, { name: 'editable', permission: 'owner' }]) {
      const res = await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('renames and changes fields; an omitted visibility stays', async () => {
    const res = await api(`teams/${team.id}`, {
      method: 'PATCH', auth: as(owner),
      json: { name: 'edited', description: 'now', can_create_org_repo: true, permission: 'write', units: ['repo.code', 'repo.issues'] },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'Team');
    expect(body).toMatchObject({
      name: 'edited', description: 'now', can_create_org_repo: true, permission: 'none',
      units_map: { 'repo.code': 'write', 'repo.issues': 'write' },
    });
    // The team's visibility is not in Gitea's Team record: read from its row.
    const visibility = async () => (await s.hearth.db.selectFrom('team').select('visibility').where('id', '=', team.id).executeTakeFirstOrThrow()).visibility;
    expect(await visibility()).toBe('public');
    const vis = await json(await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: { name: 'edited', visibility: 'private' } }));
    expect(vis).toMatchObject({ description: 'now', permission: 'none', units_map: { 'repo.code': 'write', 'repo.issues': 'write' } });
    expect(await visibility()).toBe('private');
  });

  it('keeps units in step when the level alone changes', async () => {
    let body = await json(await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: { name: 'edited', permission: 'admin' } }));
    expect(body.permission).toBe('admin');
    body = await json(await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: { name: 'edited', permission: 'read' } }));
    expect(body.permission).toBe('none');
    expect(Object.values(body.units_map).every((m) => m === 'read')).toBe(true);
    body = await json(await api(`teams/${team.id}`, {
      method: 'PATCH', auth: as(owner), json: { name: 'edited', permission: 'read', units_map: { 'repo.code': 'write', 'repo.issues': 'read' } },
    }));
    expect(body).toMatchObject({ permission: 'none', units_map: { 'repo.code': 'write', 'repo.issues': 'read' } });
  });

  it('refuses a name another team has (422)', async () => {
    const res = await api(`teams/${team.id}`, { method: 'PATCH', auth: as(owner), json: { name: 'Devs' } });
    expect(res.status).toBe(422);
  });

  it('is for owners: members 403, outsiders 404 (the team is private now)', async () => {
    const devs = (await json(await api('orgs/acme/teams/search?q=devs', { auth: as(owner) }))).data[0];
    expect((await api(`teams/${devs.id}`, { method: 'PATCH', auth: as(member), json: { name: 'devs' } })).status).toBe(403);
    expect((await api(`teams/${team.id}`, { method: 'PATCH', auth: as(outsider), json: { name: 'x' } })).status).toBe(404);
  });

  it('keeps the Owners team\'s name, level and rights; its description changes', async () => {
    const owners = (await json(await api('orgs/acme/teams/search?q=owners', { auth: as(owner) }))).data[0];
    const res = await api(`teams/${owners.id}`, {
      method: 'PATCH', auth: as(owner),
      json: { name: 'Bosses', description: 'The owners', permission: 'read', can_create_org_repo: false, includes_all_repositories: false },
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      name: 'Owners', description: 'The owners', permission: 'owner', can_create_org_repo: true, includes_all_repositories: true,
    });
    expect(Object.values(body.units_map).every((m) => m === 'owner')).toBe(true);
  });

  it('needs write:organization with a token', async () => {
    const read = await createToken(s, owner, ['read:organization']);
    expect((await api(`teams/${team.id}`, { auth: { token: read } })).status).toBe(200);
    expect((await api(`teams/${team.id}`, { method: 'PATCH', auth: { token: read }, json: { name: 'edited' } })).status).toBe(403);
  });
});

describe('DELETE /teams/{id}', () => {
  it('refuses the Owners team (403) and non-owners (403)', async () => {
    const owners = (await json(await api('orgs/acme/teams/search?q=owners', { auth: as(owner) }))).data[0];
    expect((await api(`teams/${owners.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(403);
    const devs = (await json(await api('orgs/acme/teams/search?q=devs', { auth: as(owner) }))).data[0];
    expect((await api(`teams/${devs.id}`, { method: 'DELETE', auth: as(member) })).status).toBe(403);
  });

  it('deletes a team; members on no other team leave the organization', async () => {
    const user = await createUser(s, 'temp');
    const team = await createTeam('acme', { name: 'short-lived', permission: 'read', units: ['repo.code'] });
    expect((await api(`teams/${team.id}/members/temp`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect(await isMember('acme', user)).toBe(true);
    expect((await api(`teams/${team.id}`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await api(`teams/${team.id}`, { auth: as(owner) })).status).toBe(404);
    expect(await isMember('acme', user)).toBe(false);
  });
});

describe('team members', () => {
  let team: { id: number };
  let carl: Creds;
  beforeAll(async () => {
    carl = await createUser(s, 'carl');
    team = await createTeam('acme', { name: 'crew', permission: 'read', units: ['repo.code'] });
  });

  it('PUT adds the user to the team and the organization (204, idempotent)', async () => {
    expect(await isMember('acme', carl)).toBe(false);
    for (let i = 0; i < 2; i++) {
      expect((await api(`teams/${team.id}/members/carl`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    }
    expect(await isMember('acme', carl)).toBe(true);
    const res = await api(`teams/${team.id}/members`, { auth: as(carl) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[User]');
    expect(body.map((u: { login: string }) => u.login)).toEqual(['carl']);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it('GET /teams/{id}/members/{username}: the user when on the team, else 404', async () => {
    const res = await api(`teams/${team.id}/members/carl`, { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, 'User');
    expect(body.login).toBe('carl');
    expect((await api(`teams/${team.id}/members/max`, { auth: as(owner) })).status).toBe(404);
    expect((await api(`teams/${team.id}/members/ghost`, { auth: as(owner) })).status).toBe(404);
  });

  it('refuses members (403), unknown users (404), organizations (422) and blocked users (403)', async () => {
    expect((await api(`teams/${team.id}/members/oscar`, { method: 'PUT', auth: as(member) })).status).toBe(403);
    expect((await api(`teams/${team.id}/members/ghost`, { method: 'PUT', auth: as(owner) })).status).toBe(404);
    expect((await api(`teams/${team.id}/members/secret`, { method: 'PUT', auth: as(owner) })).status).toBe(422);
    expect((await api('orgs/acme/blocks/oscar', { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect((await api(`teams/${team.id}/members/oscar`, { method: 'PUT', auth: as(owner) })).status).toBe(403);
    expect((await api('orgs/acme/blocks/oscar', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
  });

  it('DELETE takes the user off; off the last team it leaves the organization', async () => {
    expect((await api(`teams/${team.id}/members/carl`, { method: 'DELETE', auth: as(member) })).status).toBe(403);
    expect((await api(`teams/${team.id}/members/carl`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect(await isMember('acme', carl)).toBe(false);
    // Not on the team: nothing to do.
    expect((await api(`teams/${team.id}/members/carl`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
  });

  it('keeps a member of other teams in the organization', async () => {
    expect((await api(`teams/${team.id}/members/max`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect((await api(`teams/${team.id}/members/max`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect(await isMember('acme', member)).toBe(true);
  });

  it('refuses to remove the last member of the Owners team (422)', async () => {
    const owners = (await json(await api('orgs/acme/teams/search?q=owners', { auth: as(owner) }))).data[0];
    expect((await api(`teams/${owners.id}/members/olga`, { method: 'DELETE', auth: as(owner) })).status).toBe(422);
    expect((await api(`teams/${owners.id}/members/carl`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect((await api(`teams/${owners.id}/members/olga`, { method: 'DELETE', auth: as(carl) })).status).toBe(204);
    expect((await api(`teams/${owners.id}/members/olga`, { method: 'PUT', auth: as(carl) })).status).toBe(204);
    expect((await api(`teams/${owners.id}/members/carl`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
  });
});

describe('team repositories', () => {
  let team: { id: number };
  beforeAll(async () => {
    team = await createTeam('acme', { name: 'repo-team', permission: 'write', units: ['repo.code'] });
    await createOrgRepo('acme', 'tools');
    await createOrgRepo('acme', 'vault', true);
    await createOrgRepo('secret', 'hidden');
    expect((await api(`teams/${team.id}/members/max`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
  });

  it('PUT lists a repository on the team (204); GET shows it', async () => {
    for (const r of ['tools', 'vault']) {
      expect((await api(`teams/${team.id}/repos/acme/${r}`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    }
    const res = await api(`teams/${team.id}/repos`, { auth: as(member) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectRepoShape(body);
    expect(body.map((r: { name: string }) => r.name)).toEqual(['tools', 'vault']);
    expect(body[0].permissions).toEqual({ admin: false, push: true, pull: true });
    expect(res.headers.get('x-total-count')).toBe('2');
    const one = await api(`teams/${team.id}/repos/acme/vault`, { auth: as(member) });
    expect(one.status).toBe(200);
    const repo = await json(one);
    expectRepoShape([repo]);
    expect(repo.full_name).toBe('acme/vault');
  });

  it('gives team members access to the listed repositories', async () => {
    expect((await api('repos/acme/vault', { auth: as(member) })).status).toBe(200);
    expect((await api(`teams/${team.id}/repos/acme/vault`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await api('repos/acme/vault', { auth: as(member) })).status).toBe(404);
    expect((await api(`teams/${team.id}/repos/acme/vault`, { auth: as(owner) })).status).toBe(404);
  });

  it('needs admin access to the repository (403); other organizations\' repositories are 404', async () => {
    expect((await api(`teams/${team.id}/repos/acme/vault`, { method: 'PUT', auth: as(member) })).status).toBe(403);
    expect((await api(`teams/${team.id}/repos/secret/hidden`, { method: 'PUT', auth: as(owner) })).status).toBe(404);
    expect((await api(`teams/${team.id}/repos/acme/missing`, { method: 'PUT', auth: as(owner) })).status).toBe(404);
  });

  it('does not make members repository admins through one unit at admin (the team\'s level is read)', async () => {
    const odd = await createTeam('acme', { name: 'odd', units_map: { 'repo.code': 'admin', 'repo.issues': 'read' } });
    expect(odd.permission).toBe('none');
    const user = await createUser(s, 'odette');
    expect((await api(`teams/${odd.id}/members/odette`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    expect((await api(`teams/${odd.id}/repos/acme/vault`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    const repo = await json(await api('repos/acme/vault', { auth: as(user) }));
    expect(repo.permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await api('repos/acme/vault', { method: 'PATCH', auth: as(user), json: { description: 'x' } })).status).toBe(403);
  });

  it('lists the team\'s repositories in the member\'s GET /user/repos (Gitea\'s team repositories)', async () => {
    const mine = await json(await api('user/repos?limit=50', { auth: as(member) }));
    expect(mine.map((r: { full_name: string }) => r.full_name)).toContain('acme/tools');
  });

  it('keeps the repositories of a team that includes all of them (422)', async () => {
    const all = await createTeam('acme', { name: 'everything', permission: 'read', units: ['repo.code'], includes_all_repositories: true });
    const res = await api(`teams/${all.id}/repos/acme/tools`, { method: 'DELETE', auth: as(owner) });
    expect(res.status).toBe(422);
  });

  it('shows callers outside a public team only its public repositories', async () => {
    const open = await createTeam('acme', { name: 'open-team', permission: 'read', units: ['repo.code'], visibility: 'public' });
    for (const r of ['tools', 'vault']) {
      expect((await api(`teams/${open.id}/repos/acme/${r}`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    }
    const res = await api(`teams/${open.id}/repos`, { auth: as(outsider) });
    expect((await json(res)).map((r: { name: string }) => r.name)).toEqual(['tools']);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect((await api(`teams/${open.id}/repos/acme/vault`, { auth: as(outsider) })).status).toBe(404);
  });
});

describe('GET /teams/{id}/activities/feeds', () => {
  it('shows team members the organization\'s activity on the team\'s repositories', async () => {
    const team = await createTeam('acme', { name: 'feed-team', permission: 'read', units: ['repo.code'], visibility: 'public' });
    await createOrgRepo('acme', 'feedy');
    expect((await api(`teams/${team.id}/repos/acme/feedy`, { method: 'PUT', auth: as(owner) })).status).toBe(204);
    const res = await api(`teams/${team.id}/activities/feeds`, { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.map((a: { op_type: string; repo: { name: string } }) => `${a.op_type} ${a.repo.name}`)).toEqual(['create_repo feedy']);
    expectRepoShape(body.map((a: { repo: Record<string, unknown> }) => a.repo));
    expectShape(body.map((a: Record<string, unknown>) => ({ ...a, repo: undefined })), '[Activity]');
    expect(res.headers.get('x-total-count')).toBe(String(body.length));
    // Outsiders see the public team, not its feed.
    expect((await api(`teams/${team.id}/activities/feeds`, { auth: as(outsider) })).status).toBe(403);
  });

  it('answers [] for a team without repositories', async () => {
    const team = await createTeam('acme', { name: 'quiet', permission: 'read', units: ['repo.code'] });
    const res = await api(`teams/${team.id}/activities/feeds`, { auth: as(owner) });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual([]);
  });
});
