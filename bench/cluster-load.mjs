// The mixed load of bench/cluster: `clients` loops, each a user of the seeded instance, drawing
// one operation at a time by weight (mostly API reads, issue and comment creates, an issue closed
// or reopened, a contents-API commit and a git clone/fetch now and then) against one base URL for a number of seconds. Every
// create is recorded (its unique title or body) so the check afterwards can find each one once.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gitEnv } from './lib.mjs';

const run = promisify(execFile);

/** [class, weight]: the classes printed, in this order. */
export const MIX = [
  ['GET repo', 18], ['GET issues', 16], ['GET contents', 16], ['GET user', 14],
  ['POST issue', 12], ['POST comment', 16], ['close/reopen', 3], ['contents commit', 4], ['git clone/fetch', 2],
];
const TOTAL = MIX.reduce((t, [, w]) => t + w, 0);

function draw() {
  let r = Math.random() * TOTAL;
  for (const [name, w] of MIX) if ((r -= w) < 0) return name;
  return MIX[0][0];
}
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];

/** One API call; resolves {status, json} or throws on a connection error. */
async function call(base, token, method, p, body) {
  const res = await fetch(`${base}api/v1/${p}`, {
    method, headers: { Authorization: `token ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON: kept as text for the error line */ }
  return { status: res.status, json, text };
}

/**
 * The operations, each (ctx) => {status, detail?}; ctx = {base, user, world, tag, rec, client, gitDir}.
 * A status of 200-299 is a success; anything else is an error of its class.
 */
const OPS = {
  'GET repo': ({ base, user, world }) => { const r = pick(world.repos); return call(base, user.token, 'GET', `repos/${r.owner}/${r.name}`); },
  'GET issues': ({ base, user, world }) => { const r = pick(world.repos); return call(base, user.token, 'GET', `repos/${r.owner}/${r.name}/issues?state=open&limit=20`); },
  'GET contents': ({ base, user, world }) => { const r = pick(world.repos); return call(base, user.token, 'GET', `repos/${r.owner}/${r.name}/contents/README.md`); },
  'GET user': ({ base, user }) => call(base, user.token, 'GET', 'user'),
  async 'POST issue'({ base, user, world, tag, rec }) {
    const r = pick(world.repos);
    const title = `${tag} issue`;
    const res = await call(base, user.token, 'POST', `repos/${r.owner}/${r.name}/issues`, { title, body: `made by ${user.name} under load` });
    if (res.status === 201) { rec.issues.push({ repo: r, number: res.json.number, title }); r.numbers.push(res.json.number); }
    return res;
  },
  async 'POST comment'({ base, user, world, tag, rec }) {
    const r = pick(world.repos);
    const number = pick(r.numbers);
    const body = `${tag} comment`;
    const res = await call(base, user.token, 'POST', `repos/${r.owner}/${r.name}/issues/${number}/comments`, { body });
    if (res.status === 201) rec.comments.push({ repo: r, number, id: res.json.id, body });
    return res;
  },
  // The repository's closed-issue counter under concurrent closes and reopens (checked afterwards).
  // The owner may close any issue of its repository (others only their own: 403, as Gitea).
  'close/reopen': ({ base, user }) => {
    const r = user.repo;
    return call(base, user.token, 'PATCH', `repos/${r.owner}/${r.name}/issues/${pick(r.numbers)}`, { state: Math.random() < 0.5 ? 'closed' : 'open' });
  },
  async 'contents commit'({ base, user, tag, rec }) {
    // Only the owner writes: each user commits to its own repository's default branch.
    const r = user.repo;
    const file = `load/${tag}.txt`;
    const res = await call(base, user.token, 'POST', `repos/${r.owner}/${r.name}/contents/${file}`, {
      content: Buffer.from(`${tag}\n`).toString('base64'), message: `add ${file}`,
    });
    if (res.status === 201) rec.commits.push({ repo: r, file, sha: res.json.commit.sha });
    return res;
  },
  async 'git clone/fetch'({ base, world, gitDir }) {
    const r = pick(world.repos);
    const dir = path.join(gitDir, `${r.owner}-${r.name}`);
    try {
      if (fs.existsSync(dir)) await run('git', ['-C', dir, 'fetch', '-q', 'origin'], { env: gitEnv });
      else await run('git', ['clone', '-q', `${base}${r.owner}/${r.name}.git`, dir], { env: gitEnv });
      return { status: 200 };
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      return { status: 0, text: String(err.stderr || err.message) };
    }
  },
};

/**
 * `clients` loops for `seconds` against `base`; returns {seconds, classes: {name: {n, ms[]}},
 * errors: [{op, status, text}]}; `rec` collects what was made.
 */
export async function runPhase({ base, world, clients, seconds, phase, rec, gitRoot }) {
  const classes = Object.fromEntries(MIX.map(([name]) => [name, { n: 0, ms: [] }]));
  const errors = [];
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const loop = async (client) => {
    const user = world.users[client % world.users.length];
    const gitDir = path.join(gitRoot, `${phase}-c${client}`);
    fs.mkdirSync(gitDir, { recursive: true });
    for (let seq = 0; performance.now() < end; seq++) {
      const op = draw();
      const tag = `${world.runTag}-${phase}-c${client}-${seq}`;
      const t = performance.now();
      let res;
      try {
        res = await OPS[op]({ base, user, world, tag, rec, client, gitDir });
      } catch (err) {
        res = { status: 0, text: `connection: ${err.cause?.code ?? err.message}` };
      }
      const c = classes[op];
      c.n++;
      c.ms.push(performance.now() - t);
      if (res.status < 200 || res.status > 299) errors.push({ op, status: res.status, text: String(res.text ?? '').slice(0, 300) });
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  return { seconds: (performance.now() - t0) / 1000, classes, errors };
}
