import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader, createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, WebClient } from '../helpers/web-client';

// The account settings pages over HTTP: profile and avatar (a multipart form), password,
// e-mails, deleting the account, appearance and sessions. Forms answer 303 back to the page
// with its message, or 422 with the values kept and the error tied to its field.

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.stop(); });

const root = () => s.hearth.config.server.root_url;
const apiMe = async (u: { username: string; password: string }) =>
  (await s.request('api/v1/user', { headers: { Authorization: basicHeader(u.username, u.password) } })).json() as Promise<Record<string, unknown>>;
const userRow = (id: number) => s.hearth.db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

function png(): Buffer {
  const img = new PNG({ width: 8, height: 8 });
  img.data.fill(200);
  return PNG.sync.write(img);
}

async function postAvatar(c: WebClient, csrf: string | null, data = png()): Promise<Response> {
  const form = new FormData();
  if (csrf) form.append('_csrf', csrf);
  form.append('avatar', new Blob([data], { type: 'image/png' }), 'me.png');
  return c.fetch('user/settings/avatar', { method: 'POST', body: form });
}

describe('profile', () => {
  it('saves the profile and shows it on the API', async () => {
    const u = await createUser(s, 'prof1');
    const c = await signedInClient(s, u.username, u.password);
    const res = await c.post('user/settings', { full_name: 'Pat Example', website: 'https://pat.example', location: 'Lyon', description: 'Hi', visibility: 'limited', keep_email_private: 'on' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/settings?done=profile`);
    expect(await apiMe(u)).toMatchObject({ full_name: 'Pat Example', website: 'https://pat.example', location: 'Lyon', description: 'Hi', visibility: 'limited' });
    expect((await userRow(u.id)).keep_email_private).toBe(1);
    const page = await (await c.get('user/settings?done=profile')).text();
    expect(page).toContain('Your profile has been updated.');
    expect(page).toContain('value="Pat Example"');
  });

  it('re-renders a bad website with 422, the values kept and the error tied to the field', async () => {
    const u = await createUser(s, 'prof2');
    const c = await signedInClient(s, u.username, u.password);
    const res = await c.post('user/settings', { full_name: 'Kept Name', website: 'javascript:alert(1)', visibility: 'public' });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toContain('value="Kept Name"');
    expect(page).toMatch(/id="f-website"[^>]*aria-invalid="true"[^>]*aria-describedby="f-website-error"/);
    expect(page).toContain('The website must be an http or https URL.');
    expect((await userRow(u.id)).full_name).toBe('');
  });
});

describe('avatar (multipart form)', () => {
  it('uploads and deletes the avatar', async () => {
    const u = await createUser(s, 'ava1');
    const c = await signedInClient(s, u.username, u.password);
    const res = await postAvatar(c, await c.csrfOf('user/settings'));
    expect(res.status, await res.clone().text()).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/settings?done=avatar#avatar`);
    const hash = (await userRow(u.id)).avatar;
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect((await c.get('user/settings/avatar/delete')).status).toBe(200);
    expect((await c.post('user/settings/avatar/delete', {}, { from: 'user/settings/avatar/delete' })).status).toBe(303);
    expect((await userRow(u.id)).avatar).toBe('');
  });

  it('refuses a multipart post without the CSRF token and leaves nothing behind', async () => {
    const u = await createUser(s, 'ava2');
    const c = await signedInClient(s, u.username, u.password);
    const dir = path.join(s.hearth.config.server.data_dir, 'avatars');
    const before = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;
    const res = await postAvatar(c, null);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('This form has expired or was not sent from this site');
    expect((await userRow(u.id)).avatar).toBe('');
    const after = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;
    expect(after).toBe(before);
    // Nor does a wrong token pass.
    expect((await postAvatar(c, 'forged')).status).toBe(403);
  });

  it('answers a file that is not an image with the form again (422)', async () => {
    const u = await createUser(s, 'ava3');
    const c = await signedInClient(s, u.username, u.password);
    const res = await postAvatar(c, await c.csrfOf('user/settings'), Buffer.from('not an image at all'));
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/id="f-avatar"[^>]*aria-invalid="true"/);
  });
});

