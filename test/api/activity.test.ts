import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, git, remoteUrl, workTree } from '../helpers/git';
import { createOrg } from '../helpers/orgs';
import { as, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };
type Activity = {
  id: number; user_id: number; op_type: string; act_user_id: number; ref_name: string; is_private: boolean;
  content: string; repo: { full_name: string; parent?: unknown }; act_user: { login: string };
};

let s: TestServer;
let alice: Creds;
let bob: Creds;
let carol: Creds;
let work: string;

const call = (method: string, p: string, who?: { username: string; password: string }, body?: unknown) =>
  s.request(`api/v1/${p}`, { method, ...(who ? { auth: as(who) } : {}), ...(body === undefined ? {} : { json: body }) });
const feeds = async (p: string, who?: Creds): Promise<Activity[]> => {
  const res = await call('GET', p, who);
  expect(res.status).toBe(200);
  const body = (await json(res)) as Activity[];
  expect(res.headers.get('x-total-count')).not.toBeNull();
  // Gitea sends a repository's absent parent as null, which the reference does not mark nullable.
  expectShape(body.map((a) => ({ ...a, repo: { ...a.repo, parent: undefined, repo_transfer: undefined } })), '[Activity]');
  return body;
};
const ops = (list: Activity[]) => list.map((a) => `${a.op_type} ${a.repo.full_name} ${a.ref_name}`.trim());
const aliceUrl = (repo: string) => remoteUrl(s, 'alice', repo, alice.username, alice.password);
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  await createRepo(s, alice, 'proj');
  // Bob watches before the pushes: watchers receive the rows too.
  expect((await call('PUT', 'repos/alice/proj/subscription', bob)).status).toBe(200);
  work = await workTree({ 'a.txt': 'one\n' });
  await git(work, 'commit', '-q', '--allow-empty', '-m', 'second\n\nwith a body');
  await git(work, 'push', '-q', aliceUrl('proj'), 'main');
});
afterAll(async () => { await s.stop(); });

describe('recording', () => {
  it('records the creation and the push, with Gitea\'s push content', async () => {
    const list = await feeds('users/alice/activities/feeds', alice);
    expect(ops(list)).toEqual(['commit_repo alice/proj refs/heads/main', 'create_repo alice/proj']);
    const [push, create] = list as [Activity, Activity];
    expect(create).toMatchObject({ user_id: alice.id, act_user_id: alice.id, content: '', is_private: false });
    expect(push.act_user.login).toBe('alice');
    const content = JSON.parse(push.content);
    expect(Object.keys(content)).toEqual(['Commits', 'HeadCommit', 'CompareURL', 'Len']);
    expect(content.Len).toBe(2);
    const head = (await git(work, 'rev-parse', 'HEAD')).trim();
    expect(content.HeadCommit).toMatchObject({ Sha1: head, AuthorName: 'Tester', AuthorEmail: 'tester@example.com' });
    expect(content.HeadCommit.Message).toContain('second\n\nwith a body');
    expect(content.Commits.map((c: { Sha1: string }) => c.Sha1)[0]).toBe(head);
    expect(content.Commits).toHaveLength(2);
    // A first push has nothing to compare with.
    expect(content.CompareURL).toBe('');
  });

  it('records updates with a compare link, tags, and deletions', async () => {
    const before = (await git(work, 'rev-parse', 'HEAD')).trim();
    await git(work, 'commit', '-q', '--allow-empty', '-m', 'third');
    const after = (await git(work, 'rev-parse', 'HEAD')).trim();
    await git(work, 'tag', 'v1');
    await git(work, 'push', '-q', aliceUrl('proj'), 'main', 'v1', 'main:feature');
    await git(work, 'push', '-q', aliceUrl('proj'), ':feature', ':v1');
    const list = await feeds('users/alice/activities/feeds?only-performed-by=true', alice);
    expect(ops(list).slice(0, 5).sort()).toEqual([
      'commit_repo alice/proj refs/heads/feature', 'commit_repo alice/proj refs/heads/main',
      'delete_branch alice/proj refs/heads/feature', 'delete_tag alice/proj refs/tags/v1', 'push_tag alice/proj refs/tags/v1',
    ]);
    const update = list.find((a) => a.op_type === 'commit_repo' && a.ref_name === 'refs/heads/main')!;
    const content = JSON.parse(update.content);
    expect(content).toMatchObject({ Len: 1, CompareURL: `alice/proj/compare/${before}...${after}` });
    const tag = JSON.parse(list.find((a) => a.op_type === 'push_tag')!.content);
    expect(tag).toEqual({ Commits: null, HeadCommit: null, CompareURL: '', Len: 0 });
    expect(list.find((a) => a.op_type === 'delete_branch')!.content).toBe('');
    // A new branch whose history reaches the root compares with the default branch, as Gitea.
    const feature = JSON.parse(list.find((a) => a.ref_name === 'refs/heads/feature' && a.op_type === 'commit_repo')!.content);
    expect(feature).toMatchObject({ Len: 3, CompareURL: `alice/proj/compare/main...${after}` });
  });

  it('copies each row to the watchers; only-performed-by keeps the user\'s own actions', async () => {
    const bobs = await feeds('users/bob/activities/feeds', bob);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((a) => a.user_id === bob.id && a.act_user.login === 'alice')).toBe(true);
    expect(bobs.some((a) => a.op_type === 'create_repo')).toBe(false);
    expect(await feeds('users/bob/activities/feeds?only-performed-by=true', bob)).toEqual([]);
    // Carol watches nothing.
    expect(await feeds('users/carol/activities/feeds', carol)).toEqual([]);
  });

  it('paginates and filters by day', async () => {
    const all = await feeds('users/alice/activities/feeds', alice);
    const page = await call('GET', 'users/alice/activities/feeds?limit=2&page=2', alice);
    expect(page.headers.get('x-total-count')).toBe(String(all.length));
    expect((await json(page)).map((a: Activity) => a.id)).toEqual(all.slice(2, 4).map((a) => a.id));
    expect(await feeds(`users/alice/activities/feeds?date=${today()}`, alice)).toHaveLength(all.length);
    expect(await feeds('users/alice/activities/feeds?date=2001-02-03', alice)).toEqual([]);
    expect(await feeds('users/alice/activities/feeds?date=bogus', alice)).toHaveLength(all.length);
  });

  it('GET /repos/{owner}/{repo}/activities/feeds lists the original rows only', async () => {
    const list = await feeds('repos/alice/proj/activities/feeds', carol);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((a) => a.user_id === a.act_user_id && a.repo.full_name === 'alice/proj')).toBe(true);
    expect((await call('GET', 'repos/alice/nothing/activities/feeds')).status).toBe(404);
  });
});

