// Issue listing and search latency on a large tracker: one repository with 100,000 issues
// (70% open, `kind/bug` on 60% of them) and 500,000 comments, inserted directly with
// better-sqlite3 in one transaction into a migrated database. Prints the median latency of
// page 1 and page 1,000 of open issues with a label filter and of /repos/issues/search?q=.
// PostgreSQL beside SQLite (issue 34): the same rows inserted into a throwaway cluster
// (bench/postgres.mjs) with batched multi-row statements, both instances up at once and each request
// timed on both in turns (the machine's load drifts); the goal printed as pass/MISS lines: the
// 50-issue page and an issue create within 3x of SQLite's time.
// Usage: node bench/issues.mjs [runs=15] [--dist] [--sqlite-only] [--keep]   (the source via tsx; dist/hearth with --dist, once rebuilt)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { postgresInstalled, startPostgres } from './postgres.mjs';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 15);
const useDist = args.includes('--dist');
/** Keep the data directory (printed) to look at query plans afterwards. */
const keep = args.includes('--keep');
const sqliteOnly = args.includes('--sqlite-only');
const ISSUES = 100_000;
const COMMENTS = 500_000;
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-issues-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const freePort = () => new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => r(port)); }); });

async function startHearth(dataDir, env = {}) {
  const port = await freePort();
  const exe = path.join(root, 'dist', 'hearth');
  const [cmd, pre] = useDist ? [exe, []] : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts')]];
  const child = spawn(cmd, [...pre, 'web', '--port', String(port), '--data', dataDir], { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', HEARTH__SERVER__START_SSH_SERVER: 'false', ...env } });
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

/** The rows of the tracker, the same on every run and engine: each issue with its labels and comments. */
function* generate(labelIds) {
  const rand = rng(42);
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const base = 1_600_000_000;
  const [bug, ...others] = labelIds;
  for (let i = 1; i <= ISSUES; i++) {
    const closed = i % 10 < 3 ? 1 : 0;
    const created = base + i * 60;
    // One issue in 200 carries a rare word: what the search below looks for.
    const title = `${words(4)}${i % 200 === 5 ? ' zanzibar' : ''} #${i}`;
    const n = COMMENTS / ISSUES;
    const issue = { index: i, title, content: words(25), closed, n, created, updated: created + 30, closedUnix: closed ? created + 60 : 0 };
    const labels = [];
    if (rand() < 0.6) labels.push(bug);
    if (rand() < 0.3) labels.push(others[Math.floor(rand() * others.length)]);
    const comments = Array.from({ length: n }, (_, c) => ({ content: words(10), created: created + c }));
    yield [issue, labels, comments];
  }
}

// Counters set as the services keep them (the same SQL on both engines: booleans are integers).
const recountRepo = 'UPDATE repository SET num_issues = (SELECT COUNT(*) FROM issue WHERE repo_id = $1), '
  + 'num_closed_issues = (SELECT COUNT(*) FROM issue WHERE repo_id = $1 AND is_closed = 1) WHERE id = $1';
const recountLabels = `UPDATE label SET num_issues = (SELECT COUNT(*) FROM issue_label WHERE label_id = label.id),
  num_closed_issues = (SELECT COUNT(*) FROM issue_label JOIN issue ON issue.id = issue_label.issue_id
    WHERE issue_label.label_id = label.id AND issue.is_closed = 1)`;
const setIndex = 'INSERT INTO issue_index (group_id, max_index) VALUES ($1, $2) ON CONFLICT (group_id) DO UPDATE SET max_index = excluded.max_index';

/** 100,000 issues, their labels and 500,000 comments in one transaction on SQLite's file. */
function populateSqlite(file, repoId, posterId, labelIds) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insertIssue = db.prepare(`INSERT INTO issue (repo_id, "index", poster_id, title, content, is_closed, num_comments,
    created_unix, updated_unix, closed_unix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertLabel = db.prepare('INSERT INTO issue_label (issue_id, label_id) VALUES (?, ?)');
  const insertComment = db.prepare(`INSERT INTO comment (type, issue_id, poster_id, content, created_unix, updated_unix)
    VALUES (0, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const [it, labels, comments] of generate(labelIds)) {
      const { lastInsertRowid: id } = insertIssue.run(repoId, it.index, posterId, it.title, it.content, it.closed, it.n, it.created, it.updated, it.closedUnix);
      for (const l of labels) insertLabel.run(id, l);
      for (const c of comments) insertComment.run(id, posterId, c.content, c.created, c.created);
    }
    db.prepare(setIndex.replace(/\$\d/g, '?')).run(repoId, ISSUES);
    db.prepare(recountRepo.replace(/\$1/g, '?')).run(repoId, repoId, repoId);
    db.prepare(recountLabels).run();
  })();
  const counts = db.prepare('SELECT (SELECT COUNT(*) FROM issue) AS issues, (SELECT COUNT(*) FROM comment) AS comments').get();
  db.close();
  return counts;
}

/**
 * The same rows into PostgreSQL in one transaction, 2,000 issues a statement (arrays unnested).
 * Issue ids are given (the tracker is empty, so they follow the highest id) and the identity is
 * moved past them afterwards, as `hearth admin db copy` does.
 */
async function populatePostgres(url, repoId, posterId, labelIds) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const first = Number((await client.query('SELECT COALESCE(MAX(id), 0) AS m FROM issue')).rows[0].m) + 1;
    let batch = { issues: [], labels: [], comments: [] };
    const cols = (rows, n) => Array.from({ length: n }, (_, k) => rows.map((r) => r[k]));
    const flush = async () => {
      const b = batch;
      batch = { issues: [], labels: [], comments: [] };
      if (!b.issues.length) return;
      await client.query(`INSERT INTO issue (id, repo_id, "index", poster_id, title, content, is_closed, num_comments, created_unix, updated_unix, closed_unix)
        SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[])`, cols(b.issues, 11));
      await client.query('INSERT INTO issue_label (issue_id, label_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])', cols(b.labels, 2));
      await client.query(`INSERT INTO comment (type, issue_id, poster_id, content, created_unix, updated_unix)
        SELECT 0, * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[])`, cols(b.comments, 5));
    };
    for (const [it, labels, comments] of generate(labelIds)) {
      const id = first + it.index - 1;
      batch.issues.push([id, repoId, it.index, posterId, it.title, it.content, it.closed, it.n, it.created, it.updated, it.closedUnix]);
      for (const l of labels) batch.labels.push([id, l]);
      for (const c of comments) batch.comments.push([id, posterId, c.content, c.created, c.created]);
      if (batch.issues.length === 2000) await flush();
    }
    await flush();
    await client.query("SELECT setval(pg_get_serial_sequence('issue', 'id'), (SELECT MAX(id) FROM issue))");
    await client.query(setIndex, [repoId, ISSUES]);
    await client.query(recountRepo, [repoId]);
    await client.query(recountLabels);
    await client.query('COMMIT');
    // As autovacuum would soon after a bulk load: statistics, and the visibility map that lets
    // counts and pages read the indexes alone.
    await client.query('VACUUM ANALYZE');
    const { rows: [counts] } = await client.query('SELECT (SELECT COUNT(*) FROM issue)::int AS issues, (SELECT COUNT(*) FROM comment)::int AS comments');
    return counts;
  } finally {
    await client.end();
  }
}

