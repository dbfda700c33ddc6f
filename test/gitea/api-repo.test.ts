import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { collaborator, once, org, org3Creator, org6, repo, team } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_test.go. Gitea's fixture counts (36 public
// repositories, ...) are its database's; here each test builds the repositories it counts and
// asserts the same rules over them. Migrations come from this same server over loopback, so
// this server allows local networks; the disallowed hosts are tried on a server with Gitea's
// default [migrations]. (Deliberate: hearth's allowed_domains does not open local networks,
// where Gitea's lets a listed name reach a loopback or private address.)

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: 'true' }); });
afterAll(async () => { await g.stop(); });

type R = { id: number; name: string; full_name: string; private: boolean; owner: { id: number; login: string } };
const names = (list: R[]) => list.map((r) => r.full_name).sort();
const cloneUrl = (path: string) => new URL(path, g.s.hearth.config.server.root_url).toString();

/**
 * The search world: user15 owns big_test_public_1/2 and big_test_private_1 (user16 a
 * collaborator on it); user16 owns big_test_public_3; org17 (user15 a member) owns
 * big_test_public_4 and private big_test_private_4; user20 owns a source, a fork of user15's
 * repository, a mirror and a private repository, and collaborates on user16's repository.
 */
function searchWorld() {
  return once(g, 'search-world', async () => {
    for (const u of ['user15', 'user16', 'user20', 'user3']) await g.user(u);
    await repo(g, 'user15', 'big_test_public_1');
    await repo(g, 'user15', 'big_test_public_2');
    await repo(g, 'user15', 'big_test_private_1', { private: true });
    await collaborator(g, 'user15', 'big_test_private_1', 'user16', 'read');
    await repo(g, 'user16', 'big_test_public_3');
    await org(g, 'org17', 'user15', { visibility: 'public' });
    await repo(g, 'org17', 'big_test_public_4', {}, 'user15');
    await repo(g, 'org17', 'big_test_private_4', { private: true }, 'user15');
    await repo(g, 'user20', 'source20');
    await repo(g, 'user20', 'private20', { private: true });
    await g.call('repos/user15/big_test_public_1/forks', { method: 'POST', auth: await g.basic('user20'), json: { name: 'fork20' } }, 202);
    await g.call('repos/migrate', {
      method: 'POST', auth: await g.basic('user20'), json: { clone_addr: cloneUrl('user20/source20.git'), repo_name: 'mirror20', mirror: true },
    }, 201);
    await collaborator(g, 'user16', 'big_test_public_3', 'user20', 'write');
  });
}

async function search(query: string, who: string | null): Promise<R[]> {
  const auth = who ? await g.tokenAuth(who, 'read:repository') : undefined;
  return (await g.call(`repos/search?${query}`, { auth })).data as R[];
}

