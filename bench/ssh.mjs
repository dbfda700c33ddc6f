// Git over SSH, side by side in one run: hearth's built-in SSH server against OpenSSH's sshd +
// git on the same repositories, against hearth's own smart HTTP, and `hearth keys` + `hearth serv`
// under sshd. Wall times are medians; server CPU is the serving process's (with its reaped
// children: git, sshd's per-connection processes) per operation, from /proc.
// Needs root and /usr/sbin/sshd for the sshd columns (skipped otherwise) and dist/hearth.
// Usage: node bench/ssh.mjs [runs=5]
import { execFile, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, generateRepo, git, gitEnv, median, root, startHearth, time } from './lib.mjs';

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 5);
const exe = path.join(root, 'dist', 'hearth');
if (!fs.existsSync(exe)) { console.error('dist/hearth not found: npm run build first'); process.exit(1); }
const withSshd = process.getuid?.() === 0 && fs.existsSync('/usr/sbin/sshd');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-ssh-'));
// sshd runs helper programs only from directories no one else may write (not /tmp).
fs.mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const safe = fs.mkdtempSync(path.join(root, 'node_modules/.cache', 'hearth-bench-ssh-'));
fs.chmodSync(safe, 0o755);
const children = [];

const key = path.join(tmp, 'id_ed25519');
execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
const sshCommand = (port, extra = '') => `ssh -F /dev/null -p ${port} -i ${key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no `
  + `-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes ${extra}`;
/** git against a target: { url, port?, sshExtra? } (port: over SSH). */
const gitTo = (target, cwd, ...args) => run('git', args, {
  cwd, maxBuffer: 1 << 28, env: { ...gitEnv, ...(target.port ? { GIT_SSH_COMMAND: sshCommand(target.port, target.sshExtra) } : {}) },
});

/** CPU seconds of a process and its reaped children (utime, stime, cutime, cstime). */
function cpuOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A bare repository of one commit holding `mb` MB of random (incompressible) files. */
async function randomRepo(dir, mb) {
  await git(tmp, 'init', '-q', '--bare', '-b', 'main', dir);
  let script = 'commit refs/heads/main\ncommitter b <b@e.com> 1700000000 +0000\ndata 3\nbig\n';
  const chunks = [];
  for (let i = 0; i < mb / 4; i++) {
    const blob = crypto.randomBytes(4 << 20);
    chunks.push(Buffer.from(`M 100644 inline blob-${i}.bin\ndata ${blob.length}\n`), blob, Buffer.from('\n'));
  }
  await new Promise((resolve, reject) => {
    const p = spawn('git', ['fast-import', '--quiet'], { env: { ...gitEnv, GIT_DIR: dir } });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    p.stdin.end(Buffer.concat([Buffer.from(script), ...chunks]));
  });
}

