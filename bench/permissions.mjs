// Listing latency under the permission model: 1,000 organizations, 10,000 repositories and 50
// teams in one organization, with a member of most of those teams (and of teams elsewhere, and a
// collaborator here and there). Rows go straight into a migrated database through Kysely (seconds,
// not the hours of API calls); a few repositories are created through the API so some exist on disk.
// Prints the median latency of GET /repos/search and GET /user/repos for that member.
// Usage: node bench/permissions.mjs [runs=30] [--dist]   (the source via tsx unless --dist and built)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const useDist = args.includes('--dist');
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-perm-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const freePort = () => new Promise((r) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => r(port)); }); });

const ORGS = 1000;
const REPOS = 10000;
const BIG_REPOS = 1000; // in the organization with the 50 teams
const TEAMS = 50;
const MEMBER_TEAMS = 45; // of those, the ones the member sits on
const now = Math.floor(Date.now() / 1000);

// Deterministic pseudo-random numbers, so two runs measure the same data.
let seed = 42;
const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const pick = (n) => Math.floor(rand() * n);

async function startHearth(dataDir) {
  const port = await freePort();
  const exe = path.join(root, 'dist', 'hearth');
  const [cmd, argv] = useDist && fs.existsSync(exe) ? [exe, []] : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/main.ts')]];
  const child = spawn(cmd, [...argv, 'web', '--port', String(port), '--data', dataDir], { env: { ...process.env, HEARTH__LOG__LEVEL: 'warn' } });
  let out = '';
  child.stderr.on('data', (b) => { out += b; });
  child.stdout.on('data', (b) => { out += b; });
  for (let i = 0; i < 400 && !/password:\s+\S+/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  const m = /password:\s+(\S+)/.exec(out);
  if (!m) throw new Error(`hearth did not start:\n${out}`);
  return { child, port, password: m[1], base: `http://127.0.0.1:${port}/` };
}

const basic = (u, p) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

async function seedRows(db, bigId, memberId) {
  const users = await db.insertInto('user').values(Array.from({ length: 200 }, (_, i) => ({
    name: `filler${i}`, lower_name: `filler${i}`, email: `filler${i}@example.com`, type: 0, created_unix: now, updated_unix: now,
  }))).returning('id').execute();
  const orgRows = Array.from({ length: ORGS - 1 }, (_, i) => ({
    name: `org${i}`, lower_name: `org${i}`, email: '', type: 1, visibility: i % 10 === 0 ? 2 : i % 10 === 1 ? 1 : 0,
    created_unix: now, updated_unix: now,
  }));
  const orgs = [];
  for (let i = 0; i < orgRows.length; i += 400) {
    orgs.push(...await db.insertInto('user').values(orgRows.slice(i, i + 400)).returning(['id', 'name']).execute());
  }
  // Owners teams with one filler owner each; units at owner.
  const units = ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.pulls', 'repo.releases', 'repo.projects', 'repo.ext_wiki', 'repo.packages', 'repo.actions'];
  for (const o of orgs) {
    const t = await db.insertInto('team').values({
      org_id: o.id, name: 'Owners', lower_name: 'owners', authorize: 4, includes_all_repositories: 1, can_create_org_repo: 1,
      num_members: 1, created_unix: now, updated_unix: now,
    }).returning('id').executeTakeFirstOrThrow();
    const uid = users[pick(users.length)].id;
    await db.insertInto('team_user').values({ org_id: o.id, team_id: t.id, uid }).execute();
    await db.insertInto('org_user').values({ org_id: o.id, uid }).execute();
    await db.insertInto('team_unit').values(units.map((type) => ({ org_id: o.id, team_id: t.id, type, access_mode: 4 }))).execute();
  }
  // Repositories: BIG_REPOS in the big organization, the rest spread over the others.
  const repoRows = [];
  for (let i = 0; i < BIG_REPOS; i++) repoRows.push({ owner: { id: bigId, name: 'big' }, name: `big-repo-${i}` });
  for (let i = 0; repoRows.length < REPOS; i++) repoRows.push({ owner: orgs[i % orgs.length], name: `repo-${i}` });
  const repoIds = [];
  for (let i = 0; i < repoRows.length; i += 500) {
    const chunk = repoRows.slice(i, i + 500).map((r) => ({
      owner_id: r.owner.id, owner_name: r.owner.name, name: r.name, lower_name: r.name.toLowerCase(), default_branch: 'main',
      is_private: rand() < 0.3 ? 1 : 0, description: `bench repository ${r.name}`, created_unix: now - pick(86400 * 365), updated_unix: now,
    }));
    repoIds.push(...(await db.insertInto('repository').values(chunk).returning('id').execute()).map((r) => r.id));
  }
  const bigRepoIds = repoIds.slice(0, BIG_REPOS);
  // The big organization's 50 teams: read or write teams on ~60 repositories each, two covering all.
  const bigOwners = await db.selectFrom('team').select('id').where('org_id', '=', bigId).where('authorize', '=', 4).executeTakeFirstOrThrow();
  await db.insertInto('team_repo').values(bigRepoIds.map((repo_id) => ({ org_id: bigId, team_id: bigOwners.id, repo_id }))).execute();
  for (let t = 0; t < TEAMS; t++) {
    const all = t < 2;
    const mode = t % 3 === 0 ? 2 : 1;
    const team = await db.insertInto('team').values({
      org_id: bigId, name: `team-${t}`, lower_name: `team-${t}`, authorize: mode, includes_all_repositories: all ? 1 : 0,
      visibility: ['public', 'limited', 'private'][t % 3], created_unix: now, updated_unix: now,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('team_unit').values(['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki']
      .map((type, k) => ({ org_id: bigId, team_id: team.id, type, access_mode: k === 1 && mode === 1 ? 0 : mode }))).execute();
    const listed = all ? bigRepoIds : [...new Set(Array.from({ length: 60 }, () => bigRepoIds[pick(bigRepoIds.length)]))];
    await db.insertInto('team_repo').values(listed.map((repo_id) => ({ org_id: bigId, team_id: team.id, repo_id }))).execute();
    const members = [...new Set(Array.from({ length: 10 }, () => users[pick(users.length)].id))];
    if (t < MEMBER_TEAMS) members.push(memberId);
    await db.insertInto('team_user').values(members.map((uid) => ({ org_id: bigId, team_id: team.id, uid }))).execute();
    await db.updateTable('team').set({ num_repos: listed.length, num_members: members.length }).where('id', '=', team.id).execute();
    for (const uid of members) await db.insertInto('org_user').values({ org_id: bigId, uid }).onConflict((oc) => oc.doNothing()).execute();
  }
  // The member also sits on a team of 20 other organizations, and collaborates on 50 repositories.
  for (let i = 0; i < 20; i++) {
    const o = orgs[i * 37];
    const team = await db.insertInto('team').values({
      org_id: o.id, name: 'devs', lower_name: 'devs', authorize: 2, num_members: 1, created_unix: now, updated_unix: now,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('team_user').values({ org_id: o.id, team_id: team.id, uid: memberId }).execute();
    await db.insertInto('org_user').values({ org_id: o.id, uid: memberId }).execute();
    await db.insertInto('team_unit').values({ org_id: o.id, team_id: team.id, type: 'repo.code', access_mode: 2 }).execute();
    const theirs = await db.selectFrom('repository').select('id').where('owner_id', '=', o.id).limit(5).execute();
    if (theirs.length) await db.insertInto('team_repo').values(theirs.map((r) => ({ org_id: o.id, team_id: team.id, repo_id: r.id }))).execute();
  }
  const collab = [...new Set(Array.from({ length: 50 }, () => repoIds[BIG_REPOS + pick(REPOS - BIG_REPOS)]))];
  await db.insertInto('collaboration').values(collab.map((repo_id) => ({ repo_id, user_id: memberId, mode: 1, created_unix: now, updated_unix: now }))).execute();
}

async function latency(base, auth, p) {
  const xs = [];
  let status = 0;
  let count = '';
  for (let i = 0; i < runs + 3; i++) {
    const t = performance.now();
    const res = await fetch(`${base}api/v1/${p}`, { headers: { Authorization: auth } });
    await res.arrayBuffer();
    if (i >= 3) xs.push(performance.now() - t); // the first calls warm caches up
    status = res.status;
    count = res.headers.get('x-total-count') ?? '';
  }
  if (status !== 200) return `status ${status}`;
  return `median ${median(xs).toFixed(1)} ms, p90 ${p90(xs).toFixed(1)} ms (X-Total-Count ${count})`;
}

let h;
try {
  const dataDir = path.join(tmp, 'data');
  h = await startHearth(dataDir);
  const rootAuth = basic('root', h.password);
  const call = async (p, body, auth = rootAuth) => {
    const res = await fetch(`${h.base}api/v1/${p}`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const member = await call('admin/users', { username: 'member', email: 'member@example.com', password: 'bench-password-1', must_change_password: false });
  const big = await call('orgs', { username: 'big', email: 'big@example.com' });
  // A few real repositories (on disk); listings need none.
  for (let i = 0; i < 3; i++) await call('orgs/big/repos', { name: `real-${i}`, private: i === 1, auto_init: true });

  const t0 = performance.now();
  const db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'hearth.db')) }) });
  await db.transaction().execute((trx) => seedRows(trx, big.id, member.id));
  await db.destroy();
  console.log(`seeded ${ORGS} organizations, ${REPOS} repositories, ${TEAMS} teams in "big" (member on ${MEMBER_TEAMS}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const auth = basic('member', 'bench-password-1');
  console.log(`GET /repos/search                  ${await latency(h.base, auth, 'repos/search')}`);
  console.log(`GET /repos/search?q=repo-1&limit=50 ${await latency(h.base, auth, 'repos/search?q=repo-1&limit=50')}`);
  console.log(`GET /user/repos                    ${await latency(h.base, auth, 'user/repos')}`);
  console.log(`GET /user/repos?limit=50           ${await latency(h.base, auth, 'user/repos?limit=50')}`);
  console.log('target: median under 50 ms');
} finally {
  h?.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  fs.rmSync(tmp, { recursive: true, force: true });
}
