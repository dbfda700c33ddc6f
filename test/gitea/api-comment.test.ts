import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Repo1 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_comment_test.go over the fixture kit's repo1:
// issue #1 carries the two plain comments ("good work!", "meh...") Gitea's fixtures number 2
// and 3. Form bodies as Gitea's tests send them (NewRequestWithValues).

let g: GiteaFixtures;
let r: Repo1;
beforeAll(async () => {
  g = await startGitea();
  r = await g.repo1();
});
afterAll(async () => { await g.stop(); });

const form = (fields: Record<string, string>) => ({
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(),
});
const ids = (list: { id: number }[]) => list.map((c) => c.id);

describe('TestAPIListRepoComments', () => {
  it('TestAPIListRepoComments', async () => {
    const res = await g.api('repos/user2/repo1/issues/comments');
    expect(res.status).toBe(200);
    expect(ids(await res.json() as { id: number }[])).toEqual([r.comments.goodWork, r.comments.meh]);
    expect(res.headers.get('x-total-count')).toBe('2');

    const paged = await g.api('repos/user2/repo1/issues/comments?page=1&limit=1&sort=created&order=desc');
    expect(paged.status).toBe(200);
    const body = await paged.json();
    expect(body).toHaveLength(1);
    expect(paged.headers.get('x-total-count')).toBe('2');
    expect(paged.headers.get('link')).toContain('rel="next"');

    // before/since: the fixture's times are set by Gitea's yml; here both comments are "now".
    expect(await g.call('repos/user2/repo1/issues/comments?before=2000-01-01T00:00:11%2B00:00')).toEqual([]);
    expect(ids(await g.call('repos/user2/repo1/issues/comments?since=2000-01-01T00:00:12%2B00:00'))).toEqual([r.comments.goodWork, r.comments.meh]);
  });
});

describe('TestAPIListIssueComments', () => {
  it('TestAPIListIssueComments', async () => {
    const auth = await g.tokenAuth('user2', 'read:issue');
    const res = await g.api('repos/user2/repo1/issues/1/comments', { auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(2);
    expect(res.headers.get('x-total-count')).toBe('2');
    // Gitea 1.25's issueGetComments takes no page or limit (its swagger lists since and before only).
  });
});

describe('TestAPICreateComment', () => {
  it('TestAPICreateComment', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    const made = await g.call('repos/user2/repo1/issues/1/comments', { method: 'POST', auth, ...form({ body: 'Comment body' }) }, 201);
    expect(made.body).toBe('Comment body');
    expect((await g.call(`repos/user2/repo1/issues/comments/${made.id}`)).body).toBe('Comment body');
  });

  it('TestAPICreateComment/BlockedByRepoOwner', async () => {
    await g.block('user2', 'user34');
    // Gitea's test sends a write:repository token, which the issue routes refuse by scope alone;
    // with write:issue the refusal is the block's.
    const auth = await g.tokenAuth('user34', 'write:issue');
    const res = await g.api('repos/user2/repo1/issues/1/comments', { method: 'POST', auth, ...form({ body: 'Comment body' }) });
    expect(res.status).toBe(403);
    expect((await res.json() as { message: string }).message).toContain('blocked');
  });

  it('TestAPICreateComment/BlockedByIssuePoster', async () => {
    // Gitea's issue 13 is user2's, in a repository of another owner (user30's repo50 there).
    const owner = await g.user('user30');
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user30'), json: { name: 'repo50' } }, 201);
    await g.call('repos/user30/repo50/issues', { method: 'POST', auth: await g.basic('user2'), json: { title: 'issue in active repo' } }, 201);
    expect(owner.username).toBe('user30');
    await g.block('user2', 'user34');
    const auth = await g.tokenAuth('user34', 'write:issue');
    const res = await g.api('repos/user30/repo50/issues/1/comments', { method: 'POST', auth, ...form({ body: 'Comment body' }) });
    expect(res.status).toBe(403);
    expect((await res.json() as { message: string }).message).toContain('blocked');
  });
});

describe('TestAPIGetComment', () => {
  it('TestAPIGetComment', async () => {
    const anon = await g.call(`repos/user2/repo1/issues/comments/${r.comments.goodWork}`);
    const auth = await g.tokenAuth('user2', 'read:issue');
    const got = await g.call(`repos/user2/repo1/issues/comments/${r.comments.goodWork}`, { auth });
    expect({ id: got.id, body: got.body, created_at: got.created_at, full_name: got.user.full_name })
      .toEqual({ id: anon.id, body: anon.body, created_at: anon.created_at, full_name: anon.user.full_name });
    expect(got).toMatchObject({ id: r.comments.goodWork, body: 'good work!', user: { login: 'user4', full_name: ' < U<se>r F<o>ur > >< ' } });
    expect(Date.parse(got.created_at)).toBeGreaterThan(0);
  });
});

describe('TestAPIEditComment', () => {
  it('TestAPIEditComment/UnrelatedCommentID', async () => {
    // A comment of repo1 through another repository (Gitea's repo4, user5's).
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user5'), json: { name: 'repo4' } }, 201).catch(() => undefined);
    const auth = await g.tokenAuth('user5', 'write:issue');
    const res = await g.api(`repos/user5/repo4/issues/comments/${r.comments.meh}`, { method: 'PATCH', auth, ...form({ body: 'This is the new comment body' }) });
    expect(res.status).toBe(404);
  });

  it('TestAPIEditComment', async () => {
    const made = await g.call('repos/user2/repo1/issues/1/comments', { method: 'POST', auth: await g.basic('user2'), json: { body: 'to edit' } }, 201);
    const auth = await g.tokenAuth('user2', 'write:issue');
    const edited = await g.call(`repos/user2/repo1/issues/comments/${made.id}`, { method: 'PATCH', auth, ...form({ body: 'This is the new comment body' }) });
    expect(edited).toMatchObject({ id: made.id, body: 'This is the new comment body' });
    expect((await g.call(`repos/user2/repo1/issues/comments/${made.id}`)).body).toBe('This is the new comment body');
  });
});

describe('TestAPIDeleteComment', () => {
  it('TestAPIDeleteComment/UnrelatedCommentID', async () => {
    await g.call('user/repos', { method: 'POST', auth: await g.basic('user5'), json: { name: 'repo4' } }, 201).catch(() => undefined);
    const auth = await g.tokenAuth('user5', 'write:issue');
    expect((await g.api(`repos/user5/repo4/issues/comments/${r.comments.meh}`, { method: 'DELETE', auth })).status).toBe(404);
  });

  it('TestAPIDeleteComment', async () => {
    const made = await g.call('repos/user2/repo1/issues/1/comments', { method: 'POST', auth: await g.basic('user2'), json: { body: 'to delete' } }, 201);
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`repos/user2/repo1/issues/comments/${made.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(`repos/user2/repo1/issues/comments/${made.id}`)).status).toBe(404);
  });
});

describe('TestAPIListIssueTimeline', () => {
  it('TestAPIListIssueTimeline', async () => {
    const timeline = await g.call('repos/user2/repo1/issues/1/timeline');
    // Every comment row of the issue, events included: the two comments, and what this file added.
    const comments = await g.call('repos/user2/repo1/issues/1/comments');
    expect(timeline.length).toBeGreaterThanOrEqual(comments.length);
    expect(timeline.filter((c: { type: string }) => c.type === 'comment').length).toBe(comments.length);
  });
});