/** A copy of `source` with `n` more small commits on main. */
async function withCommits(source, dir, n) {
  await git(tmp, 'clone', '-q', '--bare', source, dir);
  let script = '';
  for (let c = 0; c < n; c++) {
    script += `commit refs/heads/main\ncommitter b <b@e.com> ${1800000000 + c} +0000\ndata <<EOF\nmore ${c}\nEOF\n`;
    if (c === 0) script += 'from refs/heads/main^0\n';
    const body = `extra ${c}\n${'y'.repeat(300)}\n`;
    script += `M 100644 inline extra/f${c % 50}.txt\ndata ${Buffer.byteLength(body)}\n${body}`;
  }
  await new Promise((resolve, reject) => {
    const p = spawn('git', ['fast-import', '--quiet'], { env: { ...gitEnv, GIT_DIR: dir } });
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import ${code}`))));
    p.stdin.end(script);
  });
}

/** OpenSSH's sshd on a free port: plain (the key in a file) or with hearth keys/serv. */
async function startSshd(name, lines) {
  const dir = fs.mkdtempSync(path.join(tmp, `${name}-`));
  const hostKey = path.join(dir, 'host');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const port = await freePort();
  const conf = path.join(dir, 'sshd_config');
  fs.writeFileSync(conf, [`Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${hostKey}`, 'PidFile none', 'UsePAM no', 'StrictModes no',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'AcceptEnv GIT_PROTOCOL', 'LogLevel ERROR', ...lines, ''].join('\n'));
  fs.mkdirSync('/run/sshd', { recursive: true });
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', conf], { stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => setTimeout(r, 300));
  return { port, pid: child.pid };
}

const user = os.userInfo().username;
const results = [];
const show = (what, a, b, target) => {
  const line = `${what}: ${a.label} ${a.value.toFixed(a.digits ?? 0)} ${a.unit ?? 'ms'}, ${b.label} ${b.value.toFixed(b.digits ?? 0)} ${b.unit ?? 'ms'}, `
    + `ratio ${(a.value / b.value).toFixed(2)}x (target <= ${target}x)`;
  results.push(line);
  console.log(line);
};

try {
  const source = path.join(tmp, 'source.git');
  const objects = await generateRepo(source);
  const big = path.join(tmp, 'big.git');
  await randomRepo(big, 64);
  const more = path.join(tmp, 'more.git');
  await withCommits(source, more, 500);
  console.log(`generated: ${objects} objects; a 64 MB repository of random files; 500 commits on top`);

  const sshPort = await freePort();
  const h = await startHearth(path.join(tmp, 'hearth'), {
    HEARTH__SERVER__START_SSH_SERVER: 'true', HEARTH__SERVER__SSH_LISTEN_PORT: String(sshPort), HEARTH__SERVER__SSH_MAX_SESSIONS_PER_ADDRESS: '64',
  });
  children.push(h.child);
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const api = (p, init = {}) => fetch(`${h.base}api/v1/${p}`, { ...init, headers: { Authorization: auth, 'Content-Type': 'application/json', ...init.headers } });
  await api('user/keys', { method: 'POST', body: JSON.stringify({ title: 'bench', key: fs.readFileSync(`${key}.pub`, 'utf8') }) });
  const httpBase = `http://root:${h.password}@127.0.0.1:${h.port}/root`;
  const newRepo = async (name, from) => {
    await api('user/repos', { method: 'POST', body: JSON.stringify({ name }) });
    await git(from, 'push', '-q', `${httpBase}/${name}.git`, 'main');
  };
  await newRepo('bench', source);
  await newRepo('big', big);

  const targets = {
    ssh: { label: 'hearth ssh', port: sshPort, url: (r) => `ssh://git@127.0.0.1:${sshPort}/root/${r}.git`, pid: h.child.pid },
    http: { label: 'hearth http', url: (r) => `${httpBase}/${r}.git`, pid: h.child.pid },
  };
  if (withSshd) {
    const plainRoot = path.join(tmp, 'plain');
    fs.mkdirSync(plainRoot);
    for (const [name, from] of [['bench', source], ['big', big]]) {
      await git(tmp, 'init', '-q', '--bare', '-b', 'main', path.join(plainRoot, `${name}.git`));
      await git(from, 'push', '-q', path.join(plainRoot, `${name}.git`), 'main');
    }
    fs.writeFileSync(path.join(tmp, 'authorized_keys'), fs.readFileSync(`${key}.pub`));
    const plain = await startSshd('plain', [`AuthorizedKeysFile ${path.join(tmp, 'authorized_keys')}`]);
    targets.sshd = { label: 'sshd+git', port: plain.port, url: (r) => `ssh://${user}@127.0.0.1:${plain.port}${plainRoot}/${r}.git`, pid: plain.pid, root: plainRoot };
    const config = path.join(tmp, 'hearth.toml');
    fs.writeFileSync(config, `[server]\nhttp_addr = "127.0.0.1"\nhttp_port = ${h.port}\ndata_dir = "${path.join(tmp, 'hearth')}"\n`
      + `ssh_authorized_keys_command_template = "${exe} --config={config} serv key-{key_id}"\n`);
    const viaServ = await startSshd('serv', ['AuthorizedKeysFile none', `AuthorizedKeysCommand ${exe} --config=${config} keys -e ${user} -u %u -t %t -k %k`,
      `AuthorizedKeysCommandUser ${user}`]);
    targets.serv = { label: 'sshd+hearth serv', port: viaServ.port, url: (r) => `ssh://${user}@127.0.0.1:${viaServ.port}/root/${r}.git`, pid: viaServ.pid };
  }

  const lsRemote = async (t, n) => {
    const cpu0 = cpuOf(t.pid);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(await time(() => gitTo(t, tmp, 'ls-remote', t.url('bench'))));
    return { ms: median(xs), cpu: ((cpuOf(t.pid) - cpu0) / n) * 1000 };
  };
  const clone = async (t, repo) => {
    const d = fs.mkdtempSync(path.join(tmp, 'c-'));
    const ms = await time(() => gitTo(t, tmp, 'clone', '-q', '--bare', t.url(repo), d));
    fs.rmSync(d, { recursive: true, force: true });
    return ms;
  };
  const clones = async (t, repo, n) => {
    const cpu0 = cpuOf(t.pid);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(await clone(t, repo));
    return { ms: median(xs), cpu: ((cpuOf(t.pid) - cpu0) / n) * 1000 };
  };
  const parallel = async (t, repo, n) => time(() => Promise.all(Array.from({ length: n }, () => clone(t, repo))));
  let pushN = 0;
  const push = async (t) => {
    const name = `push-${pushN++}`;
    if (t.root) {
      await git(tmp, 'init', '-q', '--bare', '-b', 'main', path.join(t.root, `${name}.git`));
      await git(source, 'push', '-q', path.join(t.root, `${name}.git`), 'main');
    } else await newRepo(name, source);
    return time(() => gitTo(t, more, 'push', '-q', t.url(name), 'main'));
  };

  // HTTP first: hearth's memory after it is the baseline of the SSH figures.
  const lsN = Math.max(runs * 3, 15);
  const m = {};
  for (const id of ['http', 'ssh', ...(withSshd ? ['sshd', 'serv'] : [])]) {
    const t = targets[id];
    await lsRemote(t, 2); // warm: host keys, caches, the first connection
    m[id] = { ls: await lsRemote(t, lsN) };
    if (id === 'serv') continue;
    m[id].clone = await clones(t, 'bench', runs);
    const pushes = [];
    for (let i = 0; i < runs; i++) pushes.push(await push(t));
    m[id].push = median(pushes);
    m[id].par = median([await parallel(t, 'bench', 8), await parallel(t, 'bench', 8), await parallel(t, 'bench', 8)]);
    m[id].big = await clones(t, 'big', 3);
    if (id === 'http') m.rssAfterHttp = rssMb(h.child.pid);
    if (id === 'ssh') m.rssAfterSsh = rssMb(h.child.pid);
  }
  const gcm = await clones({ ...targets.ssh, sshExtra: '-c aes128-gcm@openssh.com' }, 'big', 3);
  const ctr = await clones({ ...targets.ssh, sshExtra: '-c aes128-ctr' }, 'big', 3);

  // Light API calls while two clients each run four 64 MB clones over SSH.
  const light = async (until) => {
    const xs = [];
    while (!until.done) {
      const t0 = performance.now();
      await (await fetch(`${h.base}api/v1/version`)).arrayBuffer();
      xs.push(performance.now() - t0);
    }
    return xs.sort((a, b) => a - b);
  };
  const idle = { done: false };
  const quiet = light(idle);
  await new Promise((r) => setTimeout(r, 2000));
  idle.done = true;
  const quietXs = await quiet;
  const busy = { done: false };
  const loaded = light(busy);
  await Promise.all([parallel(targets.ssh, 'big', 4), parallel(targets.ssh, 'big', 4)]);
  busy.done = true;
  const loadedXs = await loaded;
  const p99 = (xs) => xs[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

  const v = (label, value, unit, digits) => ({ label, value, unit, digits });
  console.log(`\nhearth ${exe}; runs ${runs}; ls-remote x${lsN}; cipher chosen by the client from hearth's offer`);
  if (withSshd) {
    show('ls-remote                 ', v('hearth ssh', m.ssh.ls.ms), v('sshd+git', m.sshd.ls.ms), 0.2);
    show('clone --bare 40k objects  ', v('hearth ssh', m.ssh.clone.ms), v('sshd+git', m.sshd.clone.ms), 0.6);
    show('push 500 commits          ', v('hearth ssh', m.ssh.push), v('sshd+git', m.sshd.push), 0.7);
    show('8 parallel clones         ', v('hearth ssh', m.ssh.par), v('sshd+git', m.sshd.par), 0.7);
    show('64 MB clone               ', v('hearth ssh', m.ssh.big.ms), v('sshd+git', m.sshd.big.ms), 1.0);
    show('server CPU per ls-remote  ', v('hearth ssh', m.ssh.ls.cpu, 'ms CPU'), v('sshd+git', m.sshd.ls.cpu, 'ms CPU'), 0.15);
    show('server CPU per 64 MB clone', v('hearth ssh', m.ssh.big.cpu, 'ms CPU'), v('sshd+git', m.sshd.big.cpu, 'ms CPU'), 1.6);
    show('ls-remote via keys+serv   ', v('sshd+hearth serv', m.serv.ls.ms), v('sshd+git', m.sshd.ls.ms), 1.3);
  }
  show('ls-remote                 ', v('hearth ssh', m.ssh.ls.ms), v('hearth http', m.http.ls.ms), 1.1);
  show('clone --bare 40k objects  ', v('hearth ssh', m.ssh.clone.ms), v('hearth http', m.http.clone.ms), 1.15);
  show('push 500 commits          ', v('hearth ssh', m.ssh.push), v('hearth http', m.http.push), 1.05);
  show('8 parallel clones         ', v('hearth ssh', m.ssh.par), v('hearth http', m.http.par), 1.15);
  show('64 MB clone               ', v('hearth ssh', m.ssh.big.ms), v('hearth http', m.http.big.ms), 1.6);
  console.log(`64 MB clone by cipher (hearth ssh): aes128-gcm ${gcm.ms.toFixed(0)} ms, ${gcm.cpu.toFixed(0)} ms CPU; aes128-ctr ${ctr.ms.toFixed(0)} ms, ${ctr.cpu.toFixed(0)} ms CPU`);
  console.log(`light API call p99: ${p99(loadedXs).toFixed(1)} ms during 2x4 64 MB SSH clones (${loadedXs.length} calls; target <= 15 ms), `
    + `${p99(quietXs).toFixed(1)} ms idle`);
  console.log(`hearth RSS: ${m.rssAfterHttp.toFixed(1)} MB after the HTTP figures, ${m.rssAfterSsh.toFixed(1)} MB after SSH `
    + `(+${(m.rssAfterSsh - m.rssAfterHttp).toFixed(1)} MB; target <= 32 MB)`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(safe, { recursive: true, force: true });
}