describe('privacy', () => {
  beforeAll(async () => {
    await createRepo(s, alice, 'secret', { private: true });
    const tree = await workTree({ 's.txt': 'hush\n' });
    await git(tree, 'push', '-q', aliceUrl('secret'), 'main');
  });

  it('private repositories\' rows show to the user and admins only', async () => {
    const own = await feeds('users/alice/activities/feeds', alice);
    expect(ops(own).slice(0, 2)).toEqual(['commit_repo alice/secret refs/heads/main', 'create_repo alice/secret']);
    expect(own[0]!.is_private).toBe(true);
    expect(ops(await feeds('users/alice/activities/feeds', s.admin as Creds)).slice(0, 2)).toEqual(ops(own).slice(0, 2));
    for (const who of [undefined, carol]) {
      expect(ops(await feeds('users/alice/activities/feeds', who)).some((o) => o.includes('secret'))).toBe(false);
    }
    // A collaborator reads the repository's own feed.
    expect((await call('GET', 'repos/alice/secret/activities/feeds', carol)).status).toBe(404);
    expect((await call('PUT', 'repos/alice/secret/collaborators/carol', alice, { permission: 'read' })).status).toBe(204);
    expect(ops(await feeds('repos/alice/secret/activities/feeds', carol))).toContain('create_repo alice/secret');
  });

  it('hide_activity hides the feed and the heatmap from others', async () => {
    expect((await call('PATCH', 'user/settings', alice, { hide_activity: true })).status).toBe(200);
    expect(await feeds('users/alice/activities/feeds')).toEqual([]);
    expect(await feeds('users/alice/activities/feeds', carol)).toEqual([]);
    expect(await json(await call('GET', 'users/alice/heatmap', carol))).toEqual([]);
    expect((await feeds('users/alice/activities/feeds', alice)).length).toBeGreaterThan(0);
    expect((await json(await call('GET', 'users/alice/heatmap', alice))).length).toBeGreaterThan(0);
    expect((await call('PATCH', 'user/settings', alice, { hide_activity: false })).status).toBe(200);
  });
});

describe('heatmap', () => {
  it('GET /users/{username}/heatmap counts the user\'s own actions per 15 minutes', async () => {
    const res = await call('GET', 'users/alice/heatmap');
    expect(res.status).toBe(200);
    const body = (await json(res)) as { timestamp: number; contributions: number }[];
    expectShape(body, '[UserHeatmapData]');
    expect(body.every((d) => d.timestamp % 900 === 0)).toBe(true);
    // Anonymous callers count the public repository's rows only.
    const publicRows = (await feeds('users/alice/activities/feeds?only-performed-by=true&limit=50')).length;
    expect(body.reduce((n, d) => n + d.contributions, 0)).toBe(publicRows);
    const own = (await json(await call('GET', 'users/alice/heatmap', alice))) as typeof body;
    expect(own.reduce((n, d) => n + d.contributions, 0)).toBe(publicRows + 2);
    expect(await json(await call('GET', 'users/carol/heatmap'))).toEqual([]);
    expect((await call('GET', 'users/nobody/heatmap')).status).toBe(404);
  });
});

describe('organizations', () => {
  it('an organization repository\'s rows reach the organization\'s feed', async () => {
    await createOrg(s, alice, 'crew', { email: 'crew@example.com' });
    const res = await call('POST', 'orgs/crew/repos', alice, { name: 'tools' });
    expect(res.status).toBe(201);
    const list = await feeds('orgs/crew/activities/feeds');
    expect(ops(list)).toEqual(['create_repo crew/tools']);
    expect(list[0]!.act_user.login).toBe('alice');
    expect(ops(await feeds('users/alice/activities/feeds', alice))[0]).toBe('create_repo crew/tools');
    expect((await call('GET', 'orgs/nobody/activities/feeds')).status).toBe(404);
  });
});
