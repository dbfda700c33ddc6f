import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_pin_test.go. Gitea reloads its fixtures
// before each test; here each test starts with nothing pinned in repo1.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

const base = 'repos/user2/repo1';
const pinOrder = async (n: number): Promise<number> => (await g.call(`${base}/issues/${n}`)).pin_order as number;

beforeEach(async () => {
  const auth = await g.basic('user2');
  for (const kind of ['issues', 'pulls']) {
    for (const i of await g.call(`${base}/${kind}/pinned`) as { number: number }[]) {
      await g.call(`${base}/issues/${i.number}/pin`, { method: 'DELETE', auth }, 204);
    }
  }
});

describe('api_issue_pin_test', () => {
  it('TestAPIPinIssue', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${base}/issues/1/pin`, { method: 'POST', auth })).status).toBe(204);
    expect(await pinOrder(1)).toBe(1);
  });

  it('TestAPIUnpinIssue', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${base}/issues/1/pin`, { method: 'POST', auth })).status).toBe(204);
    expect(await pinOrder(1)).toBe(1);
    expect((await g.api(`${base}/issues/1/pin`, { method: 'DELETE', auth })).status).toBe(204);
    expect(await pinOrder(1)).toBe(0);
  });

  it('TestAPIMoveIssuePin', async () => {
    // Gitea's issue 2 is a pull request of repo1, as here.
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${base}/issues/1/pin`, { method: 'POST', auth })).status).toBe(204);
    expect(await pinOrder(1)).toBe(1);
    expect((await g.api(`${base}/issues/2/pin`, { method: 'POST', auth })).status).toBe(204);
    expect((await g.api(`${base}/issues/1/pin/2`, { method: 'PATCH', auth })).status).toBe(204);
    expect(await pinOrder(1)).toBe(2);
    expect(await pinOrder(2)).toBe(1);
  });

  it('TestAPIListPinnedIssues', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(`${base}/issues/1/pin`, { method: 'POST', auth })).status).toBe(204);
    const list = await g.call(`${base}/issues/pinned`);
    expect(list.map((i: { number: number }) => i.number)).toEqual([1]);
  });

  it('TestAPIListPinnedPullrequests', async () => {
    expect(await g.call(`${base}/pulls/pinned`)).toEqual([]);
  });

  it('TestAPINewPinAllowed', async () => {
    expect(await g.call(`${base}/new_pin_allowed`)).toEqual({ issues: true, pull_requests: true });
  });
});