describe('api_repo_test', () => {
  it('TestAPIUserReposNotLogin', async () => {
    await repo(g, 'user2', 'repo1-public-peer');
    await g.repo2();
    const list = (await g.call('users/user2/repos')) as R[];
    expect(list.length).toBeGreaterThan(0);
    for (const r of list) {
      expect(r.owner.login).toBe('user2');
      expect(r.private).toBe(false);
    }
    expect(names(list)).not.toContain('user2/repo2');
  });

  it('TestAPISearchRepo', async () => {
    await searchWorld();
    const found = await search('q=test', null);
    expect(found.length).toBeGreaterThan(0);
    for (const r of found) {
      expect(r.name).toContain('test');
      expect(r.private).toBe(false);
    }
  });

  it('TestAPISearchRepo/RepositoriesMax50', async () => {
    await searchWorld();
    const all = await search('limit=50&private=false', null);
    for (const who of ['user15', 'user16']) expect(names(await search('limit=50&private=false', who))).toEqual(names(all));
    expect(all.every((r) => !r.private)).toBe(true);
    expect(names(all)).toEqual(expect.arrayContaining(['user15/big_test_public_1', 'org17/big_test_public_4', 'user20/mirror20']));
  });

  it('TestAPISearchRepo/RepositoriesMax10', async () => {
    await searchWorld();
    for (const who of [null, 'user15']) expect(await search('limit=3&private=false', who)).toHaveLength(3);
  });

  it('TestAPISearchRepo/RepositoriesDefault', async () => {
    const small = await startGitea({ HEARTH__API__DEFAULT_PAGING_NUM: '2' });
    try {
      for (const n of ['a', 'b', 'c']) await repo(small, 'user2', `repo-${n}`);
      expect((await small.call('repos/search?default&private=false')).data).toHaveLength(2);
    } finally {
      await small.stop();
    }
  });

  it('TestAPISearchRepo/RepositoriesByName', async () => {
    await searchWorld();
    for (const who of [null, 'user15', 'user16']) {
      const list = await search('q=big_test_&private=false', who);
      expect(names(list)).toEqual(['org17/big_test_public_4', 'user15/big_test_public_1', 'user15/big_test_public_2', 'user16/big_test_public_3']);
    }
    const byOwner = await search('q=user15/big_test_&private=false', 'user16');
    expect(names(byOwner)).toEqual(['user15/big_test_public_1', 'user15/big_test_public_2']);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser', async () => {
    await searchWorld();
    const uid = (await g.user('user15')).id;
    expect(names(await search(`uid=${uid}`, null))).toEqual(['user15/big_test_public_1', 'user15/big_test_public_2']);
    // Signed in, the public repositories of user15's organizations count too (anonymous, not:
    // user15's membership of org17 is private); user15 sees org17's private one, user16 the one
    // it collaborates on.
    const own = ['user15/big_test_private_1', 'user15/big_test_public_1', 'user15/big_test_public_2'];
    expect(names(await search(`uid=${uid}`, 'user15'))).toEqual(['org17/big_test_private_4', 'org17/big_test_public_4', ...own]);
    expect(names(await search(`uid=${uid}`, 'user16'))).toEqual(['org17/big_test_public_4', ...own]);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser2', async () => {
    await searchWorld();
    const uid = (await g.user('user16')).id;
    expect(names(await search(`uid=${uid}`, null))).toEqual(['user16/big_test_public_3']);
    const mine = ['user15/big_test_private_1', 'user16/big_test_public_3'];
    expect(names(await search(`uid=${uid}`, 'user16'))).toEqual(mine);
    expect(names(await search(`uid=${uid}`, 'user15'))).toEqual(mine);
    expect(names(await search(`uid=${uid}`, 'user20'))).toEqual(['user16/big_test_public_3']);
  });

  it('TestAPISearchRepo/RepositoriesOwnedByOrganization', async () => {
    await searchWorld();
    const orgId = (await g.call('orgs/org17')).id as number;
    const anon = await search(`uid=${orgId}`, null);
    expect(names(anon)).toEqual(['org17/big_test_public_4']);
    expect(anon.every((r) => r.owner.id === orgId)).toBe(true);
    expect(names(await search(`uid=${orgId}`, 'user15'))).toEqual(['org17/big_test_private_4', 'org17/big_test_public_4']);
    expect(names(await search(`uid=${orgId}`, 'user16'))).toEqual(['org17/big_test_public_4']);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser4', async () => {
    await searchWorld();
    const uid = (await g.user('user20')).id;
    const pub = ['user16/big_test_public_3', 'user20/fork20', 'user20/mirror20', 'user20/source20'];
    expect(names(await search(`uid=${uid}`, null))).toEqual(pub);
    expect(names(await search(`uid=${uid}`, 'user20'))).toEqual([...pub, 'user20/private20'].sort());
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser4/SearchModeSource', async () => {
    await searchWorld();
    const uid = (await g.user('user20')).id;
    expect(names(await search(`uid=${uid}&mode=source`, 'user20'))).toEqual(['user16/big_test_public_3', 'user20/private20', 'user20/source20']);
    expect(names(await search(`uid=${uid}&mode=source&exclusive=1`, 'user20'))).toEqual(['user20/private20', 'user20/source20']);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser4/SearchModeFork', async () => {
    await searchWorld();
    const uid = (await g.user('user20')).id;
    expect(names(await search(`uid=${uid}&mode=fork`, null))).toEqual(['user20/fork20']);
    expect(names(await search(`uid=${uid}&mode=fork&exclusive=1`, 'user20'))).toEqual(['user20/fork20']);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser4/SearchModeMirror', async () => {
    await searchWorld();
    const uid = (await g.user('user20')).id;
    expect(names(await search(`uid=${uid}&mode=mirror`, null))).toEqual(['user20/mirror20']);
    expect(names(await search(`uid=${uid}&mode=mirror&exclusive=1`, 'user20'))).toEqual(['user20/mirror20']);
  });

  it('TestAPISearchRepo/RepositoriesAccessibleAndRelatedToUser4/SearchModeCollaborative', async () => {
    await searchWorld();
    const uid = (await g.user('user20')).id;
    expect(names(await search(`uid=${uid}&mode=collaborative`, null))).toEqual(['user16/big_test_public_3']);
    expect(names(await search(`uid=${uid}&mode=collaborative`, 'user20'))).toEqual(['user16/big_test_public_3']);
    await g.call(`repos/search?uid=${uid}&mode=nope`, {}, 422);
  });

  it('TestAPIViewRepo', async () => {
    const r1 = await g.repo1();
    const view = await g.call('repos/user2/repo1');
    expect(view).toMatchObject({ id: r1.id, name: 'repo1', open_issues_count: 1, open_pr_counter: 2, release_counter: 0 });

    // repo10 of user12: one fork, whose owner opened one pull request into it.
    await repo(g, 'user12', 'repo10');
    const user13 = await g.basic('user13');
    await g.call('repos/user12/repo10/forks', { method: 'POST', auth: user13, json: {} }, 202);
    await g.pushBranches(await g.user('user13'), 'repo10', { feature: { 'f.txt': 'f\n' } });
    await g.call('repos/user12/repo10/pulls', { method: 'POST', auth: user13, json: { head: 'user13:feature', base: 'master', title: 'pr' } }, 201);
    expect(await g.call('repos/user12/repo10')).toMatchObject({ name: 'repo10', open_pr_counter: 1, forks_count: 1 });

    // repo4 of user5, starred once.
    await repo(g, 'user5', 'repo4');
    await g.call('user/starred/user5/repo4', { method: 'PUT', auth: await g.basic('user2') }, 204);
    expect(await g.call('repos/user5/repo4')).toMatchObject({ name: 'repo4', stars_count: 1 });
  });

  it('TestAPIOrgRepos', async () => {
    const o = await g.org3();
    await g.user('user5');
    const cases: [string, string[]][] = [
      ['user2', ['org3/repo3', 'org3/repo5']],
      ['user1', ['org3/repo3', 'org3/repo5']],
      ['user4', ['org3/repo3']],
      ['user5', []],
    ];
    await repo(g, 'org3', 'org3-public', {}, 'user2');
    for (const [who, privates] of cases) {
      const list = (await g.call('orgs/org3/repos', { auth: await g.tokenAuth(who, 'read:organization') })) as R[];
      expect(names(list), who).toEqual(['org3/org3-public', ...privates].sort());
      expect(list.every((r) => r.owner.id === o.org.id)).toBe(true);
    }
  });

  it('TestAPIOrgReposWithCodeUnitDisabled', async () => {
    await g.org3();
    await repo(g, 'org3', 'repo21', {}, 'user2');
    await g.call('repos/org3/repo21', { method: 'PATCH', auth: await g.basic('user2'), json: { has_code: false } });
    const list = (await g.call('orgs/org3/repos', { auth: await g.tokenAuth('user2', 'read:organization') })) as R[];
    expect(list.map((r) => r.name)).toContain('repo21');
  });

  it('TestAPIGetRepoByIDUnauthorized', async () => {
    const r2 = await g.repo2();
    await g.call(`repositories/${r2.id}`, { auth: await g.tokenAuth('user4', 'read:repository') }, 404);
  });

  it('TestAPIRepoMigrate', async () => {
    await g.org3();
    await org6(g);
    await repo(g, 'user2', 'migrate-src');
    const src = cloneUrl('user2/migrate-src.git');
    const ids: Record<string, number> = {
      user1: g.user1.id, user2: (await g.user('user2')).id, org3: (await g.org3()).org.id, org6: (await org6(g)).id,
    };
    const cases: [string, string, string, string, number][] = [
      ['user1', 'user2', src, 'git-admin', 201],
      ['user2', 'user2', src, 'git-own', 201],
      ['user2', 'user1', src, 'git-bad', 403],
      ['user2', 'org3', src, 'git-org', 201],
      ['user2', 'org6', src, 'git-bad-org', 403],
    ];
    for (const [who, owner, clone_addr, repo_name, status] of cases) {
      await g.call('repos/migrate', { method: 'POST', auth: await g.tokenAuth(who, 'write:repository'), json: { clone_addr, uid: ids[owner], repo_name } }, status);
    }
    const closed = await startGitea();
    try {
      const org3 = (await closed.org3()).org.id;
      for (const clone_addr of ['https://localhost:3000/user/test_repo.git', 'https://10.0.0.1/user/test_repo.git']) {
        const body = await closed.call('repos/migrate', {
          method: 'POST', auth: await closed.tokenAuth('user2', 'write:repository'), json: { clone_addr, uid: org3, repo_name: 'private-ip' },
        }, 422);
        expect(body.message).toBe('You can not import from disallowed hosts.');
      }
    } finally {
      await closed.stop();
    }
  });

  it('TestAPIRepoMigrateConflict/Existing', async () => {
    await repo(g, 'user2', 'migrate-src');
    await repo(g, 'user2', 'repo-tmp-17');
    const body = await g.call('repos/migrate', {
      method: 'POST', auth: await g.tokenAuth('user2', 'write:repository', 'write:user'),
      json: { clone_addr: cloneUrl('user2/migrate-src.git'), uid: (await g.user('user2')).id, repo_name: 'repo-tmp-17' },
    }, 409);
    expect(body.message).toBe('The repository with the same name already exists.');
  });

  it('TestAPIMirrorSyncNonMirrorRepo', async () => {
    await g.repo1();
    expect((await g.call('repos/user2/repo1')).mirror).toBe(false);
    const body = await g.call('repos/user2/repo1/mirror-sync', { method: 'POST', auth: await g.tokenAuth('user2', 'write:repository') }, 400);
    expect(body.message).toBe('Repository is not a mirror');
  });

  it('TestAPIOrgRepoCreate', async () => {
    await org3Creator(g);
    await org6(g);
    const cases: [string, string, string, number][] = [
      ['user1', 'org3', 'repo-admin', 201],
      ['user2', 'org3', 'repo-own', 201],
      ['user2', 'org6', 'repo-bad-org', 403],
      ['user28', 'org3', 'repo-creator', 201],
      ['user28', 'org6', 'repo-not-creator', 403],
    ];
    for (const [who, orgName, name, status] of cases) {
      await g.call(`org/${orgName}/repos`, { method: 'POST', auth: await g.tokenAuth(who, 'write:organization', 'write:repository'), json: { name } }, status);
    }
  });

  it('TestAPIRepoCreateConflict/Existing', async () => {
    await repo(g, 'user2', 'repo-tmp-17');
    const body = await g.call('user/repos', { method: 'POST', auth: await g.tokenAuth('user2', 'write:repository', 'write:user'), json: { name: 'repo-tmp-17' } }, 409);
    expect(body.message).toBe('The repository with the same name already exists.');
  });

  it('TestAPIRepoTransfer', async () => {
    const o = await g.org3();
    await org6(g);
    const other = await team(g, 'org6', 'user5', { name: 'team6', permission: 'read', units: ['repo.code'] });
    const created = await g.call('user/repos', {
      method: 'POST', auth: await g.tokenAuth('user1', 'write:repository', 'write:user'),
      json: { name: 'moveME', description: 'repo move around', private: false, readme: 'Default', auto_init: true },
    }, 201);
    const cases: [string, string, number[] | undefined, number][] = [
      ['user1', 'org3', [other.id], 403],
      ['user1', 'user2', [o.teams.team1], 422],
      ['user1', 'org3', [o.teams.team1], 202],
      ['user2', 'user2', undefined, 202],
      ['user2', 'org3', [o.teams.team1], 202],
      ['user2', 'org3', undefined, 422],
      ['user2', 'org6', undefined, 201],
    ];
    for (const [who, new_owner, team_ids, status] of cases) {
      const now = await g.call(`repositories/${created.id}`, { auth: g.s.admin ? await g.basic('user1') : undefined });
      await g.call(`repos/${now.full_name}/transfer`, {
        method: 'POST', auth: await g.tokenAuth(who, 'write:repository'), json: { new_owner, ...(team_ids ? { team_ids } : {}) },
      }, status);
    }
  });

  async function transfer(name: string): Promise<string> {
    await g.user('user4');
    const token = await g.tokenAuth('user2', 'write:repository', 'write:user');
    await g.call('user/repos', { method: 'POST', auth: token, json: { name, description: 'repo move around', readme: 'Default', auto_init: true } }, 201);
    await g.call(`repos/user2/${name}/transfer`, { method: 'POST', auth: token, json: { new_owner: 'user4' } }, 201);
    return `user2/${name}`;
  }

  it('TestAPIAcceptTransfer', async () => {
    await g.repo1();
    const full = await transfer('moveME-accept');
    const user2 = await g.tokenAuth('user2', 'write:repository', 'write:user');
    await g.call(`repos/${full}/transfer/reject`, { method: 'POST', auth: user2 }, 403);
    await g.call('repos/user2/repo1/transfer/accept', { method: 'POST', auth: user2 }, 404);
    const accepted = await g.call(`repos/${full}/transfer/accept`, { method: 'POST', auth: await g.tokenAuth('user4', 'write:repository', 'write:user') }, 202);
    expect(accepted.owner.login).toBe('user4');
  });

  it('TestAPIRejectTransfer', async () => {
    await g.repo1();
    const full = await transfer('moveME-reject');
    const user2 = await g.tokenAuth('user2', 'write:repository');
    await g.call(`repos/${full}/transfer/reject`, { method: 'POST', auth: user2 }, 403);
    await g.call('repos/user2/repo1/transfer/reject', { method: 'POST', auth: user2 }, 404);
    const rejected = await g.call(`repos/${full}/transfer/reject`, { method: 'POST', auth: await g.tokenAuth('user4', 'write:repository') });
    expect(rejected.owner.login).toBe('user2');
  });

  it('TestAPIGenerateRepo', async () => {
    await g.org3();
    await repo(g, 'user27', 'template1', { template: true });
    const token = await g.tokenAuth('user1', 'write:repository');
    for (const owner of ['user1', 'org3']) {
      const made = await g.call('repos/user27/template1/generate', {
        method: 'POST', auth: token, json: { owner, name: 'new-repo', description: 'test generate repo', private: false, git_content: true },
      }, 201);
      expect(made.name).toBe('new-repo');
      expect(made.owner.login).toBe(owner);
    }
  });

  // Gitea's fixture repo1 counts one reviewer and two assignees because its access table lacks
  // the collaborator its collaboration table has; here the collaborator counts for both.
  it('TestAPIRepoGetReviewers', async () => {
    await repo(g, 'user2', 'reviewed');
    await collaborator(g, 'user2', 'reviewed', 'user4', 'write');
    const list = await g.call('repos/user2/reviewed/reviewers', { auth: await g.tokenAuth('user2', 'read:repository') });
    expect(list.map((u: { login: string }) => u.login).sort()).toEqual(['user2', 'user4']);
  });

  it('TestAPIRepoGetAssignees', async () => {
    await repo(g, 'user2', 'assigned');
    await collaborator(g, 'user2', 'assigned', 'user4', 'write');
    const list = await g.call('repos/user2/assigned/assignees', { auth: await g.tokenAuth('user2', 'read:repository') });
    expect(list).toHaveLength(2);
  });
});
