// What the benches share: a free port, hearth started as a separate process (dist/hearth when
// built, else the source through tsx), the ~40,000-object repository, medians and RSS readings.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
export const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e.com' };
export const git = (cwd, ...args) => run('git', args, { cwd, env: gitEnv, maxBuffer: 1 << 28 });
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const time = async (fn) => { const t = performance.now(); await fn(); return performance.now() - t; };
export const freePort = () => new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => r(port)); }); });

/**
 * hearth on a free port over `dataDir`; resolves once it printed the first admin's password.
 * `from`: the checkout to run (another commit's, for a before/after in one run).
 */
export async function startHearth(dataDir, env = {}, from = root) {
  const port = await freePort();
  const exe = path.join(from, 'dist', 'hearth');
  const [cmd, pre] = fs.existsSync(exe) ? [exe, []] : [path.join(from, 'node_modules/.bin/tsx'), [path.join(from, 'src/main.ts')]];
  // The built-in SSH server off unless a bench asks (as root it would take port 22).
  const child = spawn(cmd, [...pre, 'web', '--port', String(port), '--data', dataDir], {
    env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', HEARTH__SERVER__START_SSH_SERVER: 'false', ...env },
  });
  let out = '';
  child.stderr.on('data', (b) => { out += b; });
  child.stdout.on('data', (b) => { out += b; });
  for (let i = 0; i < 400 && !/password:\s+\S+/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  const password = /password:\s+(\S+)/.exec(out)?.[1];
  if (!password) throw new Error(`hearth did not start:\n${out}`);
  return { child, port, password, base: `http://127.0.0.1:${port}/`, exe: cmd };
}

/** 2,000 commits over 100 directories (~40,000 objects) into a new bare repository, by fast-import. */
export async function generateRepo(dir) {
  await git(path.dirname(dir), 'init', '-q', '--bare', '-b', 'main', dir);
  let script = '';
  for (let c = 0; c < 2000; c++) {
    script += `commit refs/heads/main\ncommitter b <b@e.com> ${1700000000 + c * 60} +0000\ndata <<EOF\ncommit ${c}\nEOF\n`;
    for (let f = 0; f < 9; f++) {
      const body = `file ${f} of commit ${c}\n${'x'.repeat(200 + ((c * f) % 300))}\n`;
      script += `M 100644 inline d${(c * 7 + f * 13) % 100}/f${(c + f) % 20}.txt\ndata ${Buffer.byteLength(body)}\n${body}`;
    }
  }
  await new Promise((resolve, reject) => {
    const p = spawn('git', ['fast-import', '--quiet'], { env: { ...gitEnv, GIT_DIR: dir } });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    p.stdin.end(script);
  });
  await git(dir, 'gc', '-q');
  const { stdout } = await git(dir, 'count-objects', '-v');
  return Number(/in-pack: (\d+)/.exec(stdout)[1]);
}

/** Resident memory (bytes) of a process and all its descendants, from /proc. */
export function rssTree(pid) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch { /* gone meanwhile */ }
  }
  let total = 0;
  const walk = (p) => {
    try { total += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024; } catch { /* gone */ }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total;
}