describe('account', () => {
  it('changes the password: this browser stays, the others end', async () => {
    const u = await createUser(s, 'acct1');
    const [mine, other] = [await signedInClient(s, u.username, u.password), await signedInClient(s, u.username, u.password)];
    const wrong = await mine.post('user/settings/account', { old_password: 'nope', password: 'a-new-password-1', retype: 'a-new-password-1' }, { from: 'user/settings/account' });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('The current password is not correct.');
    const res = await mine.post('user/settings/account', { old_password: u.password, password: 'a-new-password-1', retype: 'a-new-password-1' }, { from: 'user/settings/account' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/settings/account?done=password#password`);
    expect((await mine.get('user/settings/account')).status).toBe(200);
    const gone = await other.get('user/settings/account');
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toContain('/user/login?redirect_to=');
  });

  it('adds an e-mail address, makes it primary and deletes the old one', async () => {
    const u = await createUser(s, 'acct2');
    const c = await signedInClient(s, u.username, u.password);
    const add = await c.post('user/settings/account/email', { email: 'second@acct2.example' }, { from: 'user/settings/account' });
    expect(add.status).toBe(303);
    const dup = await c.post('user/settings/account/email', { email: 'second@acct2.example' }, { from: 'user/settings/account' });
    expect(dup.status).toBe(422);
    expect(await dup.text()).toMatch(/id="f-email"[^>]*value="second@acct2.example"/);
    expect((await c.post('user/settings/account/email/primary', { email: 'second@acct2.example' }, { from: 'user/settings/account' })).status).toBe(303);
    expect((await apiMe(u)).email).toBe('second@acct2.example');
    const confirm = await c.get(`user/settings/account/email/delete?email=${encodeURIComponent(u.username + '@example.com')}`);
    expect(await confirm.text()).toContain('Delete e-mail address');
    expect((await c.post('user/settings/account/email/delete', { email: `${u.username}@example.com` }, { from: 'user/settings/account' })).status).toBe(303);
    const emails = await (await s.request('api/v1/user/emails', { headers: { Authorization: basicHeader(u.username, u.password) } })).json() as { email: string }[];
    expect(emails.map((e) => e.email)).toEqual(['second@acct2.example']);
    // The primary address stays.
    expect((await c.post('user/settings/account/email/delete', { email: 'second@acct2.example' }, { from: 'user/settings/account' })).status).toBe(400);
  });

  it('deletes the account only with the password, on its confirmation page', async () => {
    const u = await createUser(s, 'acct3');
    const c = await signedInClient(s, u.username, u.password);
    const confirm = await c.get('user/settings/account/delete');
    expect(await confirm.text()).toContain('Enter your password to confirm.');
    const wrong = await c.post('user/settings/account/delete', { password: 'wrong' }, { from: 'user/settings/account/delete' });
    expect(wrong.status).toBe(422);
    expect((await s.request(`api/v1/users/${u.username}`)).status).toBe(200);
    const res = await c.post('user/settings/account/delete', { password: u.password }, { from: 'user/settings/account/delete' });
    expect(res.status).toBe(303);
    expect((await s.request(`api/v1/users/${u.username}`)).status).toBe(404);
    expect((await c.get('user/settings')).status).toBe(303);
  });
});

describe('appearance', () => {
  it('stores the theme, shortcuts and diff style, and the pages apply them', async () => {
    const u = await createUser(s, 'look1');
    const c = await signedInClient(s, u.username, u.password);
    const res = await c.post('user/settings/appearance', { theme: 'gitea-dark', diff_view_style: 'split' }, { from: 'user/settings/appearance' });
    expect(res.status).toBe(303);
    const page = await (await c.get('user/settings/appearance')).text();
    expect(page).toContain('data-theme="dark"');
    expect(page).toContain('data-shortcuts="off"');
    expect(page).toMatch(/value="split" checked/);
    expect((await userRow(u.id)).diff_view_style).toBe('split');
    expect((await c.post('user/settings/appearance', { theme: 'gitea-light', diff_view_style: 'unified', keyboard_shortcuts: 'on' }, { from: 'user/settings/appearance' })).status).toBe(303);
    const light = await (await c.get('user/settings/appearance')).text();
    expect(light).toContain('data-theme="light"');
    expect(light).toContain('data-shortcuts="on"');
    const bad = await c.post('user/settings/appearance', { theme: 'neon', diff_view_style: 'unified' }, { from: 'user/settings/appearance' });
    expect(bad.status).toBe(422);
    expect((await userRow(u.id)).theme).toBe('gitea-light');
  });
});

describe('sessions', () => {
  it('lists the browsers and signs out one or every other', async () => {
    const u = await createUser(s, 'sess1');
    const mine = new WebClient(s);
    await mine.signIn(u.username, u.password);
    const others = [new WebClient(s), new WebClient(s)];
    for (const o of others) await o.fetch('user/login', { method: 'GET' });
    await others[0]!.post('user/login', { user_name: u.username, password: u.password }, { headers: { 'User-Agent': 'Agent-One/1.0' } });
    await others[1]!.post('user/login', { user_name: u.username, password: u.password }, { headers: { 'User-Agent': 'Agent-Two/2.0' } });
    const page = await (await mine.get('user/settings/sessions')).text();
    expect(page).toContain('Agent-One/1.0');
    expect(page).toContain('Agent-Two/2.0');
    expect(page).toContain('This browser');
    const rows = await s.hearth.db.selectFrom('web_session').select(['id', 'user_agent']).where('uid', '=', u.id).execute();
    const one = rows.find((r) => r.user_agent === 'Agent-One/1.0')!;
    expect((await mine.post('user/settings/sessions/revoke', { id: String(one.id) }, { from: 'user/settings/sessions' })).status).toBe(303);
    expect((await others[0]!.get('user/settings')).status).toBe(303);
    expect((await others[1]!.get('user/settings')).status).toBe(200);
    expect((await mine.post('user/settings/sessions/revoke_others', {}, { from: 'user/settings/sessions' })).status).toBe(303);
    expect((await others[1]!.get('user/settings')).status).toBe(303);
    expect((await mine.get('user/settings')).status).toBe(200);
    // Another user's session is as missing as an unknown one.
    const v = await createUser(s, 'sess2');
    const theirs = await signedInClient(s, v.username, v.password);
    const their = await s.hearth.db.selectFrom('web_session').select('id').where('uid', '=', v.id).executeTakeFirstOrThrow();
    expect((await mine.post('user/settings/sessions/revoke', { id: String(their.id) }, { from: 'user/settings/sessions' })).status).toBe(404);
    expect((await theirs.get('user/settings')).status).toBe(200);
  });

  it('sends a signed-out browser to sign in, and a must-change-password user to change it', async () => {
    const res = await new WebClient(s).get('user/settings/keys');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/login?redirect_to=%2Fuser%2Fsettings%2Fkeys`);
    const u = await createUser(s, 'mustchange', { must_change_password: true });
    const c = await signedInClient(s, u.username, u.password);
    const page = await c.get('user/settings');
    expect(page.headers.get('location')).toBe(`${root()}user/settings/change_password`);
  });
});
