import http from 'node:http';
import { as, basicHeader, createToken, ok, startTestServer, type Auth, type TestServer } from './server';

// Gitea's test fixtures (models/fixtures/*.yml in Gitea), built through hearth's API so that a
// test file builds only what it reads, and each test can run alone. Parts are built on first
// use and memoized: `await g.repo1()` twice builds it once. Ids differ from Gitea's (hearth
// numbers its rows as they come): tests read them from what the builders return.

/** A user the tests sign in as. */
export type Creds = { username: string; password: string; id: number };

type Init = Parameters<TestServer['request']>[1];

/** Gitea's fixture users, with the traits the ports read. */
const USERS: Record<string, Record<string, unknown>> = {
  user2: { full_name: ' < U<se>r Tw<o > >< ' },
  user4: { full_name: ' < U<se>r F<o>ur > >< ' },
  user5: { full_name: 'User Five' },
  user8: { full_name: 'User Eight' },
  user10: { full_name: 'User Ten' },
  user12: { full_name: 'User Twelve' },
  user13: { full_name: 'User Thirteen' },
  user15: { full_name: 'User Fifteen' },
  user18: { full_name: 'User Eighteen' },
  user29: { full_name: 'User 29', restricted: true },
  user31: { full_name: 'User 31', visibility: 'private' },
  user34: { full_name: 'the_34-user.with.all.allowedChars' },
  user37: { full_name: 'User 37' },
  user40: { full_name: 'User 40' },
};

/** Traits set after creation, through the admin edit (the create form has no such field). */
const EDITS: Record<string, Record<string, unknown>> = {
  user37: { prohibit_login: true },
  user9: { active: false },
};

export type Repo1 = {
  owner: Creds; name: 'repo1'; id: number;
  labels: { label1: number; label2: number };
  milestones: { milestone1: number; milestone2: number; milestone3: number };
  /** Comment ids on issue #1: "good work!" (user4) and "meh..." (user5). */
  comments: { goodWork: number; meh: number };
  /** The last commits of the pull requests' head branches. */
  heads: { branch1: string; branch2: string };
};

export type Org3 = {
  org: { id: number; username: string }; owner: Creds;
  teams: { owners: number; team1: number };
  labels: { orglabel3: number; orglabel4: number };
  repo3: { id: number }; repo5: { id: number };
};

export type Repo10 = { owner: Creds; forker: Creds; id: number; forkId: number; label: number; milestone: number };

export class GiteaFixtures {
  readonly s: TestServer;
  /** The site administrator (Gitea's user1). */
  readonly user1: Creds;
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(s: TestServer, user1: Creds) {
    this.s = s;
    this.user1 = user1;
  }

  /** A request under /api/v1. */
  api(path: string, init: Init = {}): Promise<Response> {
    return this.s.request(`api/v1/${path.replace(/^\//, '')}`, init);
  }

  /** A request under /api/v1 that must answer `status`; its body, JSON parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async call(path: string, init: Init = {}, status = 200): Promise<any> {
    return ok(await this.api(path, init), status);
  }

  /**
   * A request whose answer may be 205 with a body (Gitea's notification marks): fetch drops
   * such bodies, so this one is read raw. Token auth goes in the Authorization header.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  raw(method: string, path: string, auth: Auth): Promise<{ status: number; body: any }> {
    const url = new URL(`api/v1/${path.replace(/^\//, '')}`, this.s.hearth.config.server.root_url);
    const headers: Record<string, string> = {};
    if (auth && 'basic' in auth) headers.Authorization = basicHeader(...auth.basic);
    else if (auth) headers.Authorization = `token ${auth.token}`;
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => { text += d.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  private once<T>(key: string, build: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = build();
      this.memo.set(key, p);
    }
    return p;
  }

  /** Gitea's fixture user `name` (user2, user4, ...): created on first use; `user1` is the admin. */
  user(name: string): Promise<Creds> {
    if (name === 'user1') return Promise.resolve(this.user1);
    return this.once(`user:${name}`, async () => {
      const password = `pw-${name}-secret`;
      const body = await this.call('admin/users', {
        method: 'POST', auth: as(this.user1),
        json: { username: name, email: `${name}@example.com`, password, must_change_password: false, ...(USERS[name] ?? {}) },
      }, 201);
      if (EDITS[name]) await this.call(`admin/users/${name}`, { method: 'PATCH', auth: as(this.user1), json: { ...EDITS[name], login_name: name, source_id: 0 } });
      return { username: name, password, id: body.id as number };
    });
  }

  /** A new token of `name` with these scopes (Gitea's getUserToken). */
  async token(name: string, ...scopes: string[]): Promise<string> {
    return createToken(this.s, await this.user(name), scopes.length ? scopes : ['all']);
  }

  /** `{ token }` auth of a new token of `name` with these scopes. */
  async tokenAuth(name: string, ...scopes: string[]): Promise<Auth> {
    return { token: await this.token(name, ...scopes) };
  }

