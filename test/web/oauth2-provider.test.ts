import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { createRepo, gitTry, remoteUrl, tempDir } from '../helpers/git';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { signedInClient, WebClient } from '../helpers/web-client';
import {
  authorizeAndGrant, authorizePath, codeFor, consentFields, createOAuthApp, pkcePair, tokenRequest, type OAuthApp,
} from '../helpers/oauth2';

// The OAuth2 provider over HTTP, as a client and a browser meet it: the consent page, the code
// (single-use, ten minutes, tied to its redirect URI and PKCE challenge), the token endpoint
// (client secret or PKCE verifier; refresh tokens rotate and a reused one revokes the family),
// and the access token on the API, limited to the grant's scopes.

let s: TestServer;
// com.example.app: a native application's scheme, allowed as Gitea's [oauth2] CUSTOM_SCHEMES does.
beforeAll(async () => { s = await startTestServer({ HEARTH__OAUTH2__CUSTOM_SCHEMES: 'com.example.app' }); });
afterAll(async () => { await s.stop(); });

const CB = 'https://client.example/callback';
let n = 0;
async function setup(opts: { confidential?: boolean; redirectUris?: string[]; trusted?: boolean } = {}) {
  n += 1;
  const owner = await createUser(s, `appowner${n}`);
  const user = await createUser(s, `oauthuser${n}`);
  const app = await createOAuthApp(s, owner, { name: `Client ${n}`, redirectUris: opts.redirectUris ?? [CB], confidential: opts.confidential, trusted: opts.trusted });
  const browser = await signedInClient(s, user.username, user.password);
  return { owner, user, app, browser };
}

const exchange = (app: OAuthApp, code: string, extra: Record<string, string> = {}) =>
  tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: CB, ...extra }, { basic: [app.client_id, app.client_secret] });

const apiUser = (token: string) => s.request('api/v1/user', { auth: { token, as: 'bearer' } });

describe('discovery and keys', () => {
  it('publishes the endpoints, PKCE methods and an RS256 key sealed at rest', async () => {
    const root = s.hearth.config.server.root_url;
    const doc = await (await s.request('.well-known/openid-configuration')).json() as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: root.replace(/\/$/, ''), authorization_endpoint: `${root}login/oauth/authorize`, token_endpoint: `${root}login/oauth/access_token`,
      jwks_uri: `${root}login/oauth/keys`, userinfo_endpoint: `${root}login/oauth/userinfo`, introspection_endpoint: `${root}login/oauth/introspect`,
      code_challenge_methods_supported: ['plain', 'S256'], grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    const keys = await (await s.request('login/oauth/keys')).json() as { keys: Record<string, string>[] };
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    const again = await (await s.request('login/oauth/keys')).json() as { keys: Record<string, string>[] };
    expect(again.keys[0]!.kid).toBe(keys.keys[0]!.kid);
    const row = await s.hearth.db.selectFrom('oauth2_signing_key').selectAll().executeTakeFirstOrThrow();
    expect(row.sealed_private_key).toMatch(/^v1\./);
    expect(row.sealed_private_key).not.toContain('PRIVATE KEY');
  });
});

