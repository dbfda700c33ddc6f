import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures, type Org3 } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_pull_review_test.go. Gitea reviews its issue 3
// (a pull of repo1 changing README.md) and issue 12 (a pull of org3/repo3); here repo1's
// pull #2 (adding branch1.txt) and #3, and a pull of org3/repo3 the file opens.

let g: GiteaFixtures;
let o: Org3;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
  o = await g.org3();
  await g.pushBranches(await g.user('user2'), 'repo3', { feature: { 'feature.txt': 'feature\n' } }, 'org3');
  await g.call('repos/org3/repo3/pulls', { method: 'POST', auth: await g.basic('user2'), json: { head: 'feature', base: 'master', title: 'pull of repo3' } }, 201);
});
afterAll(async () => { await g.stop(); });

type Review = { id: number; state: string; body: string; dismissed: boolean; stale: boolean; official: boolean; comments_count: number; pull_request_url: string; user: { login: string } | null; team: { name: string } | null };
const reviewsOf = (repo: string, n: number, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>): Promise<Review[]> => g.call(`repos/${repo}/pulls/${n}/reviews`, { auth });

describe('TestAPIPullReview', () => {
  it('TestAPIPullReview', async () => {
    const auth = await g.tokenAuth('user2', 'write:repository');
    const base = 'repos/user2/repo1/pulls/2/reviews';
    const pull = await g.call('repos/user2/repo1/pulls/2');

    // A pending review (no event) with a comment on a new line and one on the file's only line.
    const pending: Review = await g.call(base, {
      method: 'POST', auth, json: {
        body: 'body1',
        comments: [{ path: 'branch1.txt', body: 'first new line', old_position: 0, new_position: 1 }, { path: 'branch1.txt', body: 'again', old_position: 0, new_position: 1 }],
      },
    });
    expect(pending).toMatchObject({ state: 'PENDING', comments_count: 2 });

    const submitted: Review = await g.call(`${base}/${pending.id}`, { method: 'POST', auth, json: { event: 'APPROVED', body: 'just two nits' } });
    expect(submitted).toMatchObject({ id: pending.id, state: 'APPROVED', comments_count: 2 });

    const list = await reviewsOf('user2/repo1', 2, auth);
    for (const r of list) expect(r.pull_request_url).toBe(pull.html_url);
    const listed = list.find((r) => r.id === pending.id)!;
    expect(await g.call(`${base}/${pending.id}`, { auth })).toEqual(listed);

    const comments = await g.call(`${base}/${pending.id}/comments`, { auth });
    expect(comments.map((c: { body: string; user: { login: string } }) => [c.body, c.user.login])).toEqual([['first new line', 'user2'], ['again', 'user2']]);
    expect(comments[0].html_url).toBe(`${pull.html_url}#issuecomment-${comments[0].id}`);

    const dismissed: Review = await g.call(`${base}/${pending.id}/dismissals`, { method: 'POST', auth, json: { message: 'test' } });
    expect([dismissed.id, dismissed.dismissed]).toEqual([pending.id, true]);
    const undismissed: Review = await g.call(`${base}/${pending.id}/undismissals`, { method: 'POST', auth });
    expect([undismissed.id, undismissed.dismissed]).toEqual([pending.id, false]);

    const plain: Review = await g.call(base, { method: 'POST', auth, json: { body: 'just a comment', event: 'COMMENT' } });
    expect(plain).toMatchObject({ state: 'COMMENT', comments_count: 0 });
    expect((await g.api(`${base}/${plain.id}`, { method: 'DELETE', auth })).status).toBe(204);

    const linesOnly: Review = await g.call(base, {
      method: 'POST', auth, json: { event: 'COMMENT', comments: [{ path: 'branch1.txt', body: 'first new line', old_position: 0, new_position: 1 }] },
    });
    expect(linesOnly).toMatchObject({ state: 'COMMENT', comments_count: 1, body: '', dismissed: false });

    const bodyOnly: Review = await g.call(base, { method: 'POST', auth, json: { body: 'This is a body of the comment.', event: 'COMMENT', comments: [] } });
    expect(bodyOnly).toMatchObject({ state: 'COMMENT', comments_count: 0, body: 'This is a body of the comment.', dismissed: false });

    const empty = await g.api(base, { method: 'POST', auth, json: { body: '', event: 'COMMENT', comments: [] } });
    expect(empty.status).toBe(422);
    expect((await empty.json() as { message: string }).message).toBe('review event COMMENT requires a body or a comment');
  });

  it('TestAPIPullReview/review requests of a team', async () => {
    const auth = await g.tokenAuth('user2', 'write:repository');
    await g.call('repos/org3/repo3/pulls/2/requested_reviewers', { method: 'POST', auth, json: { reviewers: ['user1'], team_reviewers: ['team1'] } }, 201);
    const list = await reviewsOf('org3/repo3', 2, auth);
    const team = list.find((r) => r.team?.name === 'team1')!;
    // Gitea's fixture rows are official; without a protected branch Gitea makes a team's request
    // unofficial, and a user's official when the user writes the code (user1 administers the site).
    expect(team).toMatchObject({ state: 'REQUEST_REVIEW', comments_count: 0, stale: false, official: false });
    const user1 = list.find((r) => r.user?.login === 'user1')!;
    expect(user1).toMatchObject({ state: 'REQUEST_REVIEW', stale: false, official: true });
    expect(o.teams.team1).toBeGreaterThan(0);
  });
});

