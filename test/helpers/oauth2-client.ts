import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in OAuth2 client on its own loopback port, as a real "sign in with hearth" app:
// - `script` mode: a static page whose script does the PKCE dance in the browser (S256
//   challenge, redirect to authorize, then the code exchanged with fetch across origins and
//   the API called with the token), as a single-page app would;
// - `server` mode: the same done by the client's server (a form-based client that works with
//   JavaScript off): the start page links to authorize, the callback exchanges the code.
// Either way the callback page ends showing "Signed in as <login>" or the error.

export type TestClient = { url: string; redirectUri: string; close: () => Promise<void> };

const page = (body: string, script = '') => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test client</title>
<link rel="icon" href="data:,"></head><body><main><h1>Test client</h1>${body}</main>${script ? `<script src="/client.js"></script>` : ''}</body></html>`;

const clientScript = (hearth: string, clientId: string) => `
const HEARTH = ${JSON.stringify(hearth)}, CLIENT = ${JSON.stringify(clientId)};
const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const out = document.getElementById('status');
const redirect = location.origin + '/cb';
async function start() {
  const verifier = b64(crypto.getRandomValues(new Uint8Array(32)));
  const state = b64(crypto.getRandomValues(new Uint8Array(12)));
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  const challenge = b64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const q = new URLSearchParams({ client_id: CLIENT, redirect_uri: redirect, response_type: 'code', scope: 'openid read:user', state, code_challenge: challenge, code_challenge_method: 'S256' });
  location.assign(HEARTH + 'login/oauth/authorize?' + q);
}
async function callback() {
  const p = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem('pkce') || '{}');
  if (p.get('error')) { out.textContent = 'Error: ' + p.get('error'); return; }
  if (p.get('state') !== saved.state) { out.textContent = 'Error: state mismatch'; return; }
  const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: CLIENT, code: p.get('code'), redirect_uri: redirect, code_verifier: saved.verifier });
  const tokens = await (await fetch(HEARTH + 'login/oauth/access_token', { method: 'POST', body })).json();
  if (!tokens.access_token) { out.textContent = 'Error: ' + tokens.error; return; }
  const me = await (await fetch(HEARTH + 'api/v1/user', { headers: { Authorization: 'Bearer ' + tokens.access_token } })).json();
  out.textContent = 'Signed in as ' + me.login;
  out.dataset.token = tokens.access_token;
}
if (location.pathname === '/cb') callback(); else document.getElementById('go').addEventListener('click', start);
`;

export async function startTestClient(hearth: string, clientIdOf: () => string, mode: 'script' | 'server'): Promise<TestClient> {
  const pending = new Map<string, string>();
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const send = (status: number, type: string, body: string) => { res.writeHead(status, { 'Content-Type': type }); res.end(body); };
    if (url.pathname === '/client.js') return send(200, 'text/javascript', clientScript(hearth, clientIdOf()));
    if (mode === 'script') {
      if (url.pathname === '/cb') return send(200, 'text/html', page('<p id="status" role="status">Signing in…</p>', 'x'));
      return send(200, 'text/html', page('<p id="status" role="status"></p><button id="go" type="button">Sign in with hearth</button>', 'x'));
    }
    if (url.pathname === '/cb') return void serverCallback(url).then((html) => send(200, 'text/html', html));
    const verifier = crypto.randomBytes(32).toString('base64url');
    const state = crypto.randomBytes(12).toString('base64url');
    pending.set(state, verifier);
    const q = new URLSearchParams({
      client_id: clientIdOf(), redirect_uri: `${base}/cb`, response_type: 'code', scope: 'openid read:user', state,
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    });
    send(200, 'text/html', page(`<p><a href="${hearth}login/oauth/authorize?${q.toString().replace(/&/g, '&amp;')}">Sign in with hearth</a></p>`));
  });
  async function serverCallback(url: URL): Promise<string> {
    const state = url.searchParams.get('state') ?? '';
    const verifier = pending.get(state);
    if (url.searchParams.get('error') || !verifier) return page(`<p id="status">Error: ${url.searchParams.get('error') ?? 'unknown state'}</p>`);
    pending.delete(state);
    const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: clientIdOf(), code: url.searchParams.get('code') ?? '', redirect_uri: `${base}/cb`, code_verifier: verifier });
    const tokens = await (await fetch(`${hearth}login/oauth/access_token`, { method: 'POST', body })).json() as { access_token?: string; error?: string };
    if (!tokens.access_token) return page(`<p id="status">Error: ${tokens.error}</p>`);
    const me = await (await fetch(`${hearth}api/v1/user`, { headers: { Authorization: `Bearer ${tokens.access_token}` } })).json() as { login: string };
    return page(`<p id="status" data-token="${tokens.access_token}">Signed in as ${me.login}</p>`);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`, redirectUri: `${base}/cb`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
