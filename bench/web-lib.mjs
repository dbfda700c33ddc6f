// What the web benches share: the instance a bench seeds and measures (benchInstance), one timed
// request, p50/p95 of sequential rounds after a warm-up, the bytes a brotli-asking browser
// receives, an API client, a signed-in session through the form, and the page-beside-its-API-twin
// table every web bench prints.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startHearth } from './lib.mjs';

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

// One kept-alive connection, as a browser's: the rounds below time the server, not new sockets.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One GET to its last byte on the wire, the body left as sent: a brotli page is not decoded
 * here (fetch would, on the bench's clock, while the API twin's JSON is never parsed), so page
 * and twin are both timed to the server's last byte. Anything but 200 stops the bench.
 */
export const wireTimed = (url, headers) => new Promise((resolve, reject) => {
  const t = performance.now();
  http.get(url, { headers, agent }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => {
      const took = performance.now() - t;
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`));
      else resolve({ took, bytes: chunks.reduce((n, c) => n + c.length, 0) });
    });
  }).on('error', reject);
});

/**
 * On-CPU nanoseconds of a process, all its threads (V8's GC helpers, libuv's pool) summed, from
 * /proc/<pid>/task/<tid>/schedstat; null where /proc has none. Unlike a request's wall time it
 * holds on a loaded machine: time spent waiting for a core is not in it.
 */
export function cpuNs(pid) {
  try {
    let sum = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try { sum += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]); } catch { /* thread gone meanwhile */ }
    }
    return sum;
  } catch {
    return null;
  }
}

/**
 * p50 and p95 of `runs` sequential rounds of the urls (their times summed per round, on the
 * wire), after `warm` rounds; with `pid`, also the server's CPU milliseconds per round.
 */
export async function measure(urls, headers, runs, warm = 20, pid = undefined) {
  for (let i = 0; i < warm; i++) for (const u of urls) await wireTimed(u, headers);
  const times = [];
  const cpu0 = pid ? cpuNs(pid) : null;
  for (let i = 0; i < runs; i++) {
    let sum = 0;
    for (const u of urls) sum += (await wireTimed(u, headers)).took;
    times.push(sum);
  }
  const cpu1 = pid ? cpuNs(pid) : null;
  return { p50: pct(times, 0.5), p95: pct(times, 0.95), cpu: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / 1e6 / runs };
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

/** `GET api/v1/…` of a twin's URL, as the table's legend names it. */
const twinName = (url) => `GET /${new URL(url).pathname.replace(/^\//, '')}${new URL(url).search}`;

/**
 * Each row's page(s) beside its API twin(s): p50, p95, p95/p50 and the p50 ratio, one line per
 * row under a header naming the target; with `pid` (the server's), its CPU per request for
 * each side too; then each row's twin requests by name. `rows` are [name, pageUrls, twinUrls].
 * Every row's pages and twins are warmed together first (`warmAll` rounds): the first row
 * measured no longer pays for the JIT's first compilations of the code all pages share.
 */
export async function compareRows(rows, { runs, pageHeaders, twinHeaders, target = 'target <= 1.5x; p95/p50 <= 3x', width = 26, pid, warmAll = 50 }) {
  for (let i = 0; i < warmAll; i++) {
    for (const [, pages, twins] of rows) {
      for (const u of pages) await wireTimed(u, pageHeaders);
      for (const u of twins) await wireTimed(u, twinHeaders);
    }
  }
  const cpuHead = pid ? ' | server CPU ms/req: page  twin  ratio' : '';
  console.log('page'.padEnd(width), `   p50     p95  p95/p50 | twin p50  twin p95 | ratio p50 (${target})${cpuHead}`);
  const out = [];
  for (const [name, pages, twins] of rows) {
    const a = await measure(pages, pageHeaders, runs, 20, pid);
    const b = await measure(twins, twinHeaders, runs, 20, pid);
    const cpu = a.cpu !== null && a.cpu !== undefined && b.cpu ? `   | ${ms(a.cpu)} ${ms(b.cpu)} ${(a.cpu / b.cpu).toFixed(2).padStart(5)}x` : '';
    console.log(name.padEnd(width), `${ms(a.p50)} ${ms(a.p95)} ${(a.p95 / a.p50).toFixed(2).padStart(6)}x | ${ms(b.p50)}  ${ms(b.p95)} | ${(a.p50 / b.p50).toFixed(2)}x${cpu}`);
    out.push({ name, page: a, twin: b, ratio: a.p50 / b.p50 });
  }
  console.log('twins:');
  for (const [name, , twins] of rows) console.log(`  ${name.padEnd(width)} ${twins.map(twinName).join(' + ')}`);
  return out;
}


/**
 * A page session and an API token of one user, so that page and twin are read by the same
 * viewer (the same permission lookups on both sides): `root` (given a password of the bench's
 * through the admin API: a printed one opens no page) or a new user of that name.
 */
export async function userSession(h, api, name) {
  if (name === 'root') {
    // A printed password must be replaced before pages open: root sets one of the bench's on the
    // change form, as a browser would (h follows, so clients reading h.password per request, as
    // benchInstance's api, keep working); the form's session goes on.
    const password = 'bench-root-password-1';
    const cookie = await signIn(h, 'root', h.password);
    const form = await fetch(`${h.base}user/settings/change_password`, { headers: { Cookie: cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())[1];
    const changed = await fetch(`${h.base}user/settings/change_password`, {
      method: 'POST', redirect: 'manual', headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, old_password: h.password, password, retype: password }),
    });
    if (changed.status !== 303) throw new Error(`root's password change: ${changed.status} ${(await changed.text()).slice(0, 300)}`);
    h.password = password;
    const token = (await api('users/root/tokens', { name: 'bench-root', scopes: ['all'] })).sha1;
    return { password: h.password, cookie, pageHeaders: { Cookie: cookie, 'Accept-Encoding': 'br, gzip' }, twinHeaders: { Authorization: `token ${token}` } };
  }
  const password = 'bench-password-1';
  await api('admin/users', { username: name, email: `${name}@example.com`, password, must_change_password: false });
  const cookie = await signIn(h, name, password);
  const token = (await api(`users/${name}/tokens`, { name: 'bench', scopes: ['all'] })).sha1;
  return { password, cookie, pageHeaders: { Cookie: cookie, 'Accept-Encoding': 'br, gzip' }, twinHeaders: { Authorization: `token ${token}` } };
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

/**
 * A web bench's hearth: dist/hearth (else the source through tsx) over a temp data directory
 * named after the bench, with `env` added to its environment. It carries what every web bench
 * uses: `api` (root's JSON client), `page(p)` and `twin(p)` URLs, `label` (what runs),
 * `session()` (benchSession), `expectPages` (the pages as measured hold what the bench needs),
 * `compare(rows, opts)` (compareRows with the server's CPU) and `close()`, which stops the
 * server and removes the directory: call it in a `finally`, so a failed step leaves nothing.
 */
export async function benchInstance(name, env = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `hearth-bench-${name}-`));
  let h;
  try {
    h = await startHearth(path.join(tmp, 'data'), env);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  // root's credentials read per request: sessionOf('root') replaces its printed password.
  const api = (p, body, method) => apiClient(h, { Authorization: rootAuth(h) })(p, body, method);
  const built = h.exe.endsWith('hearth');
  const exited = new Promise((resolve) => { h.child.once('exit', resolve); });
  return {
    h, api, built, tmp,
    label: built ? 'dist/hearth' : 'source via tsx',
    page: (p) => `${h.base}${p}`,
    twin: (p) => `${h.base}api/v1/${p}`,
    session: () => benchSession(h, api),
    /** The page session and API token of one user (userSession). */
    sessionOf: (user) => userSession(h, api, user),
    /** Each [url, text]: the page (with `headers`) must contain the text, else the bench stops. */
    async expectPages(checks, headers) {
      for (const [url, want] of checks) {
        const res = await fetch(url, { headers });
        const text = await res.text();
        if (res.status !== 200 || !text.includes(want)) {
          throw new Error(`${url} (${res.status}) lacks "${want}": ${text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 1500)}`);
        }
      }
    },
    compare: (rows, opts) => compareRows(rows, { pid: h.child.pid, ...opts }),
    async close() {
      if (h.child.exitCode === null && h.child.signalCode === null) {
        h.child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
