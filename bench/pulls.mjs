// Pull requests on the 40,000-object repository: median time of computing mergeability (after
// the base moved) and of merging a 50-commit branch with each style through hearth, printed
// beside the time git itself takes for the same merge in a working copy.
// Usage: node bench/pulls.mjs [runs=3]   (uses dist/hearth when built, else the source via tsx)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateRepo, git, median, startHearth, time } from './lib.mjs';

const runs = Number(process.argv[2] ?? 3);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-pulls-'));

/** The ~40,000-object repository (bench/lib.mjs) as a working copy on main. */
async function generate(dir) {
  const bare = path.join(tmp, 'generated.git');
  await generateRepo(bare);
  await git(tmp, 'clone', '-q', bare, dir);
}

/** A branch of 50 commits under feature-<name>/, off the current main. */
async function makeBranch(work, name) {
  await git(work, 'checkout', '-q', '-B', name, 'main');
  for (let i = 0; i < 50; i++) {
    fs.mkdirSync(path.join(work, `feature-${name}`), { recursive: true });
    fs.writeFileSync(path.join(work, `feature-${name}`, `f${i % 10}.txt`), `${name} ${i}\n`);
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '-m', `${name} ${i}`);
  }
  await git(work, 'checkout', '-q', 'main');
}

/** Moves main on by one commit that touches none of the branch's files. */
async function moveMain(work, label) {
  fs.writeFileSync(path.join(work, 'base.txt'), `${label}\n`);
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '-m', `base ${label}`);
}

/** The same merge done by git in a working copy. */
async function gitMerge(work, style, branch) {
  await git(work, 'checkout', '-q', 'main');
  const head = (await git(work, 'rev-parse', 'HEAD')).stdout.trim();
  const ms = await time(async () => {
    if (style === 'merge') await git(work, 'merge', '-q', '--no-ff', '-m', 'merge', branch);
    else if (style === 'squash') { await git(work, 'merge', '-q', '--squash', branch); await git(work, 'commit', '-q', '-m', 'squash'); }
    else if (style === 'rebase') { await git(work, 'rebase', '-q', 'main', branch); await git(work, 'checkout', '-q', 'main'); await git(work, 'merge', '-q', '--ff-only', branch); }
    else if (style === 'rebase-merge') { await git(work, 'rebase', '-q', 'main', branch); await git(work, 'checkout', '-q', 'main'); await git(work, 'merge', '-q', '--no-ff', '-m', 'merge', branch); }
    else await git(work, 'merge', '-q', '--ff-only', branch);
  });
  await git(work, 'checkout', '-q', 'main');
  await git(work, 'reset', '-q', '--hard', head);
  return ms;
}

try {
  const work = path.join(tmp, 'work');
  await generate(work);
  const h = await startHearth(path.join(tmp, 'data'));
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  const api = async (p, init = {}) => {
    const res = await fetch(`http://127.0.0.1:${h.port}/api/v1/${p}`, { ...init, headers: { Authorization: auth, 'Content-Type': 'application/json' } });
    const body = await res.text();
    return { status: res.status, body: body ? JSON.parse(body) : null };
  };
  await api('user/repos', { method: 'POST', body: JSON.stringify({ name: 'bench' }) });
  const remote = `http://root:${h.password}@127.0.0.1:${h.port}/root/bench.git`;
  await git(work, 'push', '-q', remote, 'main');
  const styles = ['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only'];
  const results = {};
  const mergeability = [];
  for (const style of styles) {
    results[style] = { hearth: [], git: [] };
    for (let i = 0; i < runs; i++) {
      const branch = `${style}-${i}`;
      await git(work, 'fetch', '-q', remote, 'main');
      await git(work, 'reset', '-q', '--hard', 'FETCH_HEAD');
      await makeBranch(work, branch);
      if (style !== 'fast-forward-only') await moveMain(work, branch);
      results[style].git.push(await gitMerge(work, style, branch));
      await git(work, 'push', '-q', remote, 'main', branch);
      const pr = await api('repos/root/bench/pulls', { method: 'POST', body: JSON.stringify({ head: branch, base: 'main', title: branch }) });
      if (pr.status !== 201) throw new Error(`create pull: ${pr.status} ${JSON.stringify(pr.body)}`);
      // Mergeability after the base moved: one more base commit, then a read recomputes it.
      if (style !== 'fast-forward-only') {
        await moveMain(work, `${branch}-again`);
        await git(work, 'push', '-q', remote, 'main');
        mergeability.push(await time(() => api(`repos/root/bench/pulls/${pr.body.number}`)));
      }
      const t = performance.now();
      const merged = await api(`repos/root/bench/pulls/${pr.body.number}/merge`, { method: 'POST', body: JSON.stringify({ Do: style }) });
      results[style].hearth.push(performance.now() - t);
      if (merged.status !== 200) throw new Error(`merge ${style}: ${merged.status} ${JSON.stringify(merged.body)}`);
    }
  }
  // 50 open pull requests: listing them, and a push to their base (which re-tests each).
  await git(work, 'fetch', '-q', remote, 'main');
  await git(work, 'reset', '-q', '--hard', 'FETCH_HEAD');
  const pushMain = async (label) => { await moveMain(work, label); return time(() => git(work, 'push', '-q', remote, 'main')); };
  const pushAlone = [];
  for (let i = 0; i < runs; i++) pushAlone.push(await pushMain(`alone-${i}`));
  for (let i = 0; i < 50; i++) {
    await git(work, 'checkout', '-q', '-B', `open-${i}`, 'main');
    fs.writeFileSync(path.join(work, `open-${i}.txt`), `${i}\n`);
    await git(work, 'add', '-A');
    await git(work, 'commit', '-q', '-m', `open ${i}`);
  }
  await git(work, 'checkout', '-q', 'main');
  await git(work, 'push', '-q', remote, ...Array.from({ length: 50 }, (_, i) => `open-${i}`));
  for (let i = 0; i < 50; i++) {
    const pr = await api('repos/root/bench/pulls', { method: 'POST', body: JSON.stringify({ head: `open-${i}`, base: 'main', title: `open ${i}` }) });
    if (pr.status !== 201) throw new Error(`create pull: ${pr.status}`);
  }
  const listing = [];
  for (let i = 0; i < 5; i++) listing.push(await time(() => api('repos/root/bench/pulls?state=open&limit=50')));
  const pushBusy = [];
  for (let i = 0; i < runs; i++) pushBusy.push(await pushMain(`busy-${i}`));
  const listingAfter = await time(() => api('repos/root/bench/pulls?state=open&limit=50'));

  console.log(`pull requests on a ~40,000-object repository, 50-commit branches, median of ${runs}`);
  console.log(`  mergeability after the base moved (GET pull): ${median(mergeability).toFixed(0)} ms`);
  for (const style of styles) {
    const r = results[style];
    console.log(`  merge ${style.padEnd(17)} hearth ${median(r.hearth).toFixed(0).padStart(4)} ms   git in a working copy ${median(r.git).toFixed(0).padStart(4)} ms`);
  }
  console.log('  target: under 300 ms each');
  console.log(`  list 50 open pull requests: ${median(listing).toFixed(0)} ms (first after their base moved: ${listingAfter.toFixed(0)} ms)`);
  console.log(`  git push to the base: ${median(pushAlone).toFixed(0)} ms with no open pull request, ${median(pushBusy).toFixed(0)} ms with 50`);
  h.child.kill('SIGTERM');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