  /** Basic auth of the fixture user `name` (null: anonymous). */
  async basic(name: string | null): Promise<Auth> {
    return name ? as(await this.user(name)) : undefined;
  }

  /**
   * user2/repo1, public, default branch master: labels label1 and label2, milestones 1 and 2
   * (open) and 3 (closed), issue #1 (by user1, label1, two comments), pull requests #2
   * (branch1, milestone1) and #3 (branch2, milestone3) by user1, and issue #4 (by user2,
   * closed, label2), as Gitea's fixtures number them; reactions: user2's "eyes" on #1, user2's
   * and user1's "laugh" on "good work!".
   */
  repo1(): Promise<Repo1> {
    return this.once('repo1', () => this.buildRepo1());
  }

  private async buildRepo1(): Promise<Repo1> {
    const [owner, user1, user4, user5] = [await this.user('user2'), this.user1, await this.user('user4'), await this.user('user5')];
    const repo = await this.call('user/repos', { method: 'POST', auth: as(owner), json: { name: 'repo1', auto_init: true, default_branch: 'master', description: '' } }, 201);
    const base = 'repos/user2/repo1';
    const label = async (name: string, color: string) => (await this.call(`${base}/labels`, { method: 'POST', auth: as(owner), json: { name, color } }, 201)).id as number;
    const labels = { label1: await label('label1', '#abcdef'), label2: await label('label2', '#000000') };
    const milestone = async (n: number) => (await this.call(`${base}/milestones`, {
      // Gitea's fixtures give them a year-9999 deadline, which its API shows as none.
      method: 'POST', auth: as(owner), json: { title: `milestone${n}`, description: `content${n}` },
    }, 201)).id as number;
    const milestones = { milestone1: await milestone(1), milestone2: await milestone(2), milestone3: await milestone(3) };
    await this.call(`${base}/milestones/${milestones.milestone3}`, { method: 'PATCH', auth: as(owner), json: { state: 'closed' } });
    await this.call(`${base}/issues`, { method: 'POST', auth: as(user1), json: { title: 'issue1', body: 'content for the first issue', labels: [labels.label1] } }, 201);
    // Gitea's fixture posts "good work!" as org3, which cannot sign in here: user4 posts it.
    const say = async (who: Creds, body: string) => (await this.call(`${base}/issues/1/comments`, { method: 'POST', auth: as(who), json: { body } }, 201)).id as number;
    const comments = { goodWork: await say(user4, 'good work!'), meh: await say(user5, 'meh...') };
    // Gitea's reaction fixtures: user2's "eyes" on issue #1, user2's and user1's "laugh" on "good work!".
    await this.call(`${base}/issues/1/reactions`, { method: 'POST', auth: as(owner), json: { content: 'eyes' } }, 201);
    for (const who of [owner, user1]) await this.call(`${base}/issues/comments/${comments.goodWork}/reactions`, { method: 'POST', auth: as(who), json: { content: 'laugh' } }, 201);
    const heads = await this.pushBranches(owner, 'repo1', { branch1: { 'branch1.txt': 'branch1\n' }, branch2: { 'branch2.txt': 'branch2\n' } });
    const pull = (head: string, title: string, body: string, milestone: number) => this.call(`${base}/pulls`, {
      method: 'POST', auth: as(user1), json: { head, base: 'master', title, body, milestone },
    }, 201);
    await pull('branch1', 'issue2', 'content for the second issue', milestones.milestone1);
    await pull('branch2', 'issue3', 'content for the third issue', milestones.milestone3);
    await this.call(`${base}/issues`, { method: 'POST', auth: as(owner), json: { title: 'issue5', body: 'content for the fifth issue', labels: [labels.label2], closed: true } }, 201);
    return { owner, name: 'repo1', id: repo.id as number, labels, milestones, comments, heads };
  }

  /** Branches off `from`, each with its files committed through the contents API; their last commits. */
  async pushBranches<K extends string>(who: Creds, repo: string, branches: Record<K, Record<string, string>>, ownerName = who.username, from = 'master'): Promise<Record<K, string>> {
    const out = {} as Record<K, string>;
    for (const [name, files] of Object.entries(branches) as [K, Record<string, string>][]) {
      let branch = from;
      for (const [file, text] of Object.entries(files)) {
        const body = await this.call(`repos/${ownerName}/${repo}/contents/${file}`, {
          method: 'POST', auth: as(who),
          json: { content: Buffer.from(text).toString('base64'), message: `add ${file}`, branch, ...(branch === name ? {} : { new_branch: name }) },
        }, 201);
        branch = name;
        out[name] = body.commit.sha as string;
      }
    }
    return out;
  }

  /** user2/repo2, private: issue #1 "issue4" (closed) and #2 "issue7". */
  repo2(): Promise<{ id: number }> {
    return this.once('repo2', async () => {
      const owner = await this.user('user2');
      const repo = await this.call('user/repos', { method: 'POST', auth: as(owner), json: { name: 'repo2', private: true, auto_init: true, default_branch: 'master' } }, 201);
      await this.call('repos/user2/repo2/issues', { method: 'POST', auth: as(owner), json: { title: 'issue4', body: 'content for the fourth issue', closed: true } }, 201);
      await this.call('repos/user2/repo2/issues', { method: 'POST', auth: as(owner), json: { title: 'issue7', body: 'content for the seventh issue' } }, 201);
      return { id: repo.id as number };
    });
  }

