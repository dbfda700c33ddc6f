import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// The fixture kit builds what Gitea's fixtures hold, numbered as Gitea numbers it.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('gitea fixtures', () => {
  it('user1 is the site administrator', async () => {
    const me = await g.call('user', { auth: await g.basic('user1') });
    expect(me).toMatchObject({ login: 'user1', is_admin: true, email: 'user1@example.com' });
  });

  it('repo1 holds issue #1, pulls #2 and #3, closed issue #4', async () => {
    const r = await g.repo1();
    const issues = await g.call('repos/user2/repo1/issues?state=all&type=issues');
    expect(issues.map((i: { number: number; title: string; state: string }) => [i.number, i.title, i.state])).toEqual([[4, 'issue5', 'closed'], [1, 'issue1', 'open']]);
    const pulls = await g.call('repos/user2/repo1/pulls?state=all');
    expect(pulls.map((p: { number: number; head: { ref: string } }) => [p.number, p.head.ref]).sort()).toEqual([[2, 'branch1'], [3, 'branch2']]);
    const comments = await g.call('repos/user2/repo1/issues/1/comments');
    expect(comments.map((c: { id: number; body: string; user: { login: string } }) => [c.id, c.body, c.user.login])).toEqual([[r.comments.goodWork, 'good work!', 'user4'], [r.comments.meh, 'meh...', 'user5']]);
    const ms = await g.call('repos/user2/repo1/milestones?state=all');
    expect(ms.map((m: { title: string; state: string }) => [m.title, m.state])).toEqual([['milestone1', 'open'], ['milestone2', 'open'], ['milestone3', 'closed']]);
    expect((await g.repo1()).id).toBe(r.id);
  });

  it('repo2 is private to user2; org3 has team1 and private repo3 and repo5', async () => {
    await g.repo2();
    expect((await g.api('repos/user2/repo2')).status).toBe(404);
    expect((await g.call('repos/user2/repo2/issues?state=all', { auth: await g.basic('user2') })).length).toBe(2);
    const o = await g.org3();
    const members = await g.call(`teams/${o.teams.team1}/members`, { auth: await g.basic('user2') });
    expect(members.map((u: { login: string }) => u.login).sort()).toEqual(['user2', 'user4']);
    expect((await g.api('repos/org3/repo3/issues/1', { auth: await g.basic('user4') })).status).toBe(200);
    expect((await g.api('repos/org3/repo5', { auth: await g.basic('user4') })).status).toBe(404);
  });

  it('restricted, prohibited and blocked users', async () => {
    expect((await g.call('admin/users/user29', { auth: await g.basic('user1') }).catch(() => null))).toBeDefined();
    await g.block('user2', 'user34');
    const blocks = await g.call('user/blocks', { auth: await g.basic('user2') });
    expect(blocks.map((u: { login: string }) => u.login)).toEqual(['user34']);
    await g.user('user37');
    expect((await g.api('user', { auth: await g.basic('user37') })).status).toBe(403);
  });
});
