// Issue listing and search latency on a large tracker: one repository with 100,000 issues
// (70% open, `kind/bug` on 60% of them) and 500,000 comments, inserted directly with
// better-sqlite3 in one transaction into a migrated database. Prints the median latency of
// page 1 and page 1,000 of open issues with a label filter and of /repos/issues/search?q=.
// Usage: node bench/issues.mjs [runs=15] [--dist]   (the source via tsx; dist/hearth with --dist, once rebuilt)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const useDist = args.includes('--dist');
/** Keep the data directory (printed) to look at query plans afterwards. */
const keep = args.includes('--keep');
const ISSUES = 100_000;
const COMMENTS = 500_000;
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-issues-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const freePort = () => new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => r(port)); }); });

async function startHearth(dataDir) {
  const port = await freePort();
  const exe = path.join(root, 'dist', 'hearth');
  const [cmd, pre] = useDist ? [exe, []] : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts')]];
  const child = spawn(cmd, [...pre, 'web', '--port', String(port), '--data', dataDir], { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn' } });
  let out = '';
  child.stderr.on('data', (b) => { out += b; });
  for (let i = 0; i < 400 && !/password:\s+\S+/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  const password = /password:\s+(\S+)/.exec(out)?.[1];
  if (!password) throw new Error(`hearth did not start:\n${out}`);
  return { child, password, base: `http://127.0.0.1:${port}/` };
}

/** A small deterministic generator: the same data on every run. */
function rng(seed) {
  let x = seed;
  return () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
}

const WORDS = ('alpha beta gamma delta crash button window render cache network socket timeout parser config login '
  + 'session upload download search index query table column merge branch commit review label widget theme layout '
  + 'mobile desktop server client memory thread worker queue event stream buffer format encode decode token').split(' ');

/** 100,000 issues, their labels and 500,000 comments in one transaction; counters set like the services do. */
function populate(file, repoId, posterId, labelIds) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const rand = rng(42);
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const base = 1_600_000_000;
  const insertIssue = db.prepare(`INSERT INTO issue (repo_id, "index", poster_id, title, content, is_closed, num_comments,
    created_unix, updated_unix, closed_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertLabel = db.prepare('INSERT INTO issue_label (issue_id, label_id) VALUES (?, ?)');
  const insertComment = db.prepare(`INSERT INTO comment (type, issue_id, poster_id, content, created_unix, updated_unix)
    VALUES (0, ?, ?, ?, ?, ?)`);
  const [bug, ...others] = labelIds;
  db.transaction(() => {
    for (let i = 1; i <= ISSUES; i++) {
      const closed = i % 10 < 3 ? 1 : 0;
      const created = base + i * 60;
      // One issue in 200 carries a rare word: what the search below looks for.
      const title = `${words(4)}${i % 200 === 5 ? ' zanzibar' : ''} #${i}`;
      const n = COMMENTS / ISSUES;
      const { lastInsertRowid: id } = insertIssue.run(repoId, i, posterId, title, words(25), closed, n, created, created + 30, closed ? created + 60 : 0);
      if (rand() < 0.6) insertLabel.run(id, bug);
      if (rand() < 0.3) insertLabel.run(id, others[Math.floor(rand() * others.length)]);
      for (let c = 0; c < n; c++) insertComment.run(id, posterId, words(10), created + c, created + c);
    }
    db.prepare('INSERT INTO issue_index (group_id, max_index) VALUES (?, ?) ON CONFLICT (group_id) DO UPDATE SET max_index = excluded.max_index')
      .run(repoId, ISSUES);
    db.prepare(`UPDATE repository SET num_issues = (SELECT COUNT(*) FROM issue WHERE repo_id = ?),
      num_closed_issues = (SELECT COUNT(*) FROM issue WHERE repo_id = ? AND is_closed = 1) WHERE id = ?`).run(repoId, repoId, repoId);
    db.prepare(`UPDATE label SET num_issues = (SELECT COUNT(*) FROM issue_label WHERE label_id = label.id),
      num_closed_issues = (SELECT COUNT(*) FROM issue_label JOIN issue ON issue.id = issue_label.issue_id
        WHERE issue_label.label_id = label.id AND issue.is_closed = 1)`).run();
  })();
  const counts = db.prepare('SELECT (SELECT COUNT(*) FROM issue) AS issues, (SELECT COUNT(*) FROM comment) AS comments').get();
  db.close();
  return counts;
}

