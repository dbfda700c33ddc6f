// What the web benches share: one timed request, p50/p95 of sequential rounds after a warm-up,
// the bytes a brotli-asking browser receives, an API client, a signed-in session through the
// form, and the page-beside-its-API-twin table every web bench prints.
import http from 'node:http';

export const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
export const ms = (x) => x.toFixed(2).padStart(7);

/** One GET to its last byte; anything but 200 stops the bench (a figure of an error page is no figure). */
export async function timed(url, headers) {
  const t = performance.now();
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const took = performance.now() - t;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.toString().slice(0, 200)}`);
  return { took, res, body };
}

/** p50 and p95 of `runs` sequential rounds of the urls (their times summed per round), after `warm` rounds. */
export async function measure(urls, headers, runs, warm = 20) {
  for (let i = 0; i < warm; i++) for (const u of urls) await timed(u, headers);
  const times = [];
  for (let i = 0; i < runs; i++) {
    let sum = 0;
    for (const u of urls) sum += (await timed(u, headers)).took;
    times.push(sum);
  }
  return { p50: pct(times, 0.5), p95: pct(times, 0.95) };
}

/** The bytes as they travel (fetch would decompress them): a browser's brotli request. */
export const wire = (url, headers = {}) => new Promise((resolve, reject) => {
  http.get(url, { headers: { ...headers, 'Accept-Encoding': 'br' } }, (res) => {
    let bytes = 0;
    res.on('data', (c) => { bytes += c.length; });
    res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'none' }));
  }).on('error', reject);
});

/** A JSON API client with the given headers; a status of 300 or more stops the bench. */
export function apiClient(h, headers) {
  return async (p, body, method = 'POST') => {
    const res = await fetch(`${h.base}api/v1/${p}`, {
      method, headers: { ...headers, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/** Basic credentials of the printed first admin. */
export const rootAuth = (h) => `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;

/** A session cookie through the sign-in form (pages are measured signed in, with their forms). */
export async function signIn(h, user, password) {
  const form = await fetch(`${h.base}user/login`);
  const cookie = form.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())[1];
  const res = await fetch(`${h.base}user/login`, {
    method: 'POST', redirect: 'manual', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, user_name: user, password }),
  });
  return [cookie, ...res.headers.getSetCookie().map((c) => c.split(';')[0])].join('; ');
}

/**
 * Each row's page(s) beside its API twin(s): p50, p95, p95/p50 and the p50 ratio, one line per
 * row under a header naming the target. `rows` are [name, pageUrls, twinUrls].
 */
export async function compareRows(rows, { runs, pageHeaders, twinHeaders, target = 'target <= 1.5x; p95/p50 <= 3x', width = 26 }) {
  console.log('page'.padEnd(width), `   p50     p95  p95/p50 | twin p50  twin p95 | ratio p50 (${target})`);
  const out = [];
  for (const [name, pages, twins] of rows) {
    const a = await measure(pages, pageHeaders, runs);
    const b = await measure(twins, twinHeaders, runs);
    console.log(name.padEnd(width), `${ms(a.p50)} ${ms(a.p95)} ${(a.p95 / a.p50).toFixed(2).padStart(6)}x | ${ms(b.p50)}  ${ms(b.p95)} | ${(a.p50 / b.p50).toFixed(2)}x`);
    out.push({ name, page: a, twin: b, ratio: a.p50 / b.p50 });
  }
  return out;
}

/**
 * The signed-in side of a page bench: root must change its printed password before it may use
 * pages, so a `bench` user of the bench's own signs in (the caller grants it what the pages
 * need); the API twins use a token of root's, as scripts do (Basic hashes a password per request).
 */
export async function benchSession(h, api) {
  const password = 'bench-password-1';
  await api('admin/users', { username: 'bench', email: 'bench@example.com', password, must_change_password: false });
  const cookie = await signIn(h, 'bench', password);
  const token = (await api('users/root/tokens', { name: 'bench', scopes: ['all'] })).sha1;
  return { password, cookie, pageHeaders: { Cookie: cookie, 'Accept-Encoding': 'br, gzip' }, twinHeaders: { Authorization: `token ${token}` } };
}
