// Git transport and browse latency of hearth against plain `git http-backend` on this machine.
// Generates a repository of ~2,000 commits (~40,000 objects) and a 5,000-file tree, then prints
// median times of `git clone --bare` and of a full push, as ratios hearth / http-backend, and the
// median latency of GET contents/{dir} and GET commits?limit=50.
// Usage: node bench/git.mjs [runs=5]   (uses dist/hearth when built, else the source via tsx)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 5);
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-git-'));
const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e.com' };
const git = (cwd, ...args) => run('git', args, { cwd, env, maxBuffer: 1 << 28 });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => { const t = performance.now(); await fn(); return performance.now() - t; };
const freePort = () => new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => r(port)); }); });

/** 2,000 commits over 100 directories, written with fast-import (seconds, not minutes). */
async function generate(dir) {
  await git(tmp, 'init', '-q', '--bare', '-b', 'main', dir);
  let script = '';
  let mark = 0;
  for (let c = 0; c < 2000; c++) {
    script += `commit refs/heads/main\nmark :${++mark}\ncommitter b <b@e.com> ${1700000000 + c * 60} +0000\ndata <<EOF\ncommit ${c}\nEOF\n`;
    for (let f = 0; f < 9; f++) {
      const d = (c * 7 + f * 13) % 100;
      const body = `file ${f} of commit ${c}\n${'x'.repeat(200 + ((c * f) % 300))}\n`;
      script += `M 100644 inline d${d}/f${(c + f) % 20}.txt\ndata ${Buffer.byteLength(body)}\n${body}`;
    }
  }
  // A wide directory for the contents listing.
  script += `commit refs/heads/main\nmark :${++mark}\ncommitter b <b@e.com> 1800000000 +0000\ndata <<EOF\nwide\nEOF\n`;
  for (let i = 0; i < 5000; i++) script += `M 100644 inline wide/file-${i}.txt\ndata 2\n${i % 10}\n`;
  await new Promise((resolve, reject) => {
    const p = spawn('git', ['fast-import', '--quiet'], { cwd: dir, env: { ...env, GIT_DIR: dir } });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    p.stdin.end(script);
  });
  await git(dir, 'gc', '-q');
  const { stdout } = await git(dir, 'count-objects', '-v');
  return Number(/in-pack: (\d+)/.exec(stdout)[1]);
}

/** Plain git http-backend behind a tiny CGI bridge: the baseline. */
function httpBackend(projectRoot) {
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const cgi = spawn('git', ['http-backend'], { env: {
      ...env, GIT_PROJECT_ROOT: projectRoot, GIT_HTTP_EXPORT_ALL: '1', REMOTE_USER: 'bench', REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: req.method, PATH_INFO: decodeURIComponent(u.pathname), QUERY_STRING: u.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '', HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: req.headers['git-protocol'] ?? '',
    } });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let done = false;
    cgi.stdout.on('data', (chunk) => {
      if (done) return res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      done = true;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const [k, ...v] = line.split(':');
        if (k.toLowerCase() === 'status') res.statusCode = Number.parseInt(v.join(':'), 10);
        else res.setHeader(k, v.join(':').trim());
      }
      res.write(head.subarray(end + 4));
    });
    cgi.stdout.on('end', () => res.end());
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

async function startHearth(dataDir) {
  const port = await freePort();
  const exe = path.join(root, 'dist', 'hearth');
  const [cmd, args] = fs.existsSync(exe) ? [exe, []] : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts')]];
  const child = spawn(cmd, [...args, 'web', '--port', String(port), '--data', dataDir], { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', HEARTH__SERVER__START_SSH_SERVER: 'false' } });
  let out = '';
  child.stderr.on('data', (b) => { out += b; });
  for (let i = 0; i < 200 && !/password:\s+\S+/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  const password = /password:\s+(\S+)/.exec(out)[1];
  return { child, port, password, base: `http://127.0.0.1:${port}/` };
}

try {
  const source = path.join(tmp, 'source.git');
  const objects = await generate(source);
  console.log(`generated ${objects} objects (2,001 commits, 5,000-file directory)`);
  const backendRoot = path.join(tmp, 'backend');
  fs.mkdirSync(backendRoot);
  // Both sides receive the repository by push, so both serve packs made the same way.
  await git(tmp, 'init', '-q', '--bare', '-b', 'main', path.join(backendRoot, 'repo.git'));
  await git(path.join(backendRoot, 'repo.git'), 'config', 'http.receivepack', 'true');
  await git(source, 'push', '-q', path.join(backendRoot, 'repo.git'), 'main');
  const backend = await httpBackend(backendRoot);
  const backendUrl = `http://127.0.0.1:${backend.address().port}/repo.git`;

  const h = await startHearth(path.join(tmp, 'hearth-data'));
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const api = (p, init = {}) => fetch(`${h.base}api/v1/${p}`, { ...init, headers: { Authorization: auth, 'Content-Type': 'application/json', ...init.headers } });
  await api('user/repos', { method: 'POST', body: JSON.stringify({ name: 'bench' }) });
  const hearthUrl = `http://root:${h.password}@127.0.0.1:${h.port}/root/bench.git`;
  await git(source, 'push', '-q', hearthUrl, 'main');

  const clone = async (url) => {
    const d = fs.mkdtempSync(path.join(tmp, 'c-'));
    const ms = await time(() => git(tmp, 'clone', '-q', '--bare', url, d));
    fs.rmSync(d, { recursive: true, force: true });
    return ms;
  };
  const cloneH = [], cloneB = [], pushH = [], pushB = [];
  for (let i = 0; i < runs; i++) {
    cloneB.push(await clone(backendUrl));
    cloneH.push(await clone(hearthUrl));
    pushB.push(await (async () => {
      fs.rmSync(path.join(backendRoot, 'push.git'), { recursive: true, force: true });
      await git(tmp, 'init', '-q', '--bare', path.join(backendRoot, 'push.git'));
      await git(path.join(backendRoot, 'push.git'), 'config', 'http.receivepack', 'true');
      return time(() => git(source, 'push', '-q', backendUrl.replace('repo.git', 'push.git'), 'main'));
    })());
    pushH.push(await (async () => {
      const name = `push-${i}`;
      await api('user/repos', { method: 'POST', body: JSON.stringify({ name }) });
      return time(() => git(source, 'push', '-q', hearthUrl.replace('bench.git', `${name}.git`), 'main'));
    })());
  }
  const fmt = (a, b) => `hearth ${median(a).toFixed(0)} ms, http-backend ${median(b).toFixed(0)} ms, ratio ${(median(a) / median(b)).toFixed(2)}x`;
  console.log(`clone --bare (median of ${runs}): ${fmt(cloneH, cloneB)}`);
  console.log(`full push    (median of ${runs}): ${fmt(pushH, pushB)}`);

  const latency = async (p) => {
    const xs = [];
    let status = 0;
    for (let i = 0; i < Math.max(runs, 10); i++) {
      const t = performance.now();
      const res = await api(p);
      await res.arrayBuffer();
      status = res.status;
      xs.push(performance.now() - t);
    }
    return status === 200 ? `${median(xs).toFixed(1)} ms` : `n/a (status ${status})`;
  };
  console.log(`GET contents/wide (5,000 entries): ${await latency('repos/root/bench/contents/wide')}`);
  console.log(`GET commits?limit=50:              ${await latency('repos/root/bench/commits?limit=50')}`);
  console.log('targets: transport within 1.2x; each GET under 100 ms');
  h.child.kill('SIGTERM');
  backend.close();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
