// Archive downloads of the ~40,000-object repository: time of /{owner}/{repo}/archive/main.{zip,
// tar.gz,bundle} against `git archive` / `git bundle create` run by hand on the same repository,
// (on hearth's own copy), and hearth's resident memory while it streams (peak against idle: flat means streamed, not
// buffered). Git's own processes are counted apart: they are the baseline's cost too.
// Usage: node bench/archive.mjs [runs=3]   (dist/hearth when built, else the source via tsx)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateRepo, git, median, rssTree, startHearth, time } from './lib.mjs';

const runs = Number(process.argv[2] ?? 3);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-archive-'));
const mb = (b) => (b / 1024 / 1024).toFixed(1);

/** Downloads `url`, sampling the server's own RSS (its process alone) every 10 ms. */
async function download(url, auth, pid) {
  let peak = 0;
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  const timer = setInterval(() => { peak = Math.max(peak, rss()); }, 10);
  let bytes = 0;
  const ms = await time(async () => {
    const res = await fetch(url, { headers: { Authorization: auth } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    for await (const chunk of res.body) bytes += chunk.length;
  });
  clearInterval(timer);
  return { ms, bytes, peak };
}

try {
  const source = path.join(tmp, 'source.git');
  console.log(`generated ${await generateRepo(source)} objects`);
  const h = await startHearth(path.join(tmp, 'data'));
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  await fetch(`${h.base}api/v1/user/repos`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: '{"name":"big"}' });
  // One commit more with a 32 MB file of random bytes, so the archives are large enough for
  // buffering to show in memory.
  const work = path.join(tmp, 'work');
  await git(tmp, 'clone', '-q', source, work);
  fs.writeFileSync(path.join(work, 'random.bin'), crypto.randomBytes(32 * 1024 * 1024));
  await git(work, 'add', 'random.bin');
  await git(work, 'commit', '-q', '-m', 'random');
  await git(work, 'push', '-q', `http://root:${h.password}@127.0.0.1:${h.port}/root/big.git`, 'main');
  // The baseline runs on hearth's own copy: the same packs on disk.
  const served = path.join(tmp, 'data', 'repositories', 'root', 'big.git');
  const serverPid = h.exe.endsWith('hearth') ? h.child.pid : null;
  if (!serverPid) console.log('(memory figures need dist/hearth: the tsx wrapper is another process)');
  const baseline = {
    zip: () => git(served, 'archive', '--format=zip', '-o', path.join(tmp, 'b.zip'), 'main'),
    'tar.gz': () => git(served, 'archive', '--format=tar.gz', '-o', path.join(tmp, 'b.tgz'), 'main'),
    bundle: () => git(served, 'bundle', 'create', '-q', path.join(tmp, 'b.bundle'), 'main'),
  };
  await new Promise((r) => setTimeout(r, 500));
  const idle = serverPid ? rssTree(serverPid) : 0;
  for (const [format, by] of Object.entries(baseline)) {
    const hs = [], gs = [];
    let last;
    for (let i = 0; i < runs; i++) {
      gs.push(await time(by));
      last = await download(`${h.base}root/big/archive/main.${format}`, auth, serverPid ?? h.child.pid);
      hs.push(last.ms);
    }
    const mem = serverPid ? `, server RSS idle ${mb(idle)} MB, peak ${mb(last.peak)} MB (+${mb(last.peak - idle)})` : '';
    console.log(`${format.padEnd(7)} ${mb(last.bytes)} MB: hearth ${median(hs).toFixed(0)} ms, git by hand ${median(gs).toFixed(0)} ms, ratio ${(median(hs) / median(gs)).toFixed(2)}x${mem}`);
  }
  console.log('targets: memory flat (peak within ~20 MB of idle whatever the archive size)');
  h.child.kill('SIGTERM');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
