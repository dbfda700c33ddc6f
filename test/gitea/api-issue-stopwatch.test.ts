import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_stopwatch_test.go. Gitea's fixtures have
// user2's stopwatch running on repo1's #2 and user1's on #1; each test here starts what it
// reads, after stopping whatever another left running. The stopwatch routes sit with the issue
// routes, whose tokens need the issue scope (Gitea 1.25's router), where older tests used repository.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Watch = { created: string; seconds: number; duration: string; issue_index: number; issue_title: string; repo_owner_name: string; repo_name: string };
const sw = (n: number, action: 'start' | 'stop' | 'delete') => `repos/user2/repo1/issues/${n}/stopwatch/${action}`;

beforeEach(async () => {
  for (const who of ['user1', 'user2']) {
    const auth = await g.basic(who);
    for (const w of await g.call('user/stopwatches', { auth }) as Watch[]) {
      await g.call(`repos/${w.repo_owner_name}/${w.repo_name}/issues/${w.issue_index}/stopwatch/delete`, { method: 'DELETE', auth }, 204);
    }
  }
});

describe('api_issue_stopwatch_test', () => {
  it('TestAPIListStopWatches', async () => {
    await g.call(sw(2, 'start'), { method: 'POST', auth: await g.basic('user2') }, 201);
    await new Promise((r) => setTimeout(r, 1100));
    const auth = await g.tokenAuth('user2', 'read:repository', 'read:user');
    const watches: Watch[] = await g.call('user/stopwatches', { auth });
    expect(watches).toHaveLength(1);
    expect(watches[0]).toMatchObject({ issue_index: 2, issue_title: 'issue2', repo_name: 'repo1', repo_owner_name: 'user2' });
    expect(watches[0]!.seconds).toBeGreaterThan(0);
    expect(Date.parse(watches[0]!.created)).toBeLessThanOrEqual(Date.now());
  });

  it('TestAPIStopStopWatches', async () => {
    await g.call(sw(2, 'start'), { method: 'POST', auth: await g.basic('user2') }, 201);
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(sw(2, 'stop'), { method: 'POST', auth })).status).toBe(201);
    expect((await g.api(sw(2, 'stop'), { method: 'POST', auth })).status).toBe(409);
  });

  it('TestAPICancelStopWatches', async () => {
    await g.call(sw(1, 'start'), { method: 'POST', auth: await g.basic('user1') }, 201);
    const auth = await g.tokenAuth('user1', 'write:issue');
    expect((await g.api(sw(1, 'delete'), { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(sw(1, 'delete'), { method: 'DELETE', auth })).status).toBe(409);
  });

  it('TestAPIStartStopWatches', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(sw(3, 'start'), { method: 'POST', auth })).status).toBe(201);
    expect((await g.api(sw(3, 'start'), { method: 'POST', auth })).status).toBe(409);
  });
});
