// The nodes of bench/cluster: `hearth web` processes (dist/hearth when built, else the source
// through tsx's loader) on one PostgreSQL database and one data directory, and the seeded users
// and repositories.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, root } from './lib.mjs';

function command(args) {
  const exe = path.join(root, 'dist', 'hearth');
  if (fs.existsSync(exe)) return [exe, args, 'dist/hearth'];
  const loader = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
  return [process.execPath, ['--import', loader, path.join(root, 'src/main.ts'), ...args], 'source via tsx'];
}

/** A node over `dataDir` with `env`; resolves once it answers. `password`: the first admin's, if it printed one. */
export async function startNode(dataDir, env) {
  const port = await freePort();
  const [cmd, args, label] = command(['web', '--port', String(port), '--data', dataDir]);
  const child = spawn(cmd, args, {
    env: { ...process.env, HEARTH__LOG__LEVEL: 'warn', HEARTH__SERVER__START_SSH_SERVER: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  child.stderr.on('data', (b) => { out += b; });
  const base = `http://127.0.0.1:${port}/`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 1200) throw new Error(`hearth did not start:\n${out}`);
    const ok = await fetch(`${base}api/v1/version`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child, base, label, out: () => out,
    password: /password:\s+(\S+)/.exec(out)?.[1],
    /** SIGTERM, then SIGKILL to the process group should it not stop within 10 s. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    },
  };
}

async function api(base, auth, method, p, body) {
  const res = await fetch(`${base}api/v1/${p}`, {
    method, headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`seed ${method} ${p}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/**
 * `users` users, each with a token and a repository of its own (a README, `issues` issues); the
 * world the load draws from: {runTag, users: [{name, token, repo}], repos: [{owner, name, numbers}]}.
 */
export async function seed(node, { users = 4, issues = 30 } = {}) {
  const rootAuth = `Basic ${Buffer.from(`root:${node.password}`).toString('base64')}`;
  const world = { runTag: `L${Date.now().toString(36)}`, users: [], repos: [] };
  for (let u = 0; u < users; u++) {
    const name = `user${u}`;
    await api(node.base, rootAuth, 'POST', 'admin/users', { username: name, email: `${name}@example.com`, password: 'bench-password-1', must_change_password: false });
    const auth = `Basic ${Buffer.from(`${name}:bench-password-1`).toString('base64')}`;
    const token = (await api(node.base, auth, 'POST', `users/${name}/tokens`, { name: 'bench', scopes: ['all'] })).sha1;
    await api(node.base, `token ${token}`, 'POST', 'user/repos', { name: `repo${u}`, auto_init: true, readme: 'Default' });
    const repo = { owner: name, name: `repo${u}`, numbers: [] };
    for (let i = 0; i < issues; i++) {
      repo.numbers.push((await api(node.base, `token ${token}`, 'POST', `repos/${name}/repo${u}/issues`, { title: `seeded ${i}`, body: `seeded issue ${i}` })).number);
    }
    world.users.push({ name, token, repo });
    world.repos.push(repo);
  }
  return world;
}