describe('authorization', () => {
  it('sends a signed-out browser to sign in and back to the consent page', async () => {
    const { app, user } = await setup();
    const c = new WebClient(s);
    const path = authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 'xyz', scope: 'openid' });
    const res = await c.get(path);
    expect(res.status).toBe(303);
    const login = new URL(res.headers.get('location')!);
    expect(login.pathname).toBe('/user/login');
    expect(login.searchParams.get('redirect_to')).toBe(`/${path}`);
    const back = await c.signIn(user.username, user.password, { redirect_to: login.searchParams.get('redirect_to')! });
    expect(back).toBe(`${s.hearth.config.server.root_url}${path}`);
    expect((await c.get(path)).status).toBe(200);
  });

  it('shows the application, its owner and the scopes; its CSP lets the form reach the client', async () => {
    const { app, browser, owner } = await setup();
    const res = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 's1', scope: 'openid email read:repository' }));
    const page = await res.text();
    expect(res.status).toBe(200);
    expect(page).toMatch(/<h1>Authorize Client \d+<\/h1>/);
    expect(page).toContain(`@${owner.username}`);
    expect(page).toContain('Read your primary e-mail address');
    expect(page).toContain('Read repository');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://client.example;");
    // A native app's own scheme has no origin: the scheme is the source.
    const native = await createOAuthApp(s, owner, { redirectUris: ['com.example.app:/oauth'], confidential: false });
    const nativePage = await browser.get(authorizePath({ client_id: native.client_id, redirect_uri: 'com.example.app:/oauth', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }));
    expect(nativePage.status).toBe(200);
    expect(nativePage.headers.get('content-security-policy')).toContain("form-action 'self' com.example.app:;");
  });

  it('refuses an unregistered redirect URI with a page of its own, never a redirect', async () => {
    const { app, browser } = await setup();
    for (const uri of ['https://evil.example/callback', `${CB}/more`, 'https://client.example/callback?x=1']) {
      const res = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: uri, state: 'x' }));
      expect(res.status, uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('Unregistered Redirect URI');
    }
    const unknown = await browser.get(authorizePath({ client_id: 'no-such-client', redirect_uri: CB }));
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Client ID not registered');
  });

  it('sends request errors back to the client with the state', async () => {
    const { app, browser } = await setup();
    const res = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 'st', response_type: 'token' }));
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(CB);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'unsupported_response_type', state: 'st' });
    const scope = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 'st', scope: 'openid write:everything' }));
    expect(new URL(scope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('refuses a public client without PKCE', async () => {
    const { app, browser } = await setup({ confidential: false });
    const res = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 'p' }));
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toBe('PKCE is required for public clients');
    // An unknown method is refused too.
    const odd = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, code_challenge: pkcePair().challenge, code_challenge_method: 'S512' }));
    expect(new URL(odd.headers.get('location')!).searchParams.get('error_description')).toBe('unsupported code challenge method');
  });

  it('lets a public client use any port of a loopback redirect URI (RFC 8252), not a confidential one', async () => {
    const pub = await setup({ confidential: false, redirectUris: ['http://127.0.0.1/cb', 'http://[::1]:8000/cb'] });
    const { challenge } = pkcePair();
    for (const uri of ['http://127.0.0.1:49152/cb', 'http://127.0.0.1/cb', 'http://[::1]:50000/cb']) {
      const back = await authorizeAndGrant(pub.browser, { client_id: pub.app.client_id, redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256', state: 'l' });
      expect(`${back.origin}${back.pathname}`, uri).toBe(new URL(uri).origin + '/cb');
      expect(back.searchParams.get('code'), uri).toBeTruthy();
    }
    for (const uri of ['http://localhost:49152/cb', 'http://127.0.0.1:49152/other', 'https://127.0.0.1:49152/cb']) {
      const res = await pub.browser.get(authorizePath({ client_id: pub.app.client_id, redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256' }));
      expect(res.status, uri).toBe(400);
    }
    const conf = await setup({ confidential: true, redirectUris: ['http://127.0.0.1/cb'] });
    const res = await conf.browser.get(authorizePath({ client_id: conf.app.client_id, redirect_uri: 'http://127.0.0.1:49152/cb' }));
    expect(res.status).toBe(400);
  });

  it('refuses a grant posted without the CSRF token, and issues nothing', async () => {
    const { app, browser, user } = await setup();
    const page = await (await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, state: 'c' }))).text();
    const { _csrf: _dropped, ...fields } = consentFields(page);
    const res = await browser.post('login/oauth/grant', { ...fields, granted: 'true' }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    const grants = await s.hearth.db.selectFrom('oauth2_grant').select('id').where('user_id', '=', user.id).execute();
    expect(grants).toEqual([]);
  });

  it('answers a refusal with access_denied and the state', async () => {
    const { app, browser } = await setup();
    const back = await authorizeAndGrant(browser, { client_id: app.client_id, redirect_uri: CB, state: 'no' }, 'false');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: 'access_denied', state: 'no' });
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('skips the consent page for a confidential client already granted the same scopes', async () => {
    const { app, browser } = await setup();
    await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'openid profile' });
    const again = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, scope: 'openid', state: 'a' }));
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    // More than was granted asks again.
    const more = await browser.get(authorizePath({ client_id: app.client_id, redirect_uri: CB, scope: 'openid email' }));
    expect(more.status).toBe(200);
  });
});

