import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea's tests/integration/api_user_heatmap_test.go. Gitea fakes the clock over its
// fixture actions; here user2's actions are the kit's repo1 being built just now, so the test
// checks the shape: 15-minute buckets, user2's contributions counted, user1 reading them.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_user_heatmap_test', () => {
  it('TestUserHeatmap', async () => {
    await g.repo1();
    const auth = await g.tokenAuth('user1', 'read:user');
    const heatmap = (await g.call('users/user2/heatmap', { auth })) as { timestamp: number; contributions: number }[];
    expect(heatmap.length).toBeGreaterThan(0);
    const now = Date.now() / 1000;
    for (const cell of heatmap) {
      expect(Object.keys(cell).sort()).toEqual(['contributions', 'timestamp']);
      expect(cell.timestamp % 900).toBe(0);
      expect(cell.timestamp).toBeLessThanOrEqual(now);
      expect(cell.contributions).toBeGreaterThan(0);
    }
    // A user who did nothing has an empty heatmap.
    await g.user('user8');
    expect(await g.call('users/user8/heatmap', { auth })).toEqual([]);
  });
});
