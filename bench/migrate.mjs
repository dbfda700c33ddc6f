// Migrations: (1) POST /repos/migrate with service git of the ~40,000-object repository against
// `git clone --mirror` of the same remote (target: within 1.2x); (2) a service gitea migration of
// 1,000 issues with 5,000 comments from a second hearth and (3) a service github migration of
// the same numbers from a GitHub-shaped fake (bench/fake-github.mjs): time and the importing
// server's peak memory (RSS of it and its git children, sampled every 50 ms), side by side.
// Usage: node bench/migrate.mjs [runs=3] [issues=1000] [comments=5000]
//   (uses dist/hearth when built, else the source via tsx)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeGithub } from './fake-github.mjs';
import { generateRepo, git, median, rssTree, startHearth, time } from './lib.mjs';

const runs = Number(process.argv[2] ?? 3);
const issues = Number(process.argv[3] ?? 1000);
const comments = Number(process.argv[4] ?? 5000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-migrate-'));
const env = { HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true', HEARTH__MIGRATIONS__TIMEOUT: '1h' };

function client(h) {
  const auth = `Basic ${Buffer.from(`root:${h.password}`).toString('base64')}`;
  return async (method, p, body) => {
    const res = await fetch(`${h.base}api/v1/${p}`, { method, headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };
}

/** Runs `fn` while sampling the RSS of `pid` and its children; returns [ms, peak bytes]. */
async function measured(pid, fn) {
  let peak = rssTree(pid);
  const timer = setInterval(() => { peak = Math.max(peak, rssTree(pid)); }, 50);
  try {
    const ms = await time(fn);
    return [ms, peak];
  } finally {
    clearInterval(timer);
  }
}

const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;

try {
  const source = await startHearth(path.join(tmp, 'source'), env);
  const target = await startHearth(path.join(tmp, 'target'), env);
  const src = client(source);
  const dst = client(target);
  const cred = `root:${encodeURIComponent(source.password)}@`;

  // (1) git: the generated repository pushed to the source, then mirrored both ways.
  const bare = path.join(tmp, 'generated.git');
  const objects = await generateRepo(bare);
  await src('POST', 'user/repos', { name: 'big' });
  await git(bare, 'push', '-q', source.base.replace('//', `//${cred}`) + 'root/big.git', 'refs/heads/*:refs/heads/*');
  const cloneAddr = `${source.base}root/big.git`;
  const clones = [];
  const migrations = [];
  for (let i = 0; i < runs; i++) {
    const dir = path.join(tmp, `mirror-${i}.git`);
    clones.push(await time(() => git(tmp, 'clone', '-q', '--mirror', cloneAddr.replace('//', `//${cred}`), dir)));
    migrations.push(await time(() => dst('POST', 'repos/migrate', {
      clone_addr: cloneAddr, auth_username: 'root', auth_password: source.password, repo_name: `big-${i}`, service: 'git',
    })));
  }
  const [c, m] = [median(clones), median(migrations)];
  console.log(`service git, ${objects} objects, median of ${runs}: git clone --mirror ${c.toFixed(0)} ms, POST /repos/migrate ${m.toFixed(0)} ms: ${(m / c).toFixed(2)}x (target 1.2x)`);

  // (2) gitea: issues with comments made through the source's API.
  await src('POST', 'user/repos', { name: 'tracker', auto_init: true });
  const made = await time(async () => {
    for (let i = 0; i < issues; i++) await src('POST', 'repos/root/tracker/issues', { title: `Issue ${i}`, body: `Body of issue ${i}` });
    for (let i = 0; i < comments; i++) await src('POST', `repos/root/tracker/issues/${(i % issues) + 1}/comments`, { body: `Comment ${i}` });
  });
  console.log(`source: ${issues} issues and ${comments} comments made in ${(made / 1000).toFixed(1)} s`);
  const token = (await src('POST', 'users/root/tokens', { name: 'bench', scopes: ['all'] })).sha1;
  const [ms, peak] = await measured(target.child.pid, () => dst('POST', 'repos/migrate', {
    clone_addr: `${source.base}root/tracker`, auth_token: token, repo_name: 'tracker', service: 'gitea',
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true,
  }));
  const copied = await dst('GET', 'repos/root/tracker');
  console.log(`service gitea: ${(ms / 1000).toFixed(1)} s, peak RSS of the importing hearth ${mb(peak)} (at rest ${mb(rssTree(target.child.pid))}); open issues ${copied.open_issues_count}`);

  // (3) github: the same numbers from a GitHub-shaped source.
  const gh = await startFakeGithub(path.join(tmp, 'github'), { issues, comments });
  const [ghMs, ghPeak] = await measured(target.child.pid, () => dst('POST', 'repos/migrate', {
    clone_addr: gh.cloneAddr, auth_token: 'bench-token', repo_name: 'from-github', service: 'github',
    issues: true, labels: true, milestones: true, pull_requests: true, releases: true,
  }));
  const fromGithub = await dst('GET', 'repos/root/from-github');
  console.log(`service github: ${(ghMs / 1000).toFixed(1)} s, peak RSS of the importing hearth ${mb(ghPeak)} (at rest ${mb(rssTree(target.child.pid))}); open issues ${fromGithub.open_issues_count}`);
  console.log(`github / gitea: time ${(ghMs / ms).toFixed(2)}x, peak RSS ${(ghPeak / peak).toFixed(2)}x`);
  await gh.close();
  source.child.kill('SIGTERM');
  target.child.kill('SIGTERM');
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
