import { as, type Creds, type GiteaFixtures } from './gitea-fixtures';

// Builders beyond the kit's core (test/helpers/gitea-fixtures.ts) for the ports of the
// repository, organization, user and admin areas: each built through the API on first use
// and remembered per server, as the kit's own parts are.

const memos = new WeakMap<GiteaFixtures, Map<string, Promise<unknown>>>();

/** Builds `key` once per fixture server. */
export function once<T>(g: GiteaFixtures, key: string, build: () => Promise<T>): Promise<T> {
  let memo = memos.get(g);
  if (!memo) memos.set(g, (memo = new Map()));
  let p = memo.get(key) as Promise<T> | undefined;
  if (!p) memo.set(key, (p = build()));
  return p;
}

export type RepoOpts = { private?: boolean; auto_init?: boolean; template?: boolean; description?: string; default_branch?: string };

/**
 * `owner/name` (owner a fixture user, or an organization whose owner is `by`), initialized on
 * master unless told otherwise; its API JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function repo(g: GiteaFixtures, owner: string, name: string, opts: RepoOpts = {}, by?: string): Promise<any> {
  return once(g, `repo:${owner}/${name}`, async () => {
    const json = { name, auto_init: true, default_branch: 'master', ...opts };
    if (!by) return g.call('user/repos', { method: 'POST', auth: await g.basic(owner), json }, 201);
    return g.call(`orgs/${owner}/repos`, { method: 'POST', auth: await g.basic(by), json }, 201);
  });
}

/** An organization owned by the fixture user `owner`; its API JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function org(g: GiteaFixtures, name: string, owner: string, extra: Record<string, unknown> = {}): Promise<any> {
  return once(g, `org:${name}`, async () => g.call('orgs', { method: 'POST', auth: await g.basic(owner), json: { username: name, ...extra } }, 201));
}

/** A team of `orgName` (made by its owner `by`) with these members; its API JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function team(g: GiteaFixtures, orgName: string, by: string, option: Record<string, unknown>, members: string[] = []): Promise<any> {
  return once(g, `team:${orgName}/${String(option.name)}`, async () => {
    const auth = await g.basic(by);
    const t = await g.call(`orgs/${orgName}/teams`, { method: 'POST', auth, json: option }, 201);
    for (const m of members) {
      await g.user(m);
      await g.call(`teams/${t.id}/members/${m}`, { method: 'PUT', auth }, 204);
    }
    return t;
  });
}

/** org6, owned by user5 (user2 is no member of it). */
export const org6 = (g: GiteaFixtures) => org(g, 'org6', 'user5', { full_name: 'org6', visibility: 'public' });

/**
 * org3 (the kit's) with user28 on a team that may create repositories but reaches none
 * (Gitea's team "teamCreateRepo").
 */
export async function org3Creator(g: GiteaFixtures): Promise<{ user28: Creds; team: number }> {
  await g.org3();
  const user28 = await g.user('user28');
  const t = await team(g, 'org3', 'user2', {
    name: 'teamCreateRepo', permission: 'write', can_create_org_repo: true, includes_all_repositories: false, units: ['repo.code', 'repo.issues'],
  }, ['user28']);
  return { user28, team: t.id as number };
}

/** A collaborator added by the repository's owner (`perm` read, write or admin). */
export async function collaborator(g: GiteaFixtures, owner: string, name: string, who: string, permission = 'write'): Promise<void> {
  await g.user(who);
  await g.call(`repos/${owner}/${name}/collaborators/${who}`, { method: 'PUT', auth: await g.basic(owner), json: { permission } }, 204);
}

export { as };

/**
 * What Gitea's file tests write to: the kit's public repo1, user2's private repo16 and org3's
 * repo3 (user2 owns org3).
 */
export async function fileWorld(g: GiteaFixtures): Promise<void> {
  await g.repo1();
  await g.org3();
  await repo(g, 'user2', 'repo16', { private: true });
}

/** Gitea's createFile: "This is a NEW file" at `path` on master, committed by the owner (org3's by user2). */
export async function createFile(g: GiteaFixtures, full: string, path: string): Promise<string> {
  const by = full.startsWith('org3/') ? 'user2' : full.split('/')[0]!;
  const body = await g.call(`repos/${full}/contents/${path}`, {
    method: 'POST', auth: await g.basic(by), json: { content: Buffer.from('This is a NEW file').toString('base64'), branch: 'master' },
  }, 201);
  return body.commit.sha as string;
}

/** The last commit that touched `path` on `ref` (Gitea's GetCommitByPath). */
export async function lastCommitOf(g: GiteaFixtures, full: string, path: string, ref = 'master'): Promise<string> {
  const list = await g.call(`repos/${full}/commits?sha=${ref}&path=${encodeURIComponent(path)}&limit=1&stat=false`, { auth: await g.basic('user1') });
  return list[0].sha as string;
}

/** The commit a branch points at. */
export async function branchHead(g: GiteaFixtures, full: string, branch: string): Promise<string> {
  return (await g.call(`repos/${full}/branches/${branch}`, { auth: await g.basic('user1') })).commit.id as string;
}

/**
 * Sets `name`'s extra addresses (beside the primary one) to exactly `extra`, through the API:
 * the ones missing are added, the others deleted, so a test reads Gitea's fixture whatever ran
 * before it on the same server.
 */
export async function userEmails(g: GiteaFixtures, name: string, extra: string[]): Promise<void> {
  const auth = await g.basic(name);
  const now = (await g.call('user/emails', { auth })) as { email: string; primary: boolean }[];
  const stale = now.filter((e) => !e.primary && !extra.includes(e.email)).map((e) => e.email);
  const missing = extra.filter((e) => !now.some((n) => n.email === e));
  if (stale.length) await g.call('user/emails', { method: 'DELETE', auth, json: { emails: stale } }, 204);
  if (missing.length) await g.call('user/emails', { method: 'POST', auth, json: { emails: missing } }, 201);
}

/** `name` keeps its e-mail address private (Gitea's keep_email_private, set on user2 in its fixtures). */
export function keepEmailPrivate(g: GiteaFixtures, name: string): Promise<unknown> {
  return once(g, `hide-email:${name}`, async () => g.call('user/settings', { method: 'PATCH', auth: await g.basic(name), json: { hide_email: true } }));
}
