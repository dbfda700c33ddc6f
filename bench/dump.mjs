// `hearth dump` of an instance with the ~40,000-object repository (pushed into hearth) and
// 100,000 issues (inserted with better-sqlite3 into the stopped server's database), against
// `tar` of the same data directory and against a by-hand backup (`sqlite3 .backup` plus
// `git bundle create --all`). Prints the median of each and the ratios.
// Usage: node bench/dump.mjs [runs=3]   (hearth dump runs from source through tsx; its start-up
// time is measured apart and printed, so the figure can be read with or without it)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { generateRepo, git, median, root, startHearth, time } from './lib.mjs';

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 3);
const ISSUES = 100_000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-dump-'));
const data = path.join(tmp, 'data');
const out = path.join(tmp, 'out');
fs.mkdirSync(out);
const tsx = path.join(root, 'node_modules/.bin/tsx');
const main = path.join(root, 'src/main.ts');
const hearth = (...args) => run(tsx, [main, ...args], { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn' }, maxBuffer: 1 << 24 });
const sh = (cmd, args, cwd) => run(cmd, args, { cwd, maxBuffer: 1 << 24 });
const mib = (f) => `${(fs.statSync(f).size / 1048576).toFixed(1)} MiB`;

async function seed() {
  const bare = path.join(tmp, 'big.git');
  const objects = await generateRepo(bare);
  const h = await startHearth(data);
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const res = await fetch(`${h.base}api/v1/user/repos`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'big' }) });
  if (res.status !== 201) throw new Error(`create repo: ${res.status}`);
  const url = new URL('root/big.git', h.base);
  url.username = 'root';
  url.password = h.password;
  await git(bare, 'push', '-q', url.toString(), 'refs/heads/*:refs/heads/*');
  await new Promise((r) => { h.child.once('exit', r); h.child.kill('SIGTERM'); });
  insertIssues(path.join(data, 'hearth.db'));
  return objects;
}

function insertIssues(file) {
  const db = new Database(file);
  const repoId = db.prepare("SELECT id FROM repository WHERE lower_name = 'big'").get().id;
  const poster = db.prepare("SELECT id FROM \"user\" WHERE lower_name = 'root'").get().id;
  const insert = db.prepare(`INSERT INTO issue (repo_id, "index", poster_id, title, content, created_unix, updated_unix)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 1; i <= ISSUES; i++) {
      const t = 1_600_000_000 + i * 60;
      insert.run(repoId, i, poster, `issue number ${i} about the parser and the cache`, `Body of issue ${i}. `.repeat(8), t, t);
    }
    db.prepare('INSERT INTO issue_index (group_id, max_index) VALUES (?, ?) ON CONFLICT (group_id) DO UPDATE SET max_index = excluded.max_index').run(repoId, ISSUES);
    db.prepare('UPDATE repository SET num_issues = ? WHERE id = ?').run(ISSUES, repoId);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const line = (name, ms, file) => console.log(`${name.padEnd(46)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${file ? mib(file) : ''}`);

async function measure(name, fn, file) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    for (const f of fs.readdirSync(out)) fs.rmSync(path.join(out, f), { recursive: true, force: true });
    ms.push(await time(fn));
  }
  line(name, median(ms), file);
  return median(ms);
}

/** `hearth dump` as a whole, and the dump's own time from its summary line (no tsx start-up). */
async function measureDump(name, file) {
  const own = [];
  const whole = await measure(`${name} (process)`, async () => {
    const { stderr } = await hearth('dump', '--data', data, '-o', file);
    own.push(Number(/ in (\d+(?:\.\d+)?)s/.exec(stderr)[1]) * 1000);
  }, file);
  line(`${name} (the dump itself)`, median(own));
  return { whole, own: median(own) };
}

try {
  const objects = await seed();
  console.log(`data: ${objects} objects in one repository, ${ISSUES} issues; ${runs} runs each, median\n`);
  const repo = path.join(data, 'repositories', 'root', 'big.git');
  await measure('tsx start-up (hearth --version)', () => hearth('--version'));
  const dumpTar = await measureDump('hearth dump -o x.tar', path.join(out, 'x.tar'));
  const dumpGz = await measureDump('hearth dump -o x.tar.gz', path.join(out, 'x.tar.gz'));
  const tar = await measure('tar -cf (data directory)', () => sh('tar', ['-cf', path.join(out, 't.tar'), '-C', data, '.']), path.join(out, 't.tar'));
  const tarGz = await measure('tar -c | gzip -1 (data directory)', () => sh('sh', ['-c', `tar -cf - -C '${data}' . | gzip -1 > '${path.join(out, 't.tar.gz')}'`]), path.join(out, 't.tar.gz'));
  const byHand = await measure('sqlite3 .backup + git bundle create --all', async () => {
    await sh('sqlite3', [path.join(data, 'hearth.db'), `.backup '${path.join(out, 'h.db')}'`]);
    await git(repo, 'bundle', 'create', '-q', path.join(out, 'big.bundle'), '--all');
  });
  const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
  const both = (d, base) => `${ratio(d.own, base)} (whole process through tsx: ${ratio(d.whole, base)})`;
  console.log(`\nhearth dump (tar)    / tar -cf:           ${both(dumpTar, tar)}`);
  console.log(`hearth dump (tar.gz) / tar | gzip -1:     ${both(dumpGz, tarGz)}`);
  console.log(`hearth dump (tar)    / .backup + bundle:  ${both(dumpTar, byHand)}`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
