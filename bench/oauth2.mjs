// OAuth2 access tokens on the API: GET /api/v1/user with an OAuth2 access token (an RS256 JWT:
// signature check, then the grant, user and application rows) against the same call with a
// personal access token (one hashed lookup), on one server, measured in turns (A B A B) so the
// machine's drift falls on both; requests/s and p99, and the ratio. Also the token endpoint
// (authorization_code exchange is one-shot, so refresh_token grants, each rotating) in req/s.
// Usage: node bench/oauth2.mjs [seconds=6]   (dist/hearth when built, else the source via tsx)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startHearth } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 6);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-oauth2-'));

const cannon = (url, headers) => new Promise((resolve, reject) => {
  autocannon({ url, headers, connections: 4, duration: seconds }, (err, r) => (err ? reject(err) : resolve(r)));
});

/** A browser's cookies and the CSRF token of the page it last read. */
function browser(base) {
  const jar = new Map();
  const request = async (p, init = {}) => {
    const res = await fetch(new URL(p, base), { ...init, redirect: 'manual', headers: { ...init.headers, Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) { const [pair] = line.split(';'); const i = pair.indexOf('='); jar.set(pair.slice(0, i), pair.slice(i + 1)); }
    return res;
  };
  const form = async (p, from, fields) => {
    const page = await (await request(from)).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)[1];
    const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')]));
    return request(p, { method: 'POST', body: new URLSearchParams({ ...hidden, _csrf: csrf, ...fields }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  };
  return { request, form };
}

/** A user signs in, consents, and the public client exchanges the code with its PKCE verifier. */
async function oauthTokens(h, admin) {
  const user = { username: 'bench', password: 'bench-password-1' };
  await fetch(`${h.base}api/v1/admin/users`, { method: 'POST', headers: admin, body: JSON.stringify({ ...user, email: 'bench@example.com', must_change_password: false }) });
  const basic = { Authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`, 'Content-Type': 'application/json' };
  const app = await (await fetch(`${h.base}api/v1/user/applications/oauth2`, { method: 'POST', headers: basic, body: JSON.stringify({ name: 'bench', redirect_uris: ['http://127.0.0.1/cb'], confidential_client: false }) })).json();
  const b = browser(h.base);
  await b.form('user/login', 'user/login', { user_name: user.username, password: user.password });
  const verifier = crypto.randomBytes(32).toString('base64url');
  const q = new URLSearchParams({ client_id: app.client_id, redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', scope: 'openid read:user', code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
  const granted = await b.form('login/oauth/grant', `login/oauth/authorize?${q}`, { granted: 'true' });
  const code = new URL(granted.headers.get('location')).searchParams.get('code');
  const body = new URLSearchParams({ grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: verifier });
  const tokens = await (await fetch(`${h.base}login/oauth/access_token`, { method: 'POST', body })).json();
  const personal = await (await fetch(`${h.base}api/v1/users/${user.username}/tokens`, { method: 'POST', headers: basic, body: JSON.stringify({ name: 'bench', scopes: ['read:user'] }) })).json();
  return { app, tokens, personal: personal.sha1 };
}

async function refreshRate(h, app, refreshToken) {
  let token = refreshToken;
  const n = 200;
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const body = new URLSearchParams({ grant_type: 'refresh_token', client_id: app.client_id, refresh_token: token });
    token = (await (await fetch(`${h.base}login/oauth/access_token`, { method: 'POST', body })).json()).refresh_token;
  }
  return n / ((performance.now() - started) / 1000);
}

let h;
try {
  h = await startHearth(path.join(tmp, 'data'));
  const admin = { Authorization: `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`, 'Content-Type': 'application/json' };
  const { app, tokens, personal } = await oauthTokens(h, admin);
  const url = `${h.base}api/v1/user`;
  const runs = { personal: [], oauth2: [] };
  await cannon(url, { Authorization: `token ${personal}` });
  for (let i = 0; i < 2; i++) {
    runs.personal.push(await cannon(url, { Authorization: `token ${personal}` }));
    runs.oauth2.push(await cannon(url, { Authorization: `Bearer ${tokens.access_token}` }));
  }
  const mean = (rs, f) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
  const [p, o] = [mean(runs.personal, (r) => r.requests.average), mean(runs.oauth2, (r) => r.requests.average)];
  const [pp99, op99] = [mean(runs.personal, (r) => r.latency.p99), mean(runs.oauth2, (r) => r.latency.p99)];
  const non2xx = [...runs.personal, ...runs.oauth2].reduce((a, r) => a + r.non2xx, 0);
  console.log(`GET /user, personal token: ${p.toFixed(0)} req/s, p99 ${pp99.toFixed(1)} ms`);
  console.log(`GET /user, OAuth2 JWT:     ${o.toFixed(0)} req/s, p99 ${op99.toFixed(1)} ms  (${(p / o).toFixed(2)}x the personal token's time per request)`);
  console.log(`refresh_token grants (sequential, each rotating): ${(await refreshRate(h, app, tokens.refresh_token)).toFixed(0)} req/s`);
  if (non2xx) console.log(`(${non2xx} answers were not 2xx: the figures are not comparable)`);
} finally {
  h?.child.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
