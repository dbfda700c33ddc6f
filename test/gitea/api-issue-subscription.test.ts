import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_subscription_test.go. user1 posted repo1's
// #1, #2 and #3, so watches them; it never took part in repo1's #4 nor repo2's #2.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
  await g.repo2();
});
afterAll(async () => { await g.stop(); });

describe('TestAPIIssueSubscriptions', () => {
  it('TestAPIIssueSubscriptions', async () => {
    const auth = await g.tokenAuth('user1', 'write:issue');
    const check = async (repo: string, n: number, watching: boolean) => {
      const issue = await g.call(`repos/${repo}/issues/${n}`, { auth });
      const wi = await g.call(`repos/${repo}/issues/${n}/subscriptions/check`, { auth });
      expect({ subscribed: wi.subscribed, ignored: wi.ignored }).toEqual({ subscribed: watching, ignored: !watching });
      expect(wi.url).toBe(`${issue.url}/subscriptions`);
      expect(Date.parse(wi.created_at)).toBe(Date.parse(issue.created_at));
      expect(wi.repository_url).toBe(issue.repository_url ?? issue.url.replace(/\/issues\/\d+$/, ''));
    };
    await check('user2/repo1', 1, true);
    await check('user2/repo1', 2, true);
    await check('user2/repo1', 3, true);
    await check('user2/repo1', 4, false);
    await check('user2/repo2', 2, false);

    const one = 'repos/user2/repo1/issues/1/subscriptions/user1';
    expect((await g.api(one, { method: 'DELETE', auth })).status).toBe(201);
    await check('user2/repo1', 1, false);
    expect((await g.api(one, { method: 'DELETE', auth })).status).toBe(200);
    await check('user2/repo1', 1, false);

    const five = 'repos/user2/repo2/issues/2/subscriptions/user1';
    expect((await g.api(five, { method: 'PUT', auth })).status).toBe(201);
    await check('user2/repo2', 2, true);
    expect((await g.api(five, { method: 'PUT', auth })).status).toBe(200);
    await check('user2/repo2', 2, true);
  });
});
