import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_user_block_test.go. Gitea's fixtures give user10 a star,
// a watch, a pending transfer and a collaboration on user16's repositories (and on org3's, with
// an assigned issue too): here user10 makes them through the API, and the counts are read back
// through the API where Gitea's test reads its tables.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

type Ties = { stars: number; watches: number; transfers: number; collaborations: number; assigned?: number };

/** user10's ties to `owner`'s repository `name` and to the one `owner` offers to transfer to user10. */
async function tie(owner: string, name: string, by: string, isOrg: boolean): Promise<void> {
  await once(g, `ties:${owner}`, async () => {
    const user10 = await g.basic('user10');
    const [made, moving] = [`${name}`, `${name}-moving`];
    await repo(g, owner, made, {}, isOrg ? by : undefined);
    await repo(g, owner, moving, {}, isOrg ? by : undefined);
    await g.call(`user/starred/${owner}/${made}`, { method: 'PUT', auth: user10 }, 204);
    await g.call(`repos/${owner}/${made}/subscription`, { method: 'PUT', auth: user10 });
    await g.call(`repos/${owner}/${made}/collaborators/user10`, { method: 'PUT', auth: await g.basic(by), json: { permission: 'write' } }, 204);
    if (isOrg) await g.call(`repos/${owner}/${made}/issues`, { method: 'POST', auth: await g.basic(by), json: { title: 'for user10', assignees: ['user10'] } }, 201);
    await g.call(`repos/${owner}/${moving}/transfer`, { method: 'POST', auth: await g.basic(by), json: { new_owner: 'user10' } }, 201);
  });
}

/** What still ties user10 to `owner`, counted through the API. */
async function ties(owner: string, name: string, by: string): Promise<Ties> {
  const admin = await g.basic('user1');
  const starred = (await g.call('users/user10/starred', { auth: admin })) as { full_name: string }[];
  const watched = (await g.call('users/user10/subscriptions', { auth: admin })) as { full_name: string }[];
  const moving = await g.call(`repos/${owner}/${name}-moving`, { auth: admin });
  const collaborators = (await g.call(`repos/${owner}/${name}/collaborators`, { auth: await g.basic(by) })) as { login: string }[];
  const issues = (await g.call(`repos/${owner}/${name}/issues?assigned_by=user10&state=all`, { auth: admin })) as unknown[];
  const mine = (list: { full_name: string }[]) => list.filter((r) => r.full_name === `${owner}/${name}`).length;
  return {
    stars: mine(starred), watches: mine(watched), transfers: moving.repo_transfer ? 1 : 0,
    collaborations: collaborators.filter((c) => c.login === 'user10').length, assigned: issues.length,
  };
}

describe('TestBlockUser', () => {
  const names = async (path: string, auth: Awaited<ReturnType<GiteaFixtures['basic']>>) =>
    ((await g.call(path, { auth })) as { login: string }[]).map((u) => u.login);

  async function blockSteps(base: string, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>, before: Ties, after: Ties, owner: string, by: string) {
    expect((await g.api(`${base}/user10`, { method: 'PUT' })).status).toBe(401);
    expect(await ties(owner, 'blocking', by)).toEqual(before);
    expect((await g.api(`${base}/user10`, { auth })).status).toBe(404);
    expect((await g.api(`${base}/user10?reason=test`, { method: 'PUT', auth })).status).toBe(204);
    expect(await ties(owner, 'blocking', by)).toEqual(after);
    expect((await g.api(`${base}/user10`, { auth })).status).toBe(204);
    expect((await g.api(`${base}/user10`, { method: 'PUT', auth })).status).toBe(400);
    expect((await g.api(`${base}/org3`, { method: 'PUT', auth })).status).toBe(400);
    expect((await g.api(base)).status).toBe(401);
    expect(await names(base, auth)).toEqual(['user10']);
  }

  async function unblockSteps(base: string, auth: Awaited<ReturnType<GiteaFixtures['tokenAuth']>>) {
    expect((await g.api(`${base}/user10`, { method: 'DELETE' })).status).toBe(401);
    expect((await g.api(`${base}/user10`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(`${base}/user10`, { method: 'DELETE', auth })).status).toBe(400);
    expect((await g.api(`${base}/org3`, { method: 'DELETE', auth })).status).toBe(400);
    expect(await names(base, auth)).toEqual([]);
  }

  const userWorld = async () => {
    await g.org3();
    await tie('user16', 'blocking', 'user16', false);
    return g.tokenAuth('user16', 'write:user');
  };
  const orgWorld = async () => {
    await g.org3();
    await tie('org3', 'blocking', 'user2', true);
    return g.tokenAuth('user2', 'write:user', 'write:organization');
  };
  const one = { stars: 1, watches: 1, transfers: 1, collaborations: 1 };
  const zero = { stars: 0, watches: 0, transfers: 0, collaborations: 0 };

  describe('User', () => {
    it('TestBlockUser/User/Block', async () => {
      const auth = await userWorld();
      await blockSteps('user/blocks', auth, { ...one, assigned: 0 }, { ...zero, assigned: 0 }, 'user16', 'user16');
    });

    it('TestBlockUser/User/Unblock', async () => {
      const auth = await userWorld();
      await g.call('user/blocks/user10', { method: 'PUT', auth }, 204).catch(() => undefined);
      await unblockSteps('user/blocks', auth);
    });
  });

  describe('Organization', () => {
    it('TestBlockUser/Organization/Block', async () => {
      const auth = await orgWorld();
      await g.user('user10');
      expect((await g.api('orgs/org3/blocks/user4', { method: 'PUT', auth })).status).toBe(400);
      await blockSteps('orgs/org3/blocks', auth, { ...one, assigned: 1 }, { ...zero, assigned: 0 }, 'org3', 'user2');
    });

    it('TestBlockUser/Organization/Unblock', async () => {
      const auth = await orgWorld();
      await g.call('orgs/org3/blocks/user10', { method: 'PUT', auth }, 204).catch(() => undefined);
      await unblockSteps('orgs/org3/blocks', auth);
    });
  });
});
