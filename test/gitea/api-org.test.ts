import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { org } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_org_test.go. Gitea's "user3" is an organization owned
// by user2; here org "user3" is made so, and edited by the site admin as in Gitea's test.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_org_test', () => {
  it('TestAPIOrgCreate', async () => {
    const auth = await g.tokenAuth('user1', 'write:organization');
    const option = {
      username: 'user1_org', full_name: 'User1\'s organization', description: 'This organization created by user1',
      website: 'https://try.gitea.io', location: 'Shanghai', visibility: 'limited',
    };
    const created = await g.call('orgs', { method: 'POST', auth, json: option }, 201);
    expect(created).toMatchObject({
      name: option.username, full_name: option.full_name, description: option.description,
      website: option.website, location: option.location, visibility: option.visibility,
    });
    expect((await g.call('orgs/user1_org', { auth })).name).toBe('user1_org');
    const repos = (await g.call('orgs/user1_org/repos', { auth })) as { private: boolean }[];
    for (const r of repos) expect(r.private).toBe(false);
    // The creator is its only member, and a public one.
    const members = (await g.call('orgs/user1_org/members', { auth })) as { login: string }[];
    expect(members.map((m) => m.login)).toEqual(['user1']);
  });

  it('TestAPIOrgEdit', async () => {
    await org(g, 'user3', 'user2');
    const option = {
      full_name: 'User3 organization new full name', description: 'A new description',
      website: 'https://try.gitea.io/new', location: 'Beijing', visibility: 'private',
    };
    const edited = await g.call('orgs/user3', { method: 'PATCH', auth: await g.tokenAuth('user1', 'write:organization'), json: option });
    expect(edited).toMatchObject({ name: 'user3', ...option });
  });

  it('TestAPIOrgEditBadVisibility', async () => {
    await org(g, 'user3', 'user2');
    await g.call('orgs/user3', {
      method: 'PATCH', auth: await g.tokenAuth('user1', 'write:organization'),
      json: { full_name: 'User3 organization new full name', description: 'A new description', website: 'https://try.gitea.io/new', location: 'Beijing', visibility: 'badvisibility' },
    }, 422);
  });

  it('TestAPIOrgDeny', async () => {
    // With sign-in required to view, an organization that does not exist is a 404 everywhere.
    const closed = await startGitea({ HEARTH__SERVICE__REQUIRE_SIGNIN_VIEW: 'true' });
    try {
      const auth = await closed.tokenAuth('user1', 'read:organization');
      for (const path of ['orgs/user1_org', 'orgs/user1_org/repos', 'orgs/user1_org/members']) await closed.call(path, { auth }, 404);
    } finally {
      await closed.stop();
    }
  });

  it('TestAPIGetAll', async () => {
    await org(g, 'org-public', 'user2', { visibility: 'public', full_name: 'org25' });
    await org(g, 'org-limited', 'user2', { visibility: 'limited' });
    await org(g, 'org-private', 'user2', { visibility: 'private' });
    // With a token, every organization is listed, private ones too.
    const list = (await g.call('orgs', { auth: await g.tokenAuth('user1', 'read:organization') })) as { name: string; full_name: string; visibility: string }[];
    const names = list.map((o) => o.name);
    for (const name of ['org-public', 'org-limited', 'org-private']) expect(names).toContain(name);
    expect(list.find((o) => o.name === 'org-public')).toMatchObject({ full_name: 'org25', visibility: 'public' });
    // Anonymous callers see the public ones only.
    const open = ((await g.call('orgs')) as { name: string; visibility: string }[]);
    expect(open.map((o) => o.name)).toContain('org-public');
    for (const o of open) expect(o.visibility).toBe('public');
  });

  it('TestAPIOrgSearchEmptyTeam', async () => {
    const auth = await g.tokenAuth('user1', 'write:organization');
    await g.call('orgs', { method: 'POST', auth, json: { username: 'org_with_empty_team' } }, 201);
    await g.call('orgs/org_with_empty_team/teams', {
      method: 'POST', auth,
      json: { name: 'Empty', includes_all_repositories: true, permission: 'read', units: ['repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.pulls'] },
    }, 201);
    // A case-insensitive search finds the team that has no member.
    const found = await g.call('orgs/org_with_empty_team/teams/search?q=empty', { auth });
    expect(found.ok).toBe(true);
    expect(found.data.map((t: { name: string }) => t.name)).toEqual(['Empty']);
  });
});
