import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/routes/api/v1/index';
import { gitTry, remoteUrl, tempDir, workTree } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { createUser, json, startTestServer, type Auth, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

/*
 * The permission matrix of issue 4: for each kind of viewer, organization visibility and
 * repository privacy, what repository get, issue list, code read (git ls-remote, and the
 * contents API when it exists) and push (git push) answer. The expectations come from the
 * rules of the issue, written out in `rules()` below without looking at the implementation,
 * and are spelled out in EXPECTED, which the first test checks against those rules.
 *
 * Rules (issue 4, "one access function"):
 *  R1 owners are public (everyone), limited (signed-in users) or private (members only); a
 *     hidden owner's repositories are invisible (404) to outsiders.
 *  R2 site admins and the Owners team: owner; a team with `admin`: admin on its repositories.
 *  R3 otherwise, per unit, the highest of the team's unit mode (teams listing the repository),
 *     the collaborator mode and the public floor (read on a public repository of an owner the
 *     viewer may see). A collaborator is not an outsider of the repository it was given (as Gitea).
 *  Answers: get 200 with any unit readable, else 404; issue list 200 with the issues (or pull
 *  requests) unit readable, else 404 (Gitea's mustEnableIssuesOrPulls); code read with
 *  repo.code readable; push with repo.code writable, signed in.
 */

type Mode = 0 | 1 | 2 | 3 | 4;
type Viewer = {
  key: string;
  signedIn: boolean;
  inOrg: boolean;
  siteAdmin?: boolean;
  orgOwner?: boolean;
  teamAdmin?: boolean;
  /** Team unit modes on the repository (the team lists it; other units: none). */
  team?: { code: Mode; issues: Mode };
  collab?: Mode;
};

const MODE_NAMES: readonly string[] = ['none', 'read', 'write'];
const teamViewers: Viewer[] = [];
for (const code of [0, 1, 2] as Mode[]) {
  for (const issues of [0, 1, 2] as Mode[]) {
    teamViewers.push({ key: `team-${MODE_NAMES[code]}-${MODE_NAMES[issues]}`, signedIn: true, inOrg: true, team: { code, issues } });
  }
}

const VIEWERS: Viewer[] = [
  { key: 'anonymous', signedIn: false, inOrg: false },
  { key: 'outsider', signedIn: true, inOrg: false },
  { key: 'member', signedIn: true, inOrg: true },
  ...teamViewers,
  { key: 'team-admin', signedIn: true, inOrg: true, teamAdmin: true },
  { key: 'org-owner', signedIn: true, inOrg: true, orgOwner: true },
  { key: 'site-admin', signedIn: true, inOrg: false, siteAdmin: true },
  { key: 'collab-read', signedIn: true, inOrg: false, collab: 1 },
  { key: 'collab-write', signedIn: true, inOrg: false, collab: 2 },
];

const ORGS = ['public', 'limited', 'private'] as const;
type OrgVis = (typeof ORGS)[number];
const REPOS = ['pub', 'priv'] as const;
type RepoKind = (typeof REPOS)[number];

/** The issue's rules, as a function: `GICP` letters for get, issues, code read, push ('-' for no). */
function rules(v: Viewer, vis: OrgVis, repo: RepoKind): string {
  let code: number;
  let issues: number;
  let pulls: number;
  if (v.siteAdmin || v.orgOwner) code = issues = pulls = 4; // R2
  else if (v.teamAdmin) code = issues = pulls = 3; // R2
  else {
    const seesOwner = vis === 'public' || (vis === 'limited' && v.signedIn) || v.inOrg || !!v.siteAdmin; // R1
    const floor = repo === 'pub' && seesOwner ? 1 : 0; // R3
    const collab = v.collab ?? 0;
    code = Math.max(v.team?.code ?? 0, collab, floor);
    issues = Math.max(v.team?.issues ?? 0, collab, floor);
    pulls = Math.max(collab, floor); // the teams here grant repo.pulls nothing
  }
  const get = Math.max(code, issues, pulls) >= 1;
  return [
    get ? 'G' : '-',
    get && (issues >= 1 || pulls >= 1) ? 'I' : '-',
    code >= 1 ? 'C' : '-',
    v.signedIn && code >= 2 ? 'P' : '-',
  ].join('');
}

// Columns: public org (pub, priv), limited org (pub, priv), private org (pub, priv).
const EXPECTED: Record<string, string[]> = {
  'anonymous':             ['GIC-', '----', '----', '----', '----', '----'],
  'outsider':              ['GIC-', '----', 'GIC-', '----', '----', '----'],
  'member':                ['GIC-', '----', 'GIC-', '----', 'GIC-', '----'],
  'team-none-none':        ['GIC-', '----', 'GIC-', '----', 'GIC-', '----'],
  'team-none-read':        ['GIC-', 'GI--', 'GIC-', 'GI--', 'GIC-', 'GI--'],
  'team-none-write':       ['GIC-', 'GI--', 'GIC-', 'GI--', 'GIC-', 'GI--'],
  'team-read-none':        ['GIC-', 'G-C-', 'GIC-', 'G-C-', 'GIC-', 'G-C-'],
  'team-read-read':        ['GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-'],
  'team-read-write':       ['GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-'],
  'team-write-none':       ['GICP', 'G-CP', 'GICP', 'G-CP', 'GICP', 'G-CP'],
  'team-write-read':       ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
  'team-write-write':      ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
  'team-admin':            ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
  'org-owner':             ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
  'site-admin':            ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
  'collab-read':           ['GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-', 'GIC-'],
  'collab-write':          ['GICP', 'GICP', 'GICP', 'GICP', 'GICP', 'GICP'],
};

const column = (vis: OrgVis, repo: RepoKind) => ORGS.indexOf(vis) * 2 + REPOS.indexOf(repo);
const hasRoute = (method: string, path: string) => apiRoutes.some((r) => r.method === method && r.path === path);

let s: TestServer;
const creds = new Map<string, { username: string; password: string }>();
let work: string;
let scratch: string;

const orgName = (vis: OrgVis) => `m-${vis}`;
const userName = (key: string) => key.replace(/^team-/, 't-');

async function call(path: string, init: Parameters<TestServer['request']>[1]): Promise<Response> {
  const res = await s.request(`api/v1/${path}`, init);
  if (res.status >= 300) throw new Error(`${init?.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

async function setUpOrg(vis: OrgVis, boss: { username: string; password: string }): Promise<void> {
  const org = orgName(vis);
  const auth: Auth = { basic: [boss.username, boss.password] };
  await createOrg(s, boss, org, { visibility: vis, email: `${org}@example.com` });
  for (const repo of REPOS) await call(`orgs/${org}/repos`, { method: 'POST', auth, json: { name: repo, private: repo === 'priv' } });
  // `member` sits on a team that lists no repository.
  const idle = await json(await call(`orgs/${org}/teams`, { method: 'POST', auth, json: { name: 'idle', permission: 'read', units: ['repo.code'] } }));
  await call(`teams/${idle.id}/members/member`, { method: 'PUT', auth });
  for (const v of VIEWERS.filter((x) => x.team || x.teamAdmin)) {
    const body = teamBody(v);
    const res = await call(`orgs/${org}/teams`, { method: 'POST', auth, json: body });
    const team = await json(res);
    expectShape(team, 'Team');
    await call(`teams/${team.id}/members/${userName(v.key)}`, { method: 'PUT', auth });
    for (const repo of REPOS) await call(`teams/${team.id}/repos/${org}/${repo}`, { method: 'PUT', auth });
  }
  await call(`teams/${(await ownersTeam(org, auth))}/members/org-owner`, { method: 'PUT', auth });
  for (const repo of REPOS) {
    await call(`repos/${org}/${repo}/collaborators/collab-read`, { method: 'PUT', auth, json: { permission: 'read' } });
    await call(`repos/${org}/${repo}/collaborators/collab-write`, { method: 'PUT', auth, json: { permission: 'write' } });
  }
}

/** Team read and team write through `permission` + `units`, the other mixes through `units_map`. */
function teamBody(v: Viewer): Record<string, unknown> {
  const name = v.key;
  if (v.teamAdmin) return { name, permission: 'admin' };
  const { code, issues } = v.team!;
  if (code === issues && code > 0) return { name, permission: MODE_NAMES[code], units: ['repo.code', 'repo.issues'] };
  return { name, permission: 'read', units_map: { 'repo.code': MODE_NAMES[code], 'repo.issues': MODE_NAMES[issues] } };
}

async function ownersTeam(org: string, auth: Auth): Promise<number> {
  const res = await json(await call(`orgs/${org}/teams/search?q=owners`, { auth }));
  return res.data[0].id;
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  creds.set('site-admin', s.admin);
  const boss = await createUser(s, 'boss');
  for (const v of VIEWERS) {
    if (!v.signedIn || v.siteAdmin) continue;
    creds.set(v.key, await createUser(s, userName(v.key)));
  }
  for (const vis of ORGS) await setUpOrg(vis, boss);
  work = await workTree({ 'README.md': '# matrix\n' });
  scratch = tempDir();
}, 120_000);
afterAll(async () => {
  await s.stop();
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** What the server answers, in the same letters; the issue list only when its route exists. */
async function observe(v: Viewer, vis: OrgVis, repo: RepoKind, expected: string): Promise<string> {
  const c = creds.get(v.key);
  const auth: Auth = c ? { basic: [c.username, c.password] } : undefined;
  const path = `api/v1/repos/${orgName(vis)}/${repo}`;
  const get = (await s.request(path, { auth })).status;
  if (get !== 200 && get !== 404) throw new Error(`GET ${path} as ${v.key}: ${get}`);
  let issues = expected[1];
  if (hasRoute('get', '/repos/{owner}/{repo}/issues')) issues = (await s.request(`${path}/issues`, { auth })).status === 200 ? 'I' : '-';
  const url = remoteUrl(s, orgName(vis), repo, c?.username, c?.password);
  const code = (await gitTry(scratch, 'ls-remote', url)).code === 0 ? 'C' : '-';
  const push = await gitTry(work, 'push', url, `HEAD:refs/heads/from-${v.key}`);
  return [get === 200 ? 'G' : '-', issues, code, push.code === 0 ? 'P' : '-'].join('');
}

describe('permission matrix', () => {
  it('EXPECTED is what the issue\'s rules give', () => {
    for (const v of VIEWERS) {
      const row = ORGS.flatMap((vis) => REPOS.map((repo) => rules(v, vis, repo)));
      expect(EXPECTED[v.key], v.key).toEqual(row);
    }
    expect(Object.keys(EXPECTED).sort()).toEqual(VIEWERS.map((v) => v.key).sort());
  });

  if (!hasRoute('get', '/repos/{owner}/{repo}/issues')) {
    it.skip('issue list: GET /repos/{owner}/{repo}/issues is not implemented yet (issues area); its column is not checked', () => {});
  }

  for (const vis of ORGS) {
    for (const repo of REPOS) {
      it(`${vis} organization, ${repo === 'pub' ? 'public' : 'private'} repository`, async () => {
        const want: Record<string, string> = {};
        const got: Record<string, string> = {};
        for (const v of VIEWERS) {
          want[v.key] = EXPECTED[v.key]![column(vis, repo)]!;
          got[v.key] = await observe(v, vis, repo, want[v.key]!);
        }
        expect(got).toEqual(want);
      }, 120_000);
    }
  }

  // Code read through the API follows the same column as git: a team may grant issues without code.
  const contentsRoute = hasRoute('get', '/repos/{owner}/{repo}/contents');
  it.skipIf(!contentsRoute)('GET /repos/{owner}/{repo}/contents answers as the code column', async () => {
    const want: Record<string, string> = {};
    const got: Record<string, string> = {};
    for (const v of VIEWERS) {
      const c = creds.get(v.key);
      const auth: Auth = c ? { basic: [c.username, c.password] } : undefined;
      for (const vis of ORGS) {
        for (const repo of REPOS) {
          const cell = `${v.key} ${vis}/${repo}`;
          want[cell] = EXPECTED[v.key]![column(vis, repo)]![2]!;
          const status = (await s.request(`api/v1/repos/${orgName(vis)}/${repo}/contents`, { auth })).status;
          got[cell] = status === 200 ? 'C' : '-';
        }
      }
    }
    expect(got).toEqual(want);
  }, 120_000);
});
