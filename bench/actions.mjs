// Actions: time from `git push` to a finished two-step echo workflow with the runner idle
// (target: under 2 s), then 20 queued jobs (a matrix of 20) drained by 2 runners: total time
// and the server's resident memory. The runners are `hearth runner daemon` processes, as deployed.
// Usage: node bench/actions.mjs [pushes=5]   (dist/hearth when built, else the source via tsx)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, median, root, rssTree, startHearth } from './lib.mjs';

const pushes = Number(process.argv[2] ?? 5);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-actions-'));
const mb = (b) => (b / 1024 / 1024).toFixed(1);
const children = [];

/** hearth with the same executable the server uses; resolves with its output when it exits. */
function hearth(h, args, cwd, background = false) {
  const pre = h.exe.endsWith('tsx') ? [path.join(root, 'src/main.ts')] : [];
  const child = spawn(h.exe, [...pre, ...args], { cwd, detached: true, env: { ...process.env, HOME: cwd } });
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  child.stderr.on('data', (b) => { out += b; });
  if (background) children.push(child);
  return new Promise((resolve, reject) => {
    if (background) return resolve(child);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`hearth ${args.join(' ')}: ${code}\n${out}`))));
  });
}

const echoWorkflow = `name: echo
on: push
jobs:
  echo:
    runs-on: hearth
    steps:
      - run: echo one
      - run: echo two
`;
const matrixWorkflow = `name: many
on: push
jobs:
  job:
    runs-on: hearth
    strategy:
      matrix:
        n: [${Array.from({ length: 20 }, (_, i) => i + 1).join(', ')}]
    steps:
      - run: echo "job \${{ matrix.n }}"
`;

try {
  const h = await startHearth(path.join(tmp, 'data'));
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const api = async (p, body) => {
    const res = await fetch(`${h.base}api/v1/${p}`, { method: body ? 'POST' : 'GET', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    return res.json();
  };
  const { token } = await api('admin/runners/registration-token');
  for (const n of [1, 2]) {
    const dir = path.join(tmp, `runner${n}`);
    fs.mkdirSync(dir);
    await hearth(h, ['runner', 'register', '--instance', h.base, '--token', token, '--name', `bench-${n}`, '--labels', 'hearth'], dir);
    await hearth(h, ['runner', 'daemon', '--work-dir', path.join(dir, 'work')], dir, true);
  }
  await api('user/repos', { name: 'ci', auto_init: true });
  const wt = path.join(tmp, 'ci');
  await git(tmp, 'clone', '-q', `http://root:${h.password}@127.0.0.1:${h.port}/root/ci.git`, wt);
  fs.mkdirSync(path.join(wt, '.gitea/workflows'), { recursive: true });
  fs.writeFileSync(path.join(wt, '.gitea/workflows/echo.yml'), echoWorkflow);
  const done = async (sha, jobs) => {
    for (;;) {
      const runs = (await api(`repos/root/ci/actions/runs?head_sha=${sha}`)).workflow_runs ?? [];
      const finished = runs.filter((r) => r.head_sha === sha && r.status === 'completed');
      if (finished.length && jobs === 1) return finished[0].conclusion;
      if (finished.length && jobs > 1) {
        const list = (await api(`repos/root/ci/actions/runs/${finished[0].id}/jobs?limit=50`)).jobs ?? [];
        if (list.length >= jobs && list.every((j) => j.status === 'completed')) return finished[0].conclusion;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const commitPush = async (i) => {
    fs.writeFileSync(path.join(wt, 'n.txt'), `${i}\n`);
    await git(wt, 'add', '-A');
    await git(wt, 'commit', '-q', '-m', `c${i}`);
    const sha = (await git(wt, 'rev-parse', 'HEAD')).stdout.trim();
    const t0 = performance.now();
    await git(wt, 'push', '-q', 'origin', 'main');
    return { sha, t0 };
  };

  // Latency: the runners idle between pushes.
  const times = [];
  for (let i = 0; i < pushes + 1; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    const { sha, t0 } = await commitPush(i);
    const conclusion = await done(sha, 1);
    if (conclusion !== 'success') throw new Error(`run for ${sha}: ${conclusion}`);
    if (i > 0) times.push(performance.now() - t0); // the first run warms the runners up
  }
  console.log(`push to finished two-step workflow (median of ${pushes}, idle runner): ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`);

  // Drain: 20 jobs queued at once, 2 runners of capacity 1.
  fs.rmSync(path.join(wt, '.gitea/workflows/echo.yml'));
  fs.writeFileSync(path.join(wt, '.gitea/workflows/many.yml'), matrixWorkflow);
  const before = rssTree(h.child.pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rssTree(h.child.pid)); }, 100);
  const { sha, t0 } = await commitPush('many');
  const conclusion = await done(sha, 20);
  const total = performance.now() - t0;
  clearInterval(sampler);
  console.log(`20 queued jobs drained by 2 runners: ${(total / 1000).toFixed(2)} s (${conclusion}); server resident memory ${mb(before)} MB before, peak ${mb(peak)} MB${h.exe.endsWith('hearth') ? '' : ' (tsx: process tree)'}`);
  console.log('targets: push to finished under 2 s with an idle runner');
  for (const c of children) process.kill(-c.pid, 'SIGTERM');
  h.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
} finally {
  for (const c of children) { try { process.kill(-c.pid, 'SIGKILL'); } catch { /* gone */ } }
  fs.rmSync(tmp, { recursive: true, force: true });
}