  /**
   * org3, owned by user2: labels orglabel3 and orglabel4, team1 (write on every unit, members user2 and user4, repo3 only), the
   * private repositories repo3 (issue #1 "issue6") and repo5 (not linked to team1).
   */
  org3(): Promise<Org3> {
    return this.once('org3', async () => {
      const owner = await this.user('user2');
      const user4 = await this.user('user4');
      const org = await this.call('orgs', { method: 'POST', auth: as(owner), json: { username: 'org3', full_name: 'org3', visibility: 'public' } }, 201);
      const teams = await this.call('orgs/org3/teams', { auth: as(owner) });
      const repo = async (name: string) => (await this.call('orgs/org3/repos', { method: 'POST', auth: as(owner), json: { name, private: true, auto_init: true, default_branch: 'master' } }, 201)).id as number;
      const repo3 = { id: await repo('repo3') };
      const repo5 = { id: await repo('repo5') };
      const team1 = await this.call('orgs/org3/teams', {
        method: 'POST', auth: as(owner),
        json: { name: 'team1', permission: 'write', includes_all_repositories: false, units: ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki'] },
      }, 201);
      for (const who of [owner, user4]) await this.call(`teams/${team1.id}/members/${who.username}`, { method: 'PUT', auth: as(owner) }, 204);
      await this.call(`teams/${team1.id}/repos/org3/repo3`, { method: 'PUT', auth: as(owner) }, 204);
      await this.call('repos/org3/repo3/issues', { method: 'POST', auth: as(this.user1), json: { title: 'issue6', body: 'content6' } }, 201);
      const owners = (teams as { id: number; name: string }[]).find((t) => t.name === 'Owners')!.id;
      const label = async (name: string, color: string) => (await this.call('orgs/org3/labels', { method: 'POST', auth: as(owner), json: { name, color } }, 201)).id as number;
      const labels = { orglabel3: await label('orglabel3', '#abcdef'), orglabel4: await label('orglabel4', '#000000') };
      return { org: { id: org.id as number, username: 'org3' }, owner, teams: { owners, team1: team1.id as number }, labels, repo3, repo5 };
    });
  }

  /**
   * user10/repo10 (branches master, develop and feature/1, a label and a milestone) and its fork
   * user13/repo11, whose master is a commit ahead: Gitea's pair for pull requests across forks.
   */
  repo10(): Promise<Repo10> {
    return this.once('repo10', async () => {
      const [owner, forker] = [await this.user('user10'), await this.user('user13')];
      const repo = await this.call('user/repos', { method: 'POST', auth: as(owner), json: { name: 'repo10', auto_init: true, default_branch: 'master' } }, 201);
      await this.pushBranches(owner, 'repo10', { develop: { 'develop.txt': 'develop\n' }, 'feature/1': { 'feature.txt': 'feature\n' } });
      const label = await this.call('repos/user10/repo10/labels', { method: 'POST', auth: as(owner), json: { name: 'bug', color: '#ee0701' } }, 201);
      const milestone = await this.call('repos/user10/repo10/milestones', { method: 'POST', auth: as(owner), json: { title: 'milestone5' } }, 201);
      const fork = await this.call('repos/user10/repo10/forks', { method: 'POST', auth: as(forker), json: { name: 'repo11' } }, 202);
      await this.call('repos/user13/repo11/contents/fork.txt', {
        method: 'POST', auth: as(forker), json: { content: Buffer.from('fork\n').toString('base64'), message: 'add fork.txt', branch: 'master' },
      }, 201);
      return { owner, forker, id: repo.id as number, forkId: fork.id as number, label: label.id as number, milestone: milestone.id as number };
    });
  }

  /** `blocker` blocks `blocked` (Gitea's user2 blocks user34). */
  block(blocker: string, blocked: string): Promise<void> {
    return this.once(`block:${blocker}:${blocked}`, async () => {
      await this.user(blocked);
      await this.call(`user/blocks/${blocked}`, { method: 'PUT', auth: await this.basic(blocker) }, 204);
    });
  }

  stop(): Promise<void> {
    return this.s.stop();
  }
}

/** A fresh server whose site administrator is user1 (user1@example.com), Gitea's fixture admin. */
export async function startGitea(env: Record<string, string> = {}): Promise<GiteaFixtures> {
  const s = await startTestServer({
    HEARTH__SERVICE__INITIAL_ADMIN_USERNAME: 'user1', HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'user1@example.com', ...env,
  });
  const me = await ok(await s.request('api/v1/user', { auth: as(s.admin) }));
  return new GiteaFixtures(s, { ...s.admin, id: me.id as number });
}

export { as, ok };