const tmpRoot = tmp;
let h;
try {
  const dataDir = path.join(tmpRoot, 'data');
  h = await startHearth(dataDir);
  const rootAuth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const benchAuth = `Basic ${Buffer.from('bench:bench-password-1').toString('base64')}`;
  const api = (p, init = {}, auth = rootAuth) => fetch(`${h.base}api/v1/${p}`, { ...init, headers: { Authorization: auth, 'Content-Type': 'application/json', ...init.headers } });
  const must = async (res) => { if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${await res.text()}`); return res.json(); };
  const user = await must(await api('admin/users', { method: 'POST', body: JSON.stringify({ username: 'bench', email: 'bench@example.com', password: 'bench-password-1', must_change_password: false }) }));
  const repo = await must(await api('user/repos', { method: 'POST', body: JSON.stringify({ name: 'tracker' }) }, benchAuth));
  const labelIds = [];
  for (const name of ['kind/bug', 'kind/feature', 'ui', 'backend', 'docs', 'good first issue', 'priority/high', 'priority/low', 'wontfix', 'duplicate']) {
    labelIds.push((await must(await api('repos/bench/tracker/labels', { method: 'POST', body: JSON.stringify({ name, color: '#336699' }) }, benchAuth))).id);
  }
  const t0 = performance.now();
  const counts = populate(path.join(dataDir, 'hearth.db'), repo.id, user.id, labelIds);
  // The insert blocked this process past the server's keep-alive: let idle sockets close first.
  await new Promise((r) => setTimeout(r, 200));
  console.log(`inserted ${counts.issues.toLocaleString('en')} issues and ${counts.comments.toLocaleString('en')} comments in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const latency = async (label, p) => {
    const xs = [];
    let body;
    let total;
    for (let i = 0; i < runs + 2; i++) {
      const t = performance.now();
      const res = await api(p, {}, benchAuth);
      body = await res.json();
      if (res.status !== 200) throw new Error(`${p}: ${res.status} ${JSON.stringify(body)}`);
      if (i >= 2) xs.push(performance.now() - t); // two warm-up calls
      total = res.headers.get('x-total-count');
    }
    const m = median(xs);
    console.log(`${label.padEnd(46)} ${m.toFixed(1).padStart(6)} ms   (${body.length} items of ${total})`);
    return m;
  };
  const label = encodeURIComponent('kind/bug');
  const p1 = await latency('open issues, labels=kind/bug, page 1', `repos/bench/tracker/issues?state=open&labels=${label}&page=1`);
  const p1000 = await latency('open issues, labels=kind/bug, page 1,000', `repos/bench/tracker/issues?state=open&labels=${label}&page=1000`);
  const search = await latency('/repos/issues/search?q=zanzibar', 'repos/issues/search?q=zanzibar');
  await latency('/repos/issues/search?q=timeout (common word)', 'repos/issues/search?q=timeout');
  await latency('/repos/issues/search (no q)', 'repos/issues/search');
  await latency('open issues, no filter, page 1', 'repos/bench/tracker/issues?page=1');
  await latency('issue comments (one issue)', 'repos/bench/tracker/issues/99999/comments');
  console.log(`targets: each under 50 ms (${[p1, p1000, search].every((m) => m < 50) ? 'met' : 'NOT met'}); `
    + `page 1,000 / page 1 = ${(p1000 / p1).toFixed(2)}x (target at most 2x: ${p1000 <= 2 * p1 ? 'met' : 'NOT met'})`);
} finally {
  h?.child.kill('SIGTERM');
  if (keep) console.log(`data kept in ${tmpRoot}`);
  else fs.rmSync(tmpRoot, { recursive: true, force: true });
}
