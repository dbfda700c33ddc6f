import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { org, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_orgs_test.go. user2 owns org3 and is on org17's
// test_team; user4 is on org3's team1, a membership it keeps private.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Org = { id: number; name: string; username: string; full_name: string; avatar_url: string; visibility: string };

async function world(): Promise<Record<string, Org>> {
  await g.org3();
  await org(g, 'org17', 'user15', { visibility: 'public' });
  await team(g, 'org17', 'user15', { name: 'test_team', permission: 'write', units: ['repo.code'] }, ['user2']);
  const read = async (name: string) => (await g.call(`orgs/${name}`, { auth: await g.basic('user1') })) as Org;
  return { org17: await read('org17'), org3: await read('org3') };
}

const orgsOf = async (doer: string, who: string) =>
  (await g.call(`users/${who}/orgs`, { auth: await g.tokenAuth(doer, 'read:organization') })) as Org[];

/** The fields Gitea's test compares, by name order. */
const expected = (orgs: Record<string, Org>) => ['org17', 'org3'].map((n) => ({
  id: orgs[n]!.id, name: n, username: n, full_name: orgs[n]!.full_name, avatar_url: orgs[n]!.avatar_url,
  description: '', website: '', location: '', visibility: 'public',
}));

it('TestUserOrgs', async () => {
  const orgs = await world();
  expect(await orgsOf('user1', 'user2')).toMatchObject(expected(orgs));
  // A user sees its own organizations, a private membership included.
  expect(await orgsOf('user4', 'user4')).toHaveLength(1);
  // Another user does not see that private membership.
  expect(await orgsOf('user5', 'user4')).toHaveLength(0);
  // Anonymous callers must sign in.
  await g.call('users/user4/orgs', {}, 401);
});

it('TestMyOrgs', async () => {
  const orgs = await world();
  await g.call('user/orgs', {}, 401);
  expect(await g.call('user/orgs', { auth: await g.tokenAuth('user2', 'read:organization') })).toMatchObject(expected(orgs));
});
