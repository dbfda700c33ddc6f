import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Repo1 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_test.go over the kit's repo1, repo2 and
// org3. Gitea's counts come from its larger fixture set; these count what the kit builds:
// repo1 #1 (open), #2 and #3 (open pulls), #4 (closed); repo2 #1 (closed), #2 (open); org3/repo3 #1.

let g: GiteaFixtures;
let r: Repo1;
beforeAll(async () => {
  g = await startGitea();
  r = await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Issue = { id: number; number: number; title: string; body: string; state: string; milestone: { id: number } | null; user: { id: number; login: string }; due_date: string | null };
const numbers = (list: Issue[]) => list.map((i) => i.number);

describe('TestAPIListIssues', () => {
  it('TestAPIListIssues', async () => {
    const auth = await g.tokenAuth('user2', 'read:issue');
    const list = (q: string): Promise<Issue[]> => g.call(`repos/user2/repo1/issues?${q}`, { auth });
    const all = await list('state=all');
    expect(numbers(all).filter((n) => n <= 4).sort()).toEqual([1, 2, 3, 4]);

    // Milestones by name or id; names that match nothing are left out.
    const byMilestone = await list(`state=all&type=all&milestones=ignore,milestone1,${r.milestones.milestone3},99999`);
    expect(byMilestone.map((i) => i.milestone?.id)).toEqual([r.milestones.milestone3, r.milestones.milestone1]);

    expect(numbers(await list('state=all&created_by=user2')).filter((n) => n <= 4)).toEqual([4]);

    // Gitea's fixture assigns issue #1 to user1 and mentions user4 in it.
    await g.call('repos/user2/repo1/issues/1', { method: 'PATCH', auth: await g.basic('user2'), json: { assignees: ['user1'] } }, 201);
    await g.call('repos/user2/repo1/issues/1/comments', { method: 'POST', auth: await g.basic('user2'), json: { body: 'cc @user4' } }, 201);
    expect(numbers(await list('state=all&assigned_by=user1'))).toEqual([1]);
    expect(numbers(await list('state=all&mentioned_by=user4'))).toEqual([1]);
  });
});

describe('TestAPICreateIssue', () => {
  it('TestAPICreateIssue', async () => {
    const before = await g.call('repos/user2/repo1');
    const auth = await g.tokenAuth('user2', 'write:issue');
    const made: Issue & { assignee: { login: string } } = await g.call('repos/user2/repo1/issues?state=all', {
      method: 'POST', auth, json: { body: 'apiTestBody', title: 'apiTestTitle', assignee: 'user2' },
    }, 201);
    expect(made).toMatchObject({ body: 'apiTestBody', title: 'apiTestTitle', assignee: { login: 'user2' } });
    const after = await g.call('repos/user2/repo1');
    expect(after.open_issues_count).toBe(before.open_issues_count + 1);
  });
});

describe('TestAPICreateIssue (blocks)', () => {
  it('a user blocked by the repository owner opens no issue there (Gitea\'s NewIssue)', async () => {
    await g.block('user2', 'user34');
    const auth = await g.tokenAuth('user34', 'write:issue');
    const res = await g.api('repos/user2/repo1/issues', { method: 'POST', auth, json: { title: 'blocked' } });
    expect(res.status).toBe(403);
    expect((await res.json() as { message: string }).message).toContain('blocked');
  });
});

describe('TestAPICreateIssueParallel', () => {
  it('TestAPICreateIssueParallel', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    const made: Issue[] = await Promise.all(Array.from({ length: 10 }, (_, i) => g.call('repos/user2/repo1/issues?state=all', {
      method: 'POST', auth, json: { body: `apiTestBody${i}`, title: `apiTestTitle${i}`, assignee: 'user2' },
    }, 201)));
    made.forEach((m, i) => expect([m.title, m.body]).toEqual([`apiTestTitle${i}`, `apiTestBody${i}`]));
    expect(new Set(made.map((m) => m.number)).size).toBe(10);
  });
});

describe('TestAPIEditIssue', () => {
  it('TestAPIEditIssue', async () => {
    // Gitea's issue 10 was posted by a user since deleted, and has a deadline.
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user2'), json: { name: 'repo42' } }, 201);
    const gone = await g.user('user500');
    const made: Issue = await g.call('repos/user2/repo42/issues', {
      method: 'POST', auth: await g.basic('user500'), json: { title: 'issue10', due_date: '2002-04-20T12:00:00Z' },
    }, 201);
    await g.call(`admin/users/${gone.username}`, { method: 'DELETE', auth: await g.basic('user1') }, 204);
    const m = await g.call('repos/user2/repo42/milestones', { method: 'POST', auth: await g.basic('user2'), json: { title: 'milestone4' } }, 201);

    const auth = await g.tokenAuth('user2', 'write:issue');
    const edited: Issue = await g.call(`repos/user2/repo42/issues/${made.number}`, {
      method: 'PATCH', auth, json: { state: 'closed', unset_due_date: true, milestone: m.id, body: 'new content!', title: 'new title from api set' },
    }, 201);
    expect(edited).toMatchObject({ state: 'closed', milestone: { id: m.id }, body: 'new content!', title: 'new title from api set', due_date: null });
    expect(edited.user.id).toBe(-1);
    expect((await g.call('repos/user2/repo42')).open_issues_count).toBe(0);
  });
});

describe('TestAPISearchIssues', () => {
  it('TestAPISearchIssues', async () => {
    await g.repo2();
    const o = await g.org3();
    const auth = await g.tokenAuth('user2', 'read:issue');
    const search = async (q: string) => {
      const res = await g.api(`repos/issues/search?${q}`, { auth });
      expect(res.status).toBe(200);
      return { list: (await res.json()) as Issue[], total: res.headers.get('x-total-count') };
    };
    // What this file made elsewhere lives in repo1 and repo42: counted apart.
    const inFixtures = (l: Issue[]) => l.filter((i) => !/^apiTestTitle|^new title/.test(i.title));
    expect(inFixtures((await search('')).list)).toHaveLength(5);
    expect(inFixtures((await search('since=2000-01-01T00%3A50%3A01%2B00%3A00&before=2999-01-01T00:00:00Z')).list)).toHaveLength(5);
    expect(inFixtures((await search('before=2001-01-01T00:00:00Z')).list)).toHaveLength(0);
    expect(inFixtures((await search('state=closed')).list)).toHaveLength(2);
    const all = await search('state=all');
    expect(Number(all.total)).toBe(all.list.length);
    const limited = await search('state=all&limit=2');
    expect(limited.list).toHaveLength(2);
    expect(limited.total).toBe(all.total);

    expect(numbers((await search('milestones=milestone1&state=all')).list)).toEqual([2]);
    expect(numbers((await search('milestones=milestone1,milestone3&state=all')).list).sort()).toEqual([2, 3]);
    // owner: a user's repositories, an organization's, and one of its teams' (team1 holds repo3).
    expect(inFixtures((await search('owner=org3')).list).map((i) => i.title)).toEqual(['issue6']);
    expect((await search('owner=org3&team=team1')).list.map((i) => i.title)).toEqual(['issue6']);
    expect(o.teams.team1).toBeGreaterThan(0);
    expect(inFixtures((await search('owner=user2')).list).every((i) => i.title !== 'issue6')).toBe(true);
  });

  it('TestAPISearchIssues/assigned', async () => {
    const auth = await g.tokenAuth('user2', 'read:issue');
    const made: Issue = await g.call('repos/user2/repo1/issues', { method: 'POST', auth: await g.basic('user2'), json: { title: 'for me', assignees: ['user2'] } }, 201);
    const list: Issue[] = await g.call('repos/issues/search?assigned=true&state=all', { auth });
    expect(list.map((i) => i.id)).toContain(made.id);
    expect(list.every((i) => (i as unknown as { assignees: { login: string }[] }).assignees.some((a) => a.login === 'user2'))).toBe(true);
  });
});

describe('TestAPISearchIssuesWithLabels', () => {
  it('TestAPISearchIssuesWithLabels', async () => {
    const o = await g.org3();
    // Gitea's fixture labels org3's issue with orglabel4.
    await g.call('repos/org3/repo3/issues/1/labels', { method: 'POST', auth: await g.basic('user2'), json: { labels: [o.labels.orglabel4] } });
    const auth = await g.tokenAuth('user1', 'read:issue');
    const titles = async (q: string) => ((await g.call(`repos/issues/search?${q}`, { auth })) as Issue[]).map((i) => i.title).sort();
    expect(await titles('labels=label1')).toEqual(['issue1']);
    expect(await titles('labels=label1,label2')).toEqual(['issue1']);
    expect(await titles('labels=orglabel4')).toEqual(['issue6']);
    expect(await titles('labels=label2,orglabel4&state=all')).toEqual(['issue5', 'issue6']);
    expect(await titles('labels=label1,orglabel4&state=all')).toEqual(['issue1', 'issue6']);
  });
});

describe('TestAPIListIssuesPublicOnly', () => {
  it('TestAPIListIssuesPublicOnly', async () => {
    await g.repo2();
    expect((await g.api('repos/user2/repo1/issues?state=all', { auth: await g.tokenAuth('user2', 'read:issue') })).status).toBe(200);
    expect((await g.api('repos/user2/repo2/issues?state=all', { auth: await g.tokenAuth('user2', 'read:issue') })).status).toBe(200);
    // A public-only token does not reach the private repo2's issues.
    expect((await g.api('repos/user2/repo2/issues?state=all', { auth: await g.tokenAuth('user2', 'read:issue', 'public-only') })).status).toBe(403);
  });
});

describe('TestAPIListIssuesWithLabels', () => {
  it('TestAPIListIssuesWithLabels', async () => {
    const o = await g.org3();
    const auth = await g.tokenAuth('user1', 'read:issue', 'write:issue');
    // org3's repo3 issue #1 (Gitea's issue 6) takes the organization's label orglabel4.
    await g.call('repos/org3/repo3/issues/1/labels', { method: 'POST', auth, json: { labels: ['orglabel4'] } });
    const found = (await g.call('repos/org3/repo3/issues?state=all&labels=orglabel4', { auth })) as Issue[];
    expect(found.map((i) => i.title)).toEqual(['issue6']);
    expect(o.labels.orglabel4).toBeGreaterThan(0);
  });
});
