import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient } from '../helpers/web-client';
import { codeFor, createOAuthApp, tokenRequest } from '../helpers/oauth2';

// The keys and applications settings over HTTP: SSH and GPG keys, access tokens (scopes as
// checkboxes, the token shown once), OAuth2 applications (secret shown once, edit, regenerate,
// delete) and authorized applications (revoke ends the grant's tokens).

const run = promisify(execFile);
let s: TestServer;
let tmp = '';
beforeAll(async () => {
  s = await startTestServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-web-keys-'));
});
afterAll(async () => {
  await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const root = () => s.hearth.config.server.root_url;
const hasTool = (cmd: string, arg: string) => run(cmd, [arg]).then(() => true, (err: { code?: unknown }) => err.code !== 'ENOENT');

async function sshKey(name: string): Promise<string> {
  const file = path.join(tmp, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim();
}

describe('SSH keys', () => {
  it('adds, lists and deletes a key; a bad one re-renders the form with its values', async (ctx) => {
    if (!(await hasTool('ssh-keygen', '-?'))) return ctx.skip();
    const u = await createUser(s, 'sshweb');
    const c = await signedInClient(s, u.username, u.password);
    const pub = await sshKey('sshweb');
    const res = await c.post('user/settings/keys', { type: 'ssh', title: 'laptop', content: pub });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${root()}user/settings/keys?done=ssh-added#ssh`);
    const page = await (await c.get('user/settings/keys')).text();
    expect(page).toContain('laptop');
    expect(page).toMatch(/SHA256:[A-Za-z0-9+/]{43}/);
    const bad = await c.post('user/settings/keys', { type: 'ssh', title: 'junk', content: 'ssh-ed25519 not-base64!' });
    expect(bad.status).toBe(422);
    const badPage = await bad.text();
    expect(badPage).toMatch(/id="f-title"[^>]*value="junk"/);
    expect(badPage).toMatch(/id="f-ssh-content"[^>]*aria-invalid="true"/);
    // Each field of the page has its own id (two forms have a `content` field).
    const ids = [...badPage.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBe(new Set(ids).size);
    const api = await s.request('api/v1/user/keys', { auth: { basic: [u.username, u.password] } });
    const [key] = (await api.json()) as { id: number }[];
    expect((await c.get(`user/settings/keys/delete?type=ssh&id=${key!.id}`)).status).toBe(200);
    // Someone else cannot even see the confirmation.
    const v = await createUser(s, 'sshother');
    const other = await signedInClient(s, v.username, v.password);
    expect((await other.get(`user/settings/keys/delete?type=ssh&id=${key!.id}`)).status).toBe(404);
    expect((await c.post(`user/settings/keys/delete?type=ssh&id=${key!.id}`, {}, { from: `user/settings/keys/delete?type=ssh&id=${key!.id}` })).status).toBe(303);
    expect(await (await s.request('api/v1/user/keys', { auth: { basic: [u.username, u.password] } })).json()).toEqual([]);
  });
});

describe('SSH key verification', () => {
  it('marks a key verified when the owner signs the token with it (ssh-keygen -Y sign -n gitea)', async (ctx) => {
    if (!(await hasTool('ssh-keygen', '-?'))) return ctx.skip();
    const u = await createUser(s, 'sshverify');
    const c = await signedInClient(s, u.username, u.password);
    const pub = await sshKey('sshverify');
    const other = await sshKey('sshverify-other');
    expect((await c.post('user/settings/keys', { type: 'ssh', title: 'signer', content: pub })).status).toBe(303);
    const page = await (await c.get('user/settings/keys')).text();
    const keyId = /name="type" value="verify_ssh"><input type="hidden" name="key_id" value="(\d+)"/.exec(page)![1]!;
    const token = /echo -n '([0-9a-f]{64})'/.exec(page)![1]!;
    const sign = async (key: string, data: string) => {
      fs.writeFileSync(path.join(tmp, 'token'), data);
      await run('ssh-keygen', ['-Y', 'sign', '-n', 'gitea', '-f', path.join(tmp, key), path.join(tmp, 'token')]);
      return fs.readFileSync(path.join(tmp, 'token.sig'), 'utf8');
    };
    // Another key's signature, or another namespace's, does not verify it.
    const wrongKey = await c.post('user/settings/keys', { type: 'verify_ssh', key_id: keyId, signature: await sign('sshverify-other', token) });
    expect(wrongKey.status).toBe(422);
    expect(await wrongKey.text()).toContain('do not match or token is out of date');
    fs.rmSync(path.join(tmp, 'token.sig'));
    const ok = await c.post('user/settings/keys', { type: 'verify_ssh', key_id: keyId, signature: await sign('sshverify', token) });
    expect(ok.status, await ok.clone().text()).toBe(303);
    const row = await s.hearth.db.selectFrom('public_key').select('verified').where('id', '=', Number(keyId)).executeTakeFirstOrThrow();
    expect(row.verified).toBe(1);
    expect(await (await c.get('user/settings/keys')).text()).toContain('<span class="badge">Verified</span>');
    expect(other).toMatch(/^ssh-ed25519 /);
  });
});

describe('GPG keys', () => {
  it('adds a key of one of the user\'s addresses and verifies it with a signed token', async (ctx) => {
    if (!(await hasTool('gpg', '--version'))) return ctx.skip();
    const home = fs.mkdtempSync(path.join(tmp, 'gpg-'));
    fs.chmodSync(home, 0o700);
    const gpg = (...args: string[]) => run('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args]);
    try {
      const u = await createUser(s, 'gpgweb');
      await gpg('--quick-gen-key', `Web <${u.username}@example.com>`, 'ed25519', 'sign', 'never');
      const { stdout: armored } = await gpg('--armor', '--export', `${u.username}@example.com`);
      const c = await signedInClient(s, u.username, u.password);
      expect((await c.post('user/settings/keys', { type: 'gpg', content: armored })).status).toBe(303);
      let page = await (await c.get('user/settings/keys')).text();
      const keyId = /name="key_id" value="([0-9A-F]{16})"/.exec(page)![1]!;
      const token = /echo "([0-9a-f]{64})"/.exec(page)![1]!;
      const wrong = await c.post('user/settings/keys', { type: 'verify_gpg', key_id: keyId, signature: 'garbage' });
      expect(wrong.status).toBe(422);
      expect(await wrong.text()).toContain('do not match or token is out of date');
      const file = path.join(home, 'token');
      fs.writeFileSync(file, `${token}\n`);
      await gpg('-u', keyId, '--armor', '--output', `${file}.asc`, '--detach-sign', file);
      const ok = await c.post('user/settings/keys', { type: 'verify_gpg', key_id: keyId, signature: fs.readFileSync(`${file}.asc`, 'utf8') });
      expect(ok.status).toBe(303);
      page = await (await c.get('user/settings/keys')).text();
      expect(page).toContain('<span class="badge">Verified</span>');
      // A key with no address of the user asks for a signature: the form says so (422, not a 404 page).
      await gpg('--quick-gen-key', 'Other <other@elsewhere.example>', 'ed25519', 'sign', 'never');
      const { stdout: otherKey } = await gpg('--armor', '--export', 'other@elsewhere.example');
      const refused = await c.post('user/settings/keys', { type: 'gpg', content: otherKey });
      expect(refused.status).toBe(422);
      expect(await refused.text()).toContain('None of the emails attached to the GPG key could be found');
    } finally {
      await run('gpgconf', ['--homedir', home, '--kill', 'gpg-agent']).catch(() => undefined);
    }
  });
});

describe('access tokens', () => {
  it('creates a token with the checked scopes, shows it once, and it works on the API', async () => {
    const u = await createUser(s, 'tokweb');
    const c = await signedInClient(s, u.username, u.password);
    const body = new URLSearchParams({ _csrf: await c.csrfOf('user/settings/applications'), name: 'ci' });
    for (const scope of ['read:repository', 'write:user', 'read:user']) body.append('scope', scope);
    const res = await c.fetch('user/settings/applications/tokens', { method: 'POST', body: body.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(200);
    const page = await res.text();
    const token = /<code id="new-token" class="secret">([0-9a-f]{40})<\/code>/.exec(page)![1]!;
    expect(page).toContain('It is shown only this once');
    const me = await s.request('api/v1/user', { auth: { token } });
    expect(me.status).toBe(200);
    expect((await s.request('api/v1/user/repos', { method: 'POST', auth: { token }, json: { name: 'no' } })).status).toBe(403);
    const again = await (await c.get('user/settings/applications')).text();
    expect(again).not.toContain(token);
    expect(again).toContain('read:repository, write:user');
  });

  it('refuses a token without a scope or a name, the form kept', async () => {
    const u = await createUser(s, 'tokweb2');
    const c = await signedInClient(s, u.username, u.password);
    const none = await c.post('user/settings/applications/tokens', { name: 'empty' }, { from: 'user/settings/applications' });
    expect(none.status).toBe(422);
    const text = await none.text();
    expect(text).toMatch(/id="f-name"[^>]*value="empty"/);
    expect(text).toContain('aria-describedby="f-scope-error"');
    const noName = await c.post('user/settings/applications/tokens', { name: ' ', scope: 'read:user' }, { from: 'user/settings/applications' });
    expect(noName.status).toBe(422);
    expect(await noName.text()).toMatch(/value="read:user" aria-label="Read User" checked/);
  });

  it('deletes a token through its confirmation page', async () => {
    const u = await createUser(s, 'tokweb3');
    const c = await signedInClient(s, u.username, u.password);
    await c.post('user/settings/applications/tokens', { name: 'gone', scope: 'read:user' }, { from: 'user/settings/applications' });
    const [t] = await s.hearth.db.selectFrom('access_token').select('id').where('uid', '=', u.id).execute();
    const confirm = await c.get(`user/settings/applications/tokens/${t!.id}/delete`);
    expect(await confirm.text()).toContain('Delete the token <strong>gone</strong>?');
    const res = await c.post(`user/settings/applications/tokens/${t!.id}/delete`, {}, { from: `user/settings/applications/tokens/${t!.id}/delete` });
    expect(res.headers.get('location')).toBe(`${root()}user/settings/applications?done=token-deleted#tokens`);
    expect(await s.hearth.db.selectFrom('access_token').select('id').where('uid', '=', u.id).execute()).toEqual([]);
  });
});

describe('OAuth2 applications and grants', () => {
  it('creates an app (secret shown once), edits it without a new secret, regenerates, deletes', async () => {
    const u = await createUser(s, 'appweb');
    const c = await signedInClient(s, u.username, u.password);
    const made = await c.post('user/settings/applications/oauth2', { app_name: 'My CMS', redirect_uris: 'https://cms.example/cb\nhttp://127.0.0.1/cb', confidential_client: 'on' }, { from: 'user/settings/applications' });
    expect(made.status).toBe(200);
    const page = await made.text();
    const secret = /<code id="client-secret" class="secret">(gto_[a-z2-7]+)<\/code>/.exec(page)![1]!;
    const row = await s.hearth.db.selectFrom('oauth2_application').selectAll().where('uid', '=', u.id).executeTakeFirstOrThrow();
    expect(page).toContain(row.client_id);
    const edit = await c.post(`user/settings/applications/oauth2/${row.id}`, { app_name: 'My CMS 2', redirect_uris: 'https://cms.example/cb2' }, { from: `user/settings/applications/oauth2/${row.id}` });
    expect(edit.status).toBe(303);
    const edited = await s.hearth.db.selectFrom('oauth2_application').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(edited).toMatchObject({ name: 'My CMS 2', redirect_uris: '["https://cms.example/cb2"]', confidential_client: 0, client_secret_hash: row.client_secret_hash });
    const bad = await c.post(`user/settings/applications/oauth2/${row.id}`, { app_name: '', redirect_uris: 'not a uri' }, { from: `user/settings/applications/oauth2/${row.id}` });
    expect(bad.status).toBe(422);
    expect((await c.get(`user/settings/applications/oauth2/${row.id}/regenerate_secret`)).status).toBe(200);
    const regen = await c.post(`user/settings/applications/oauth2/${row.id}/regenerate_secret`, {}, { from: `user/settings/applications/oauth2/${row.id}/regenerate_secret` });
    const fresh = /<code id="client-secret" class="secret">(gto_[a-z2-7]+)<\/code>/.exec(await regen.text())![1]!;
    expect(fresh).not.toBe(secret);
    const other = await createUser(s, 'appother');
    const theirs = await signedInClient(s, other.username, other.password);
    expect((await theirs.get(`user/settings/applications/oauth2/${row.id}`)).status).toBe(404);
    expect((await c.post(`user/settings/applications/oauth2/${row.id}/delete`, {}, { from: `user/settings/applications/oauth2/${row.id}/delete` })).status).toBe(303);
    expect(await s.hearth.db.selectFrom('oauth2_application').select('id').where('id', '=', row.id).execute()).toEqual([]);
  });

  it('lists authorized applications; revoking one ends its tokens', async () => {
    const owner = await createUser(s, 'grantowner');
    const u = await createUser(s, 'grantuser');
    const app = await createOAuthApp(s, owner, { name: 'Dashboard', redirectUris: ['https://dash.example/cb'] });
    const c = await signedInClient(s, u.username, u.password);
    const code = await codeFor(c, { client_id: app.client_id, redirect_uri: 'https://dash.example/cb', scope: 'openid' });
    const tokens = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: 'https://dash.example/cb' }, { basic: [app.client_id, app.client_secret] });
    const token = String(tokens.body.access_token);
    expect((await s.request('api/v1/user', { auth: { token, as: 'bearer' } })).status).toBe(200);
    const page = await (await c.get('user/settings/applications')).text();
    expect(page).toContain('Dashboard');
    expect(page).toContain(`by ${owner.username}`);
    const grant = await s.hearth.db.selectFrom('oauth2_grant').select('id').where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(await (await c.get(`user/settings/applications/grants/${grant.id}/revoke`)).text()).toContain('loses access to your account');
    const res = await c.post(`user/settings/applications/grants/${grant.id}/revoke`, {}, { from: `user/settings/applications/grants/${grant.id}/revoke` });
    expect(res.status).toBe(303);
    expect((await s.request('api/v1/user', { auth: { token, as: 'bearer' } })).status).toBe(401);
    expect((await tokenRequest(s, { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) }, { basic: [app.client_id, app.client_secret] })).body.error).toBe('invalid_grant');
  });
});

describe('every settings page', () => {
  it('gives each element its own id, with lists filled', async () => {
    const owner = await createUser(s, 'idsowner');
    const u = await createUser(s, 'idsuser');
    const c = await signedInClient(s, u.username, u.password);
    const app = await createOAuthApp(s, owner, { name: 'Ids', redirectUris: ['https://ids.example/cb'] });
    await codeFor(c, { client_id: app.client_id, redirect_uri: 'https://ids.example/cb' });
    for (const name of ['one', 'two']) {
      await c.post('user/settings/applications/tokens', { name, scope: 'read:user' }, { from: 'user/settings/applications' });
      await c.post('user/settings/applications/oauth2', { app_name: name, redirect_uris: 'https://x.example/cb' }, { from: 'user/settings/applications' });
      await c.post('user/settings/account/email', { email: `${name}@idsuser.example` }, { from: 'user/settings/account' });
    }
    if (await hasTool('ssh-keygen', '-?')) {
      for (const name of ['ids-a', 'ids-b']) await c.post('user/settings/keys', { type: 'ssh', title: name, content: await sshKey(name) });
    }
    const myApp = await s.hearth.db.selectFrom('oauth2_application').select('id').where('uid', '=', u.id).executeTakeFirstOrThrow();
    for (const p of ['user/settings', 'user/settings/account', 'user/settings/appearance', 'user/settings/sessions', 'user/settings/keys', 'user/settings/applications', `user/settings/applications/oauth2/${myApp.id}`]) {
      const page = await (await c.get(p)).text();
      const ids = [...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i), p).toEqual([]);
    }
  });
});