describe('the token endpoint', () => {
  it('exchanges a code for tokens once; a reused code fails and revokes what the first gave', async () => {
    const { app, browser, user } = await setup();
    const code = await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'openid profile email', state: 'z', nonce: 'n-1' });
    const first = await exchange(app, code);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(first.headers.get('cache-control')).toBe('no-store');
    const idToken = JSON.parse(Buffer.from(String(first.body.id_token).split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(idToken).toMatchObject({ sub: String(user.id), aud: [app.client_id], nonce: 'n-1', preferred_username: user.username, email: `${user.username}@example.com` });
    expect((await apiUser(String(first.body.access_token))).status).toBe(200);
    const codes = await s.hearth.db.selectFrom('oauth2_authorization_code').select('code_hash').execute();
    expect(codes.map((c) => c.code_hash)).not.toContain(code);

    const second = await exchange(app, code);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: 'invalid_grant', error_description: 'authorization code already used' });
    expect((await apiUser(String(first.body.access_token))).status).toBe(401);
  });

  it('takes the client credentials in the form or as JSON', async () => {
    const { app, browser } = await setup();
    const code = await codeFor(browser, { client_id: app.client_id, redirect_uri: CB });
    const res = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: CB, client_id: app.client_id, client_secret: app.client_secret }, { json: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id_token).toBeUndefined();
  });

  it('refuses a wrong secret, another redirect URI and an expired code', async () => {
    const { app, browser } = await setup();
    const code = await codeFor(browser, { client_id: app.client_id, redirect_uri: CB });
    const wrong = await tokenRequest(s, { grant_type: 'authorization_code', code, redirect_uri: CB }, { basic: [app.client_id, 'gto_wrong'] });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const elsewhere = await exchange(app, code, { redirect_uri: 'https://client.example/other' });
    expect(elsewhere.body).toEqual({ error: 'invalid_grant', error_description: 'redirect_uri differs from the original authorization request' });
    // Still unused: ten minutes later it has expired.
    await s.hearth.db.updateTable('oauth2_authorization_code').set({ valid_until: Math.floor(Date.now() / 1000) - 1 }).execute();
    const late = await exchange(app, code);
    expect(late.body).toEqual({ error: 'invalid_grant', error_description: 'authorization code expired' });
  });

  it('checks the PKCE verifier, S256 and plain', async () => {
    const { app, browser } = await setup({ confidential: false });
    const pair = pkcePair();
    const q = { client_id: app.client_id, redirect_uri: CB, code_challenge: pair.challenge, code_challenge_method: 'S256' };
    const code = await codeFor(browser, q);
    const form = { grant_type: 'authorization_code', code, redirect_uri: CB, client_id: app.client_id };
    const bad = await tokenRequest(s, { ...form, code_verifier: pkcePair().verifier });
    expect(bad.body).toEqual({ error: 'invalid_grant', error_description: 'failed PKCE code challenge' });
    const none = await tokenRequest(s, form);
    expect(none.body.error).toBe('invalid_grant');
    const good = await tokenRequest(s, { ...form, code_verifier: pair.verifier });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    const plain = await codeFor(browser, { ...q, code_challenge: pair.verifier, code_challenge_method: 'plain' });
    expect((await tokenRequest(s, { ...form, code: plain, code_verifier: pair.verifier })).status).toBe(200);
  });

  it('rotates refresh tokens; reusing an old one revokes the whole family', async () => {
    const { app, browser } = await setup();
    const first = await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB }));
    const refresh = (token: unknown) => tokenRequest(s, { grant_type: 'refresh_token', refresh_token: String(token) }, { basic: [app.client_id, app.client_secret] });
    const second = await refresh(first.body.refresh_token);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await apiUser(String(second.body.access_token))).status).toBe(200);
    // The first refresh token again: someone else holds it.
    const replay = await refresh(first.body.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await apiUser(String(second.body.access_token))).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('answers CORS preflights and unknown grant types in RFC 6749 JSON', async () => {
    const pre = await s.request('login/oauth/access_token', { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const { app } = await setup();
    const res = await tokenRequest(s, { grant_type: 'password', username: 'x', password: 'y' }, { basic: [app.client_id, app.client_secret] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('counts failed client authentications with the sign-in limiter (429)', async () => {
    const own = await startTestServer();
    try {
      const owner = await createUser(own, 'limitowner');
      const app = await createOAuthApp(own, owner, { redirectUris: [CB] });
      for (let i = 0; i < 10; i++) {
        const res = await tokenRequest(own, { grant_type: 'authorization_code', code: 'x', redirect_uri: CB }, { basic: [app.client_id, 'wrong'] });
        expect(res.status).toBe(401);
      }
      const res = await tokenRequest(own, { grant_type: 'authorization_code', code: 'x', redirect_uri: CB }, { basic: [app.client_id, app.client_secret] });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // Each failure stays in the audit log, naming the client.
      const rows = await own.hearth.db.selectFrom('audit_log').selectAll().where('operation_type', '=', 'user.signin.failure').execute();
      expect(rows.filter((r) => JSON.stringify(r).includes(app.client_id))).toHaveLength(10);
    } finally {
      await own.stop();
    }
  });
});

describe('access tokens', () => {
  it('work on the API within the grant\'s scopes only', async () => {
    const { app, browser, user } = await setup();
    const code = await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'openid read:user read:repository' });
    const token = String((await exchange(app, code)).body.access_token);
    const me = await apiUser(token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { login: string }).login).toBe(user.username);
    const create = await s.request('api/v1/user/repos', { method: 'POST', auth: { token, as: 'bearer' }, json: { name: 'nope' } });
    expect(create.status).toBe(403);
    // The `token` scheme and a query parameter take it as they take personal tokens.
    expect((await s.request('api/v1/user', { auth: { token } })).status).toBe(200);
    expect((await s.request('api/v1/user', { auth: { token, as: 'access_token' } })).status).toBe(200);
    // As a Basic password (git clients), as Gitea takes it.
    expect((await s.request('api/v1/user', { auth: { basic: [user.username, token] } })).status).toBe(200);
    // Without token scopes a grant acts with the user's full access (as Gitea's).
    const full = String((await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'openid' }))).body.access_token);
    const made = await s.request('api/v1/user/repos', { method: 'POST', auth: { token: full, as: 'bearer' }, json: { name: 'made-by-oauth' } });
    expect(made.status, await made.text()).toBe(201);
  });

  it('clone a private repository with git, as the Basic password', async () => {
    const { app, browser, user } = await setup();
    await createRepo(s, user, 'secret-code', { private: true, auto_init: true });
    const read = String((await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'read:repository' }))).body.access_token);
    const dir = tempDir();
    try {
      const cloned = await gitTry(dir, 'clone', '-q', remoteUrl(s, user.username, 'secret-code', user.username, read), 'copy');
      expect(cloned.code, cloned.stderr).toBe(0);
      expect(fs.existsSync(`${dir}/copy/README.md`)).toBe(true);
      // A grant without repository access does not read it.
      const other = String((await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'read:user' }))).body.access_token);
      const refused = await gitTry(dir, 'clone', '-q', remoteUrl(s, user.username, 'secret-code', user.username, other), 'nope');
      expect(refused.code).not.toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are refused once altered, or when made with another key', async () => {
    const { app, browser } = await setup();
    const token = String((await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB }))).body.access_token);
    const [h, p] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, gnt: 1 })).toString('base64url')}.${token.split('.')[2]}`;
    expect((await apiUser(forged)).status).toBe(401);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect((await apiUser(none)).status).toBe(401);
  });

  it('tell userinfo who signed in, and introspection whether they are live', async () => {
    const { app, browser, user } = await setup();
    const token = String((await exchange(app, await codeFor(browser, { client_id: app.client_id, redirect_uri: CB, scope: 'openid profile' }))).body.access_token);
    const info = await s.request('login/oauth/userinfo', { auth: { token, as: 'bearer' } });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ sub: String(user.id), preferred_username: user.username, email: `${user.username}@example.com`, groups: [] });
    expect((await s.request('login/oauth/userinfo')).status).toBe(401);
    const introspect = (auth?: [string, string]) => s.request('login/oauth/introspect', {
      method: 'POST', body: new URLSearchParams({ token }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(auth ? { Authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` } : {}) },
    });
    const live = await introspect([app.client_id, app.client_secret]);
    expect(await live.json()).toMatchObject({ active: true, username: user.username, client_id: app.client_id, scope: 'openid profile' });
    expect((await introspect()).status).toBe(401);
    expect((await introspect([app.client_id, 'wrong'])).status).toBe(401);
  });
});
