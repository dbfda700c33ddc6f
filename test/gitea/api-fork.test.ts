import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, org } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_fork_test.go. Gitea's limited_org (22) and
// privated_org (23) are made by user1 here; the tests then put user1 or user4 on their Owners.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

/** Puts `who` on `orgName`'s Owners team (Gitea's AddTeamMember on GetOwnerTeam). */
async function ownerOf(orgName: string, who: string): Promise<void> {
  const auth = await g.basic('user1');
  const teams = (await g.call(`orgs/${orgName}/teams`, { auth })) as { id: number; name: string }[];
  await g.user(who);
  await g.call(`teams/${teams.find((t) => t.name === 'Owners')!.id}/members/${who}`, { method: 'PUT', auth }, 204);
}

const orgs = () => once(g, 'fork-orgs', async () => {
  await org(g, 'limited_org', 'user1', { visibility: 'limited' });
  await org(g, 'privated_org', 'user1', { visibility: 'private' });
});

describe('api_fork_test', () => {
  it('TestCreateForkNoLogin', async () => {
    await g.repo1();
    expect((await g.api('repos/user2/repo1/forks', { method: 'POST', json: {} })).status).toBe(401);
  });

  describe('TestAPIForkListLimitedAndPrivateRepos', () => {
    const world = () => once(g, 'forks-of-repo1', async () => {
      await g.repo1();
      await orgs();
      await ownerOf('limited_org', 'user1');
      const user1 = await g.tokenAuth('user1', 'write:repository', 'write:organization');
      await g.call('repos/user2/repo1/forks', { method: 'POST', auth: user1, json: { organization: 'limited_org' } }, 202);
      await ownerOf('privated_org', 'user4');
      const user4 = await g.tokenAuth('user4', 'write:repository', 'write:organization');
      await g.call('repos/user2/repo1/forks', { method: 'POST', auth: user4, json: { organization: 'privated_org' } }, 202);
      return user1;
    });

    it('TestAPIForkListLimitedAndPrivateRepos/Anonymous', async () => {
      await world();
      const res = await g.api('repos/user2/repo1/forks');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
      expect(res.headers.get('x-total-count')).toBe('0');
    });

    it('TestAPIForkListLimitedAndPrivateRepos/Logged in', async () => {
      const user1 = await world();
      const res = await g.api('repos/user2/repo1/forks', { auth: user1 });
      expect(await res.json()).toHaveLength(2);
      expect(res.headers.get('x-total-count')).toBe('2');
      await ownerOf('privated_org', 'user1');
      const again = await g.api('repos/user2/repo1/forks', { auth: user1 });
      expect(await again.json()).toHaveLength(2);
      expect(again.headers.get('x-total-count')).toBe('2');
    });
  });

  it('TestGetPrivateReposForks', async () => {
    await g.repo2();
    await orgs();
    const user1 = await g.tokenAuth('user1', 'write:repository');
    await g.call('repos/user2/repo2/forks', { method: 'POST', auth: user1, json: { organization: 'privated_org', name: 'forked-repo' } }, 202);
    const res = await g.api('repos/user2/repo2/forks', { auth: user1 });
    const forks = (await res.json()) as { name: string; owner: { login: string } }[];
    expect(forks).toHaveLength(1);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(forks[0]).toMatchObject({ name: 'forked-repo', owner: { login: 'privated_org' } });
  });
});