const tmpRoot = tmp;
const label = encodeURIComponent('kind/bug');
// [name, path]: the first is the page the goal compares (50 issues, as bench/api's).
const cases = [
  ['open issues, limit=50, page 1', 'repos/bench/tracker/issues?state=open&limit=50&page=1'],
  ['open issues, labels=kind/bug, page 1', `repos/bench/tracker/issues?state=open&labels=${label}&page=1`],
  ['open issues, labels=kind/bug, page 1,000', `repos/bench/tracker/issues?state=open&labels=${label}&page=1000`],
  ['/repos/issues/search?q=zanzibar', 'repos/issues/search?q=zanzibar'],
  ['/repos/issues/search?q=timeout (common word)', 'repos/issues/search?q=timeout'],
  ['/repos/issues/search (no q)', 'repos/issues/search'],
  ['open issues, no filter, page 1', 'repos/bench/tracker/issues?page=1'],
  ['issue comments (one issue)', 'repos/bench/tracker/issues/99999/comments'],
];
const CREATE = 'issue create (POST, 100,000 in the tracker)';

/** One instance on `engine` with the tracker filled; `get` and `create` call it as the bench user. */
async function prepare(engine, pgServer) {
  const dataDir = path.join(tmpRoot, `data-${engine}`);
  const h = await startHearth(dataDir, pgServer?.env ?? {});
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
  const counts = pgServer
    ? await populatePostgres(pgServer.url, repo.id, user.id, labelIds)
    : populateSqlite(path.join(dataDir, 'hearth.db'), repo.id, user.id, labelIds);
  // The insert blocked this process past the server's keep-alive: let idle sockets close first.
  await new Promise((r) => setTimeout(r, 200));
  console.log(`${engine}: inserted ${counts.issues.toLocaleString('en')} issues and ${counts.comments.toLocaleString('en')} comments in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return {
    h,
    get: (p) => api(p, {}, benchAuth),
    create: (i) => api('repos/bench/tracker/issues', { method: 'POST', body: JSON.stringify({ title: `Created ${i}`, body: 'timed create' }) }, benchAuth),
  };
}

/**
 * The median latency (ms) of `call` on each instance, in turns (A B, then B A) so that the load
 * of a shared machine, which drifts over seconds, falls on every engine alike.
 */
async function timedInTurns(name, instances, call) {
  const xs = instances.map(() => []);
  const notes = instances.map(() => '');
  for (let i = 0; i < runs + 2; i++) {
    const order = i % 2 ? [...instances.keys()].reverse() : [...instances.keys()];
    for (const k of order) {
      const t = performance.now();
      const res = await call(instances[k], i);
      const body = await res.json();
      if (res.status >= 300) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
      if (i >= 2) xs[k].push(performance.now() - t); // two warm-up calls
      notes[k] = Array.isArray(body) ? `(${body.length} items of ${res.headers.get('x-total-count')})` : '';
    }
  }
  return xs.map((x, k) => ({ ms: median(x), note: notes[k] }));
}

const started = [];
let pgServer = null;
try {
  const engines = [['sqlite', null]];
  if (!sqliteOnly && postgresInstalled()) engines.push(['postgres', (pgServer = startPostgres())]);
  const instances = [];
  for (const [engine, server] of engines) {
    const inst = await prepare(engine, server);
    started.push(inst.h.child);
    instances.push(inst);
  }
  const results = new Map();
  console.log(`medians of ${runs} runs, ${engines.length > 1 ? 'the engines in turns' : 'SQLite alone'}`);
  console.log(`${''.padEnd(46)} ${engines.map(([e]) => e.padStart(8)).join(' ')}${engines.length > 1 ? '   ratio' : ''}`);
  const report = (name, r) => {
    results.set(name, r.map((x) => x.ms));
    const ratio = r.length > 1 ? `  ${(r[1].ms / r[0].ms).toFixed(2).padStart(5)}x` : '';
    console.log(`  ${name.padEnd(44)} ${r.map((x) => x.ms.toFixed(1).padStart(8)).join(' ')}${ratio}   ${r[0].note}`);
  };
  for (const [name, p] of cases) report(name, await timedInTurns(name, instances, (inst) => inst.get(p)));
  report(CREATE, await timedInTurns(CREATE, instances, (inst, i) => inst.create(i)));
  const sqlite = (name) => results.get(name)[0];
  const [p1, p1000, search] = [cases[1][0], cases[2][0], cases[3][0]].map(sqlite);
  console.log(`SQLite targets: each under 50 ms (${[p1, p1000, search].every((m) => m < 50) ? 'met' : 'NOT met'}); `
    + `page 1,000 / page 1 = ${(p1000 / p1).toFixed(2)}x (target at most 2x: ${p1000 <= 2 * p1 ? 'met' : 'NOT met'})`);
  if (engines.length === 1) {
    console.log(`PostgreSQL: ${sqliteOnly ? 'skipped (--sqlite-only)' : 'not installed here'}`);
  } else {
    for (const name of [cases[0][0], CREATE]) {
      const [a, b] = results.get(name);
      console.log(`${b / a <= 3 ? 'pass' : 'MISS'}  ${name}: PostgreSQL ${(b / a).toFixed(2)}x SQLite's time (goal within 3x)`);
    }
  }
} finally {
  for (const child of started) child.kill('SIGTERM');
  await Promise.all(started.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  if (keep && pgServer) console.log(`PostgreSQL kept running: ${pgServer.url} (stop: pg_ctl -D ${pgServer.socketDir}/data stop)`);
  else pgServer?.stop();
  if (keep) console.log(`data kept in ${tmpRoot}`);
  else fs.rmSync(tmpRoot, { recursive: true, force: true });
}