describe('TestAPIPullReviewRequest', () => {
  it('TestAPIPullReviewRequest', async () => {
    await g.user('user8');
    const auth = await g.tokenAuth('user2', 'write:repository');
    const url = 'repos/user2/repo1/pulls/3/requested_reviewers';
    // A reviewer by e-mail address, one by name.
    expect((await g.api(url, { method: 'POST', auth, json: { reviewers: ['user4@example.com', 'user8'] } })).status).toBe(201);
    const requested = (await g.call('repos/user2/repo1/pulls/3')).requested_reviewers.map((u: { login: string }) => u.login).sort();
    expect(requested).toEqual(['user4', 'user8']);
    // The poster cannot review their own pull request.
    expect((await g.api(url, { method: 'POST', auth, json: { reviewers: ['user1'] } })).status).toBe(422);
    expect((await g.api(url, { method: 'POST', auth, json: { reviewers: ['testOther'] } })).status).toBe(404);

    // user4 may withdraw their own request, not another's.
    const user4 = await g.tokenAuth('user4', 'write:repository');
    expect((await g.api(url, { method: 'DELETE', auth: user4, json: { reviewers: ['user4'] } })).status).toBe(204);
    expect((await g.api(url, { method: 'DELETE', auth: user4, json: { reviewers: ['user8'] } })).status).toBe(422);
    expect((await g.api(url, { method: 'DELETE', auth, json: { reviewers: ['user8'] } })).status).toBe(204);

    // Teams of org3, on org3/repo3's pull request.
    const teamUrl = 'repos/org3/repo3/pulls/2/requested_reviewers';
    await g.call('orgs/org3/teams', { method: 'POST', auth: await g.basic('user2'), json: { name: 'test_team', permission: 'read', units: ['repo.code'] } }, 201).catch(() => undefined);
    expect((await g.api(teamUrl, { method: 'POST', auth, json: { team_reviewers: ['team1', 'owners'] } })).status).toBe(201);
    // test_team cannot read repo3.
    expect((await g.api(teamUrl, { method: 'POST', auth, json: { team_reviewers: ['test_team'] } })).status).toBe(422);
    expect((await g.api(teamUrl, { method: 'POST', auth, json: { team_reviewers: ['not_exist_team'] } })).status).toBe(404);
    expect((await g.api(teamUrl, { method: 'DELETE', auth, json: { team_reviewers: ['team1'] } })).status).toBe(204);
    expect((await g.api(teamUrl, { method: 'POST', auth, json: {} })).status).toBe(201);
    expect((await g.api(teamUrl, { method: 'DELETE', auth, json: {} })).status).toBe(204);
  });
});

describe('TestAPIPullReviewStayDismissed', () => {
  it('TestAPIPullReviewStayDismissed', async () => {
    // Gitea counts review rows in its database; here the same rows as the reviews list shows them.
    const user2 = await g.tokenAuth('user2', 'write:repository');
    const user8 = await g.tokenAuth('user8', 'write:repository');
    const url = 'repos/user2/repo1/pulls/3';
    const count = async () => {
      const mine = (await reviewsOf('user2/repo1', 3, user2)).filter((r) => r.user?.login === 'user8');
      return {
        dismissed: mine.filter((r) => r.dismissed).length, requested: mine.filter((r) => r.state === 'REQUEST_REVIEW').length,
        total: mine.length, approval: mine.some((r) => r.state === 'APPROVED' && !r.dismissed),
      };
    };
    const request = async () => expect((await g.api(`${url}/requested_reviewers`, { method: 'POST', auth: user2, json: { reviewers: ['user8'] } })).status).toBe(201);
    const review = async (event: string, body: string) => g.call(`${url}/reviews`, { method: 'POST', auth: user8, json: { event, body } }) as Promise<Review>;
    // Start clean: this file's other tests may have asked user8 already.
    await g.api(`${url}/requested_reviewers`, { method: 'DELETE', auth: user2, json: { reviewers: ['user8'] } });
    expect((await count()).total).toBe(0);

    await request();
    expect(await count()).toEqual({ dismissed: 0, requested: 1, total: 1, approval: false });
    await request();
    expect(await count()).toEqual({ dismissed: 0, requested: 1, total: 1, approval: false });

    const lgtm = await review('APPROVED', 'lgtm');
    expect(await count()).toEqual({ dismissed: 0, requested: 0, total: 1, approval: true });

    // Gitea's test dismisses the approval in its database, as a push to a protected branch would.
    await g.call(`${url}/reviews/${lgtm.id}/dismissals`, { method: 'POST', auth: user2, json: { message: 'outdated' } });
    await request();
    expect(await count()).toEqual({ dismissed: 1, requested: 1, total: 2, approval: false });

    // user8 withdraws the new request.
    expect((await g.api(`${url}/requested_reviewers`, { method: 'DELETE', auth: user8, json: { reviewers: ['user8'] } })).status).toBe(204);
    expect(await count()).toEqual({ dismissed: 1, requested: 0, total: 1, approval: false });

    await review('APPROVED', 'lgtm');
    expect(await count()).toEqual({ dismissed: 1, requested: 0, total: 2, approval: true });

    // A change request dismisses the approval before it.
    await review('REQUEST_CHANGES', 'please change XYZ');
    expect(await count()).toEqual({ dismissed: 2, requested: 0, total: 3, approval: false });
  });
});
