import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { ownerAndOther, type WebClient } from '../helpers/web-client';

// The organization pages over HTTP: create, settings (owners only: 403 to a member, 404 to one
// who may not see a private organization), teams created, edited with units, given members and
// repositories, deleted; every change checked through the API; bad input re-renders 422.

let s: TestServer;
type Creds = { username: string; password: string; id: number };
let alice: Creds;
let web: WebClient;
let bobWeb: WebClient;

const api = (p: string, method = 'GET', json?: unknown, who: Creds = alice) => s.request(`api/v1/${p}`, { method, auth: as(who), json });

beforeAll(async () => {
  s = await startTestServer();
  const users = await ownerAndOther(s);
  ({ alice } = users);
  [web, bobWeb] = [users.alice.web, users.bob.web];
});
afterAll(async () => { await s.stop(); });

describe('organizations', () => {
  it('creates an organization through the form; a taken name is 422 with the values kept', async () => {
    const res = await web.post('org/create', { org_name: 'acme', visibility: 'limited', repo_admin_change_team_access: 'on' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/acme$/);
    const org = await ok(await api('orgs/acme'));
    expect([org.visibility, org.repo_admin_change_team_access]).toEqual(['limited', true]);
    const again = await web.post('org/create', { org_name: 'acme', visibility: 'private' }, { from: 'org/create' });
    expect(again.status).toBe(422);
    const page = await again.text();
    expect(page).toContain('id="f-org_name-error"');
    expect(page).toMatch(/value="private" checked/);
  });

  it('lets owners edit the profile; a member gets 403, an outsider of a private org 404, and forged posts change nothing', async () => {
    await ok(await api('orgs', 'POST', { username: 'secretive', visibility: 'private' }), 201);
    await ok(await api('orgs', 'POST', { username: 'club' }), 201);
    const [owners] = await ok(await api('orgs/club/teams'));
    await ok(await api('orgs/club/teams', 'POST', { name: 'readers', permission: 'read', units: ['repo.code'] }), 201);
    const readers = (await ok(await api('orgs/club/teams'))).find((t: { name: string }) => t.name === 'readers');
    await ok(await api(`teams/${readers.id}/members/bob`, 'PUT'), 204);
    expect(owners.name).toBe('Owners');
    expect((await web.get('org/club/settings')).status).toBe(200);
    expect(await (await web.get('club')).text()).toContain('/org/club/settings">Settings</a>');
    expect(await (await bobWeb.get('club')).text()).not.toContain('/org/club/settings');
    expect((await bobWeb.get('org/club/settings')).status).toBe(403);
    expect((await bobWeb.get('org/secretive/settings')).status).toBe(404);
    expect((await bobWeb.get('org/club/teams/new')).status).toBe(403);
    const token = await web.csrfOf('org/club/settings');
    expect((await bobWeb.post('org/club/settings', { full_name: 'Hijacked', visibility: 'public' }, { from: 'user/settings' })).status).toBe(403);
    expect((await bobWeb.post('org/club/settings/delete', { org_name: 'club' }, { from: 'user/settings' })).status).toBe(403);
    expect(token).toBeTruthy();
    expect((await ok(await api('orgs/club'))).full_name).toBe('');
    const bad = await web.post('org/club/settings', { full_name: 'The Club', website: 'javascript:alert(1)', visibility: 'public' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('value="The Club"');
    expect((await web.post('org/club/settings', { full_name: 'The Club', website: 'https://club.example', location: 'Here', visibility: 'public' })).status).toBe(303);
    const club = await ok(await api('orgs/club'));
    expect([club.full_name, club.website, club.location]).toEqual(['The Club', 'https://club.example', 'Here']);
  });

  it('creates a team with per-unit access, adds a member and a repository, then deletes it', async () => {
    await ok(await api('orgs', 'POST', { username: 'works' }), 201);
    await ok(await api('orgs/works/repos', 'POST', { name: 'engine' }), 201);
    const made = await web.post('org/works/teams/new', { name: 'crew', description: 'the crew', permission: 'units', 'unit-repo.code': 'write', 'unit-repo.issues': 'read' });
    expect(made.status, await made.clone().text()).toBe(303);
    expect(made.headers.get('location')).toContain('/org/works/teams/crew/edit');
    const crew = (await ok(await api('orgs/works/teams'))).find((t: { name: string }) => t.name === 'crew');
    expect(crew.units_map['repo.code']).toBe('write');
    expect(crew.units_map['repo.issues']).toBe('read');
    expect(crew.units_map['repo.pulls']).toBe('none');
    const from = 'org/works/teams/crew/edit';
    expect((await web.post('org/works/teams/crew/members/add', { uname: 'bob' }, { from })).status).toBe(303);
    expect((await web.post('org/works/teams/crew/repos/add', { repo_name: 'engine' }, { from })).status).toBe(303);
    expect((await ok(await api(`teams/${crew.id}/members`))).map((u: { login: string }) => u.login)).toEqual(['bob']);
    expect((await ok(await api(`teams/${crew.id}/repos`))).map((r: { name: string }) => r.name)).toEqual(['engine']);
    const missing = await web.post('org/works/teams/crew/members/add', { uname: 'nobody-at-all' }, { from });
    expect(missing.status).toBe(422);
    const missingPage = await missing.text();
    expect(missingPage).toMatch(/id="f-uname-error"[^>]*>There is no user of that name\./);
    expect(missingPage).toContain('value="nobody-at-all"');
    const badRepo = await web.post('org/works/teams/crew/repos/add', { repo_name: 'no-such-repo' }, { from });
    expect(badRepo.status).toBe(422);
    const badRepoPage = await badRepo.text();
    expect(badRepoPage).toMatch(/id="f-repo_name-error"[^>]*>The organization has no repository of that name\./);
    expect(badRepoPage).toContain('value="no-such-repo"');
    expect((await ok(await api(`teams/${crew.id}/members`))).map((u: { login: string }) => u.login)).toEqual(['bob']);
    expect((await ok(await api(`teams/${crew.id}/repos`))).map((r: { name: string }) => r.name)).toEqual(['engine']);
    expect((await web.post('org/works/teams/crew/edit', { name: 'crew', permission: 'admin' }, { from })).status).toBe(303);
    expect((await ok(await api(`teams/${crew.id}`))).permission).toBe('admin');
    expect((await web.get('org/works/teams/crew/delete')).status).toBe(200);
    expect((await web.post('org/works/teams/crew/delete', {}, { from })).status).toBe(303);
    expect((await api(`teams/${crew.id}`)).status).toBe(404);
  });

  it('refuses a bad team name with 422 and deletes an organization only after its name is typed', async () => {
    await ok(await api('orgs', 'POST', { username: 'gone' }), 201);
    const bad = await web.post('org/gone/teams/new', { name: 'no spaces!', permission: 'units', 'unit-repo.code': 'read' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-name-error"');
    const wrong = await web.post('org/gone/settings/delete', { org_name: 'other' }, { from: 'org/gone/settings/delete' });
    expect(wrong.status).toBe(422);
    expect((await api('orgs/gone')).status).toBe(200);
    expect((await web.post('org/gone/settings/delete', { org_name: 'gone' }, { from: 'org/gone/settings/delete' })).status).toBe(303);
    expect((await api('orgs/gone')).status).toBe(404);
  });
});

describe('organization settings: blocked users, Actions secrets and variables', () => {
  it('blocks and unblocks a user; an outsider may not (403)', async () => {
    await ok(await api('orgs', 'POST', { username: 'fortress' }), 201);
    await createUser(s, 'troll');
    const from = 'org/fortress/settings/blocked_users';
    expect((await web.post('org/fortress/settings/blocked_users/block', { blockee: 'troll', note: 'spam' }, { from })).status).toBe(303);
    expect((await api('orgs/fortress/blocks/troll')).status).toBe(204);
    expect(await (await web.get(from)).text()).toContain('aria-label="Unblock troll"');
    const self = await web.post('org/fortress/settings/blocked_users/block', { blockee: 'alice' }, { from });
    expect(self.status).toBe(422);
    expect((await bobWeb.post('org/fortress/settings/blocked_users/unblock', { blockee: 'troll' }, { from: 'user/settings' })).status).toBe(403);
    expect((await api('orgs/fortress/blocks/troll')).status).toBe(204);
    expect((await web.post('org/fortress/settings/blocked_users/unblock', { blockee: 'troll' }, { from })).status).toBe(303);
    expect((await api('orgs/fortress/blocks/troll')).status).toBe(404);
  });

  it('adds and deletes secrets and variables; the secret value never shows; a taken variable name is 422', async () => {
    await ok(await api('orgs', 'POST', { username: 'vault' }), 201);
    const sec = 'org/vault/settings/actions/secrets';
    expect((await web.post(sec, { name: 'DEPLOY_KEY', data: 'very-secret-value', description: 'for deploys' })).status).toBe(303);
    const secrets = await ok(await api('orgs/vault/actions/secrets'));
    expect(secrets.map((x: { name: string }) => x.name)).toEqual(['DEPLOY_KEY']);
    expect(await (await web.get(sec)).text()).not.toContain('very-secret-value');
    const bad = await web.post(sec, { name: 'GITEA_TOKEN', data: 'x' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('value="GITEA_TOKEN"');
    expect((await web.get(`${sec}/delete?name=DEPLOY_KEY`)).status).toBe(200);
    expect((await web.post(`${sec}/delete?name=DEPLOY_KEY`, {}, { from: sec })).status).toBe(303);
    expect(await ok(await api('orgs/vault/actions/secrets'))).toEqual([]);
    const vars = 'org/vault/settings/actions/variables';
    expect((await web.post(vars, { name: 'REGION', data: 'eu-west' })).status).toBe(303);
    expect((await ok(await api('orgs/vault/actions/variables/REGION'))).data).toBe('eu-west');
    const taken = await web.post(vars, { name: 'REGION', data: 'us-east' });
    expect(taken.status).toBe(422);
    expect((await ok(await api('orgs/vault/actions/variables/REGION'))).data).toBe('eu-west');
    expect((await bobWeb.get(vars)).status).toBe(403);
    expect((await web.get('org/vault/settings/actions/other')).status).toBe(404);
  });
});

describe('organization avatar', () => {
  const postAvatar = async (c: WebClient, org: string, data: Buffer) => {
    const form = new FormData();
    form.append('_csrf', await c.csrfOf(`org/${org}/settings`));
    form.append('avatar', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'logo.png');
    return c.fetch(`org/${org}/settings/avatar`, { method: 'POST', body: form });
  };

  it('uploads and deletes the avatar; a file that is no image is 422', async () => {
    await ok(await api('orgs', 'POST', { username: 'painted' }), 201);
    const img = new PNG({ width: 8, height: 8 });
    img.data.fill(200);
    const res = await postAvatar(web, 'painted', PNG.sync.write(img));
    expect(res.status, await res.clone().text()).toBe(303);
    const before = (await ok(await api('orgs/painted'))).avatar_url;
    expect(await (await web.get('org/painted/settings')).text()).toContain('/org/painted/settings/avatar/delete');
    const bad = await postAvatar(web, 'painted', Buffer.from('not an image'));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-avatar-error"');
    expect((await web.post('org/painted/settings/avatar/delete', {}, { from: 'org/painted/settings/avatar/delete' })).status).toBe(303);
    expect((await ok(await api('orgs/painted'))).avatar_url).not.toBe(before);
  });
});

describe('organization labels', () => {
  it('creates, edits and deletes an organization label; a bad colour is 422; an outsider 403', async () => {
    await ok(await api('orgs', 'POST', { username: 'tagged' }), 201);
    const base = 'org/tagged/settings/labels';
    expect((await web.post(`${base}/new`, { name: 'urgent', color: '#ff0000', description: 'now' }, { from: base })).status).toBe(303);
    const [label] = await ok(await api('orgs/tagged/labels'));
    expect([label.name, label.color]).toEqual(['urgent', 'ff0000']);
    const bad = await web.post(`${base}/new`, { name: 'odd', color: 'pink' }, { from: base });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('value="odd"');
    expect(await (await web.get(`${base}?edit=${label.id}`)).text()).toContain(`id="edit-${label.id}-name"`);
    expect((await web.post(`${base}/${label.id}/edit`, { name: 'critical', color: '#00ff00' }, { from: base })).status).toBe(303);
    expect((await ok(await api(`orgs/tagged/labels/${label.id}`))).name).toBe('critical');
    expect((await bobWeb.post(`${base}/${label.id}/delete`, {}, { from: 'user/settings' })).status).toBe(403);
    expect((await web.get(`${base}/${label.id}/delete`)).status).toBe(200);
    expect((await web.post(`${base}/${label.id}/delete`, {}, { from: base })).status).toBe(303);
    expect(await ok(await api('orgs/tagged/labels'))).toEqual([]);
  });
});

describe('team repositories: add all', () => {
  it('adds every repository of the organization to a team', async () => {
    await ok(await api('orgs', 'POST', { username: 'plenty' }), 201);
    for (const name of ['one', 'two', 'three']) await ok(await api('orgs/plenty/repos', 'POST', { name }), 201);
    const team = await ok(await api('orgs/plenty/teams', 'POST', { name: 'all-hands', permission: 'read', units: ['repo.code'] }), 201);
    expect((await bobWeb.post('org/plenty/teams/all-hands/repos/add_all', {}, { from: 'user/settings' })).status).toBe(403);
    expect(await ok(await api(`teams/${team.id}/repos`))).toEqual([]);
    expect((await web.post('org/plenty/teams/all-hands/repos/add_all', {}, { from: 'org/plenty/teams/all-hands/edit' })).status).toBe(303);
    expect((await ok(await api(`teams/${team.id}/repos`))).map((r: { name: string }) => r.name).sort()).toEqual(['one', 'three', 'two']);
  });
});
