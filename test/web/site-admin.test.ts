import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, WebClient } from '../helpers/web-client';
import { eventually } from '../helpers/wait';
import { createSiteAdmin } from '../helpers/site-admin';

// The site administration pages over HTTP: only site admins open them (anonymous visitors sign
// in first, other users get 403, as Gitea's adminReq); accounts created, edited and deleted
// through the forms are checked through the API; bad input re-renders 422; cron "run now".

let s: TestServer;
let adminWeb: WebClient;
let bob: { username: string; password: string; id: number };
let boss: { username: string; password: string; id: number };

const admin = () => ({ basic: [s.admin.username, s.admin.password] as [string, string] });
const apiUser = async (name: string) => ok(await s.request(`api/v1/users/${name}`, { auth: admin() }));

beforeAll(async () => {
  s = await startTestServer();
  bob = await createUser(s, 'bob');
  boss = await createSiteAdmin(s);
  adminWeb = await signedInClient(s, boss.username, boss.password);
});
afterAll(async () => { await s.stop(); });

describe('site administration', () => {
  it('sends anonymous visitors to sign in, and refuses other users (403, nothing changed)', async () => {
    const anon = await new WebClient(s).get('-/admin/users');
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toContain('/user/login?redirect_to=');
    const bobWeb = await signedInClient(s, 'bob', bob.password);
    for (const p of ['-/admin', '-/admin/users', '-/admin/users/new', '-/admin/orgs', '-/admin/config']) expect((await bobWeb.get(p)).status).toBe(403);
    const token = await adminWeb.csrfOf('-/admin/users/new');
    const forged = await bobWeb.post('-/admin/users/new', { user_name: 'mallory', email: 'm@example.com', password: 'pw-mallory-1' }, { csrf: token });
    expect(forged.status).toBe(403);
    expect((await bobWeb.post('-/admin/users/bob', { email: 'bob@example.com', admin: 'on', active: 'on' }, { from: 'user/settings' })).status).toBe(403);
    expect((await s.request('api/v1/users/mallory', { auth: admin() })).status).toBe(404);
    expect((await apiUser('bob')).is_admin).toBe(false);
  });

  it('carries the header of every page: the admin\'s unread notifications are counted there too', async () => {
    await createRepo(s, boss, 'watched', { auto_init: true });
    await ok(await s.request('api/v1/repos/boss/watched/issues', { method: 'POST', auth: as(bob), json: { title: 'For the admin' } }), 201);
    await eventually(async () => (await (await adminWeb.get('-/admin')).text()).includes('Notifications, 1 unread'), 10_000, 'the unread count in the header');
  });

  it('creates an account that must change its password, lists and finds it', async () => {
    const res = await adminWeb.post('-/admin/users/new', { user_name: 'carol', email: 'carol@example.com', password: 'pw-carol-secret', must_change_password: 'on' });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toContain('/-/admin/users/carol?done=user-created');
    const all = await ok(await s.request('api/v1/admin/users?limit=50', { auth: admin() }));
    expect(all.map((u: { login: string }) => u.login)).toContain('carol');
    const list = await (await adminWeb.get('-/admin/users?q=car')).text();
    expect(list).toContain('>carol</a>');
    expect(list).not.toContain('>bob</a>');
    const web = new WebClient(s);
    expect(await web.signIn('carol', 'pw-carol-secret')).toContain('/user/settings/change_password');
  });

  it('re-renders a bad new account with 422, values kept, the error beside the field', async () => {
    const res = await adminWeb.post('-/admin/users/new', { user_name: 'bob', email: 'other@example.com', password: 'pw-whatever-1' }, { from: '-/admin/users/new' });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain('id="f-user_name-error"');
    expect(page).toContain('value="other@example.com"');
    const bad = await adminWeb.post('-/admin/users/new', { user_name: 'dave', email: 'not-an-address', password: 'pw-dave-secret' }, { from: '-/admin/users/new' });
    expect(bad.status).toBe(422);
    expect((await s.request('api/v1/users/dave', { auth: admin() })).status).toBe(404);
  });

  it('edits an account: flags, e-mail, max repositories; a bad number is 422', async () => {
    await createUser(s, 'erin');
    const form = { full_name: 'Erin E', email: 'erin2@example.com', max_repo_creation: '3', active: 'on', restricted: 'on', prohibit_login: 'on' };
    expect((await adminWeb.post('-/admin/users/erin', form)).status).toBe(303);
    const erin = await apiUser('erin');
    expect([erin.full_name, erin.email, erin.restricted, erin.prohibit_login, erin.active]).toEqual(['Erin E', 'erin2@example.com', true, true, true]);
    const bad = await adminWeb.post('-/admin/users/erin', { ...form, max_repo_creation: 'many' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Enter a whole number.');
    expect((await adminWeb.get('-/admin/users/nobody-here')).status).toBe(404);
  });

  it('renames an account with its repositories; a taken or invalid name is 422 beside the field; a non-admin post changes nothing', async () => {
    const kim = await createUser(s, 'kim');
    await createRepo(s, kim, 'notes');
    const bobWeb = await signedInClient(s, 'bob', bob.password);
    expect((await bobWeb.post('-/admin/users/kim/rename', { new_username: 'mallory' }, { from: 'user/settings' })).status).toBe(403);
    expect((await apiUser('kim')).login).toBe('kim');
    const taken = await adminWeb.post('-/admin/users/kim/rename', { new_username: 'bob' }, { from: '-/admin/users/kim' });
    expect(taken.status).toBe(422);
    const takenPage = await taken.text();
    expect(takenPage).toContain('id="f-new_username-error"');
    expect(takenPage).toContain('user already exists');
    const invalid = await adminWeb.post('-/admin/users/kim/rename', { new_username: 'bad name!' }, { from: '-/admin/users/kim' });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain('value="bad name!"');
    expect((await apiUser('kim')).login).toBe('kim');
    const res = await adminWeb.post('-/admin/users/kim/rename', { new_username: 'kimberly' }, { from: '-/admin/users/kim' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('/-/admin/users/kimberly?done=user-renamed#rename');
    expect((await apiUser('kimberly')).id).toBe(kim.id);
    expect((await s.request('api/v1/repos/kimberly/notes', { auth: admin() })).status).toBe(200);
    expect(await (await adminWeb.get('-/admin/users/kimberly?done=user-renamed')).text()).toContain('The account has been renamed.');
  });

  it('deletes an account only with purge while it owns repositories', async () => {
    const frank = await createUser(s, 'frank');
    await createRepo(s, frank, 'stuff');
    expect((await adminWeb.get('-/admin/users/frank/delete')).status).toBe(200);
    const kept = await adminWeb.post('-/admin/users/frank/delete', {}, { from: '-/admin/users/frank/delete' });
    expect(kept.status).toBe(422);
    expect(await kept.text()).toContain('still has ownership of repositories');
    expect((await s.request('api/v1/repos/frank/stuff', { auth: as(frank) })).status).toBe(200);
    expect((await adminWeb.post('-/admin/users/frank/delete', { purge: 'on' }, { from: '-/admin/users/frank/delete' })).status).toBe(303);
    expect((await s.request('api/v1/users/frank', { auth: admin() })).status).toBe(404);
  });

  it('shows the dashboard counts and runs a cron task now, with its last run', async () => {
    const page = await (await adminWeb.get('-/admin')).text();
    expect(page).toMatch(/<th scope="row">Users<\/th><td>\d+<\/td>/);
    expect(page).toContain('id="cron-deleted_branches_cleanup"');
    const res = await adminWeb.post('-/admin/cron/deleted_branches_cleanup', {}, { from: '-/admin' });
    expect(res.headers.get('location')).toContain('/-/admin?done=cron-started#cron');
    await eventually(async () => {
      const cron = await ok(await s.request('api/v1/admin/cron', { auth: admin() }));
      return cron.find((t: { name: string; exec_times: number }) => t.name === 'deleted_branches_cleanup').exec_times > 0;
    });
    const after = await (await adminWeb.get('-/admin')).text();
    const row = /<tr id="cron-deleted_branches_cleanup">.*?<\/tr>/s.exec(after)![0];
    expect(row).toContain('finished');
    expect((await adminWeb.post('-/admin/cron/no_such_task', {}, { from: '-/admin' })).status).toBe(404);
  });

  it("lists and searches every account's e-mail addresses", async () => {
    await createUser(s, 'ivy');
    const page = await (await adminWeb.get('-/admin/emails?q=ivy')).text();
    expect(page).toContain('ivy@example.com');
    expect(page).not.toContain('bob@example.com');
  });

  it('lists organizations and masks secrets in the configuration summary', async () => {
    await ok(await s.request('api/v1/orgs', { method: 'POST', auth: admin(), json: { username: 'hidden-org', visibility: 'private' } }), 201);
    expect(await (await adminWeb.get('-/admin/orgs')).text()).toContain('>hidden-org</a>');
    const conf = await (await adminWeb.get('-/admin/config')).text();
    expect(conf).toContain('<code>server.root_url</code>');
    expect(conf).not.toContain(s.admin.password);
  });
});

describe('site administration: repositories and the audit log', () => {
  it('finds and deletes a repository through the confirmation page; a non-admin post changes nothing', async () => {
    const gina = await createUser(s, 'gina');
    await createRepo(s, gina, 'keepsake');
    await createRepo(s, gina, 'trash');
    const list = await (await adminWeb.get('-/admin/repos?q=keep')).text();
    expect(list).toContain('gina/keepsake');
    expect(list).not.toContain('gina/trash');
    const bobWeb = await signedInClient(s, 'bob', bob.password);
    expect((await bobWeb.post('-/admin/repos/delete?owner=gina&repo=trash', {}, { from: 'user/settings' })).status).toBe(403);
    expect((await s.request('api/v1/repos/gina/trash', { auth: as(gina) })).status).toBe(200);
    expect((await adminWeb.get('-/admin/repos/delete?owner=gina&repo=trash')).status).toBe(200);
    expect((await adminWeb.post('-/admin/repos/delete?owner=gina&repo=trash', {}, { from: '-/admin/repos/delete?owner=gina&repo=trash' })).status).toBe(303);
    expect((await s.request('api/v1/repos/gina/trash', { auth: as(gina) })).status).toBe(404);
    expect((await adminWeb.get('-/admin/repos/unadopted')).status).toBe(200);
  });

  it('filters the audit log by operation and target, refuses a bad date (422), and exports CSV', async () => {
    await createUser(s, 'henry');
    await ok(await s.request('api/v1/orgs', { method: 'POST', auth: admin(), json: { username: 'audited-org' } }), 201);
    const page = await (await adminWeb.get('-/admin/audit-logs?operation_type=org.create&target=audited')).text();
    expect(page).toContain('audited-org');
    expect(page).not.toContain('hidden-org');
    // The operation select marks the chosen one on each page (its markup is kept per choice), and only it.
    const chosen = (html: string) => [...html.matchAll(/<option value="([^"]*)" selected>/g)].map((m) => m[1]);
    expect(chosen(page)).toEqual(['org.create']);
    for (const [query, want] of [['', ''], ['?operation_type=user.create', 'user.create'], ['?operation_type=org.create', 'org.create'], ['?operation_type=no.such', '']]) {
      expect(chosen(await (await adminWeb.get(`-/admin/audit-logs${query}`)).text())).toEqual(want ? [want] : query ? [] : ['']);
    }
    const bad = await adminWeb.get('-/admin/audit-logs?since=yesterday');
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('id="f-since-error"');
    const csv = await adminWeb.get('-/admin/audit-logs/export?operation_type=org.create');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    expect(text.split('\n')[0]).toContain('operation_type');
    expect(text).toContain('audited-org');
    const bobWeb = await signedInClient(s, 'bob', bob.password);
    expect((await bobWeb.get('-/admin/audit-logs/export')).status).toBe(403);
  });
});
