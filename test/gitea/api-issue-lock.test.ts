import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_lock_test.go: the owner locks and unlocks
// repo1's issue #1; user34, no collaborator, may do neither.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

const url = 'repos/user2/repo1/issues/1/lock';
const locked = async (): Promise<boolean> => (await g.call('repos/user2/repo1/issues/1')).is_locked as boolean;

describe('TestAPILockIssue', () => {
  it('TestAPILockIssue/Lock', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(url, { method: 'PUT', auth, json: { lock_reason: 'Spam' } })).status).toBe(204);
    expect(await locked()).toBe(true);
    const other = await g.tokenAuth('user34', 'all');
    expect((await g.api(url, { method: 'PUT', auth: other, json: { lock_reason: 'Spam' } })).status).toBe(403);
  });

  it('TestAPILockIssue/Unlock', async () => {
    const auth = await g.tokenAuth('user2', 'write:issue');
    expect((await g.api(url, { method: 'PUT', auth, json: { lock_reason: 'Spam' } })).status).toBe(204);
    expect((await g.api(url, { method: 'DELETE', auth })).status).toBe(204);
    expect(await locked()).toBe(false);
    const other = await g.tokenAuth('user34', 'all');
    expect((await g.api(url, { method: 'DELETE', auth: other })).status).toBe(403);
  });
});
