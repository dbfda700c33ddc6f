// GET /api/v1/admin/audit-logs/export of 1,000,000 audit rows (inserted with better-sqlite3 into
// the stopped server's database): the time to the last byte, and the server's resident memory
// sampled every 50 ms, before and during the export. The export streams a chunk of rows at a
// time, so its peak should barely move between 100,000 and 1,000,000 rows (target: 1,000,000
// under 10 s, memory flat). Runs hearth from source (tsx), so a stale dist/ is never measured.
// Usage: node bench/audit.mjs [runs=1]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { freePort, median, root, rssTree } from './lib.mjs';

const runs = Number(process.argv[2] ?? 1);
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-audit-'));
const data = path.join(tmp, 'data');
const mib = (b) => `${(b / 1048576).toFixed(0)} MiB`;

/** hearth from source over `data`; resolves once /api/healthz answers. */
async function start() {
  const port = await freePort();
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts'), 'web', '--port', String(port), '--data', data], {
    env: { ...process.env, HEARTH__LOG__LEVEL: 'warn' }, detached: true,
  });
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  child.stderr.on('data', (b) => { out += b; });
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${base}api/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const stop = () => new Promise((r) => { child.once('exit', r); process.kill(-child.pid, 'SIGTERM'); });
  return { child, base, stop, out: () => out };
}

function insertRows(n) {
  const db = new Database(path.join(data, 'hearth.db'));
  const insert = db.prepare(`INSERT INTO audit_log (operation_type, operator_id, operator_name, target_type, target_id, target_name,
    owner_id, owner_name, repo_id, repo_name, ip_address, created_unix, message, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Recent times: older rows would fall to the retention task that runs at start.
  const t0 = Math.floor(Date.now() / 1000) - n;
  const ops = ['repo.create', 'user.token.create', 'repo.collaborator.add', 'webhook.update', 'user.signin'];
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const u = `user${i % 5000}`;
      insert.run(ops[i % ops.length], 2 + (i % 5000), u, 'repo', i, `${u}/project-${i % 97}`, 2 + (i % 5000), u,
        i, `${u}/project-${i % 97}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, t0 + i,
        `${u} did something to ${u}/project-${i % 97}, "quoted"`, JSON.stringify({ n: i, private: i % 2 === 0 }));
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** CPU seconds (user + system) a process has used: less at the mercy of other load than wall time. */
function cpuSeconds(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The node process under tsx (the one that serves), or the child itself. */
function serverPid(pid) {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) return Number(name);
    } catch { /* gone */ }
  }
  return pid;
}

/** One export: time to the last byte, the server's CPU time, lines, and its peak RSS while it ran. */
async function exportOnce(h, auth, query = '') {
  const pid = serverPid(h.child.pid);
  const cpu0 = cpuSeconds(pid);
  let peak = 0;
  const timer = setInterval(() => { peak = Math.max(peak, rssTree(h.child.pid)); }, 50);
  const t = performance.now();
  const res = await fetch(`${h.base}api/v1/admin/audit-logs/export${query}`, { headers: { Authorization: auth } });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, rssTree(h.child.pid));
  return { ms, bytes, lines, peak, cpu: cpuSeconds(pid) - cpu0 };
}

let h;
try {
  h = await start();
  // The first admin's password is printed a moment after the server answers.
  for (let i = 0; i < 200 && !/password:\s+\S+/.test(h.out()); i++) await new Promise((r) => setTimeout(r, 50));
  const password = /password:\s+(\S+)/.exec(h.out())?.[1];
  if (!password) throw new Error(`no admin password:\n${h.out()}`);
  const auth = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
  await h.stop();
  insertRows(ROWS);
  h = await start();
  await fetch(`${h.base}api/v1/admin/audit-logs?limit=1`, { headers: { Authorization: auth } });
  const idle = rssTree(h.child.pid);
  console.log(`${ROWS} audit rows; server RSS before the exports ${mib(idle)}; ${runs} run(s), median\n`);
  // One operation type of five: a fifth of the rows, for the comparison of peaks.
  const small = await exportOnce(h, auth, '?operation_type=repo.create');
  const show = (r, peak) => console.log(`export of ${String(r.lines - 1).padStart(7)} rows   ${(r.ms / 1000).toFixed(2).padStart(6)} s `
    + `(server CPU ${r.cpu.toFixed(2)} s)   ${mib(r.bytes).padStart(8)}   peak RSS ${mib(peak)}`);
  show(small, small.peak);
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await exportOnce(h, auth));
  const m = all.find((r) => r.ms === median(all.map((x) => x.ms)));
  show(m, Math.max(...all.map((r) => r.peak)));
  console.log(`load average now: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log(`\ntarget: under 10 s for ${ROWS} rows: ${m.ms < 10_000 ? 'met' : 'NOT met'}; peak RSS over idle: ${mib(Math.max(...all.map((r) => r.peak)) - idle)}`);
} finally {
  if (h && h.child.exitCode === null) await h.stop();
  if (!process.env.KEEP) fs.rmSync(tmp, { recursive: true, force: true });
}
