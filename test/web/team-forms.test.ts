import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';
import { ownerAndOther, type WebUser } from '../helpers/web-client';

// The team edit page's member and repository forms at their edges: a user the organization
// blocked is refused beside the name field (422, as a name that names nobody), not with the
// 403 page; removing a user or repository that is gone meanwhile answers 303 back to the page
// with a notice and changes nothing, as Gitea's redirect does; the last owner stays (422).

let s: TestServer;
let alice: WebUser;
let bob: WebUser;

const api = (p: string, method = 'GET', json?: unknown) => s.request(`api/v1/${p}`, { method, auth: as(alice), json });
const logins = async (teamId: number) => (await ok(await api(`teams/${teamId}/members`))).map((u: { login: string }) => u.login);
const repoNames = async (teamId: number) => (await ok(await api(`teams/${teamId}/repos`))).map((r: { name: string }) => r.name);

beforeAll(async () => {
  s = await startTestServer();
  ({ alice, bob } = await ownerAndOther(s));
});
afterAll(async () => { await s.stop(); });

/** alice's organization `org` with a repository `engine` and a team `crew` (code: write); the team's id. */
async function orgWithTeam(org: string): Promise<number> {
  await ok(await api('orgs', 'POST', { username: org }), 201);
  await ok(await api(`orgs/${org}/repos`, 'POST', { name: 'engine' }), 201);
  return (await ok(await api(`orgs/${org}/teams`, 'POST', { name: 'crew', permission: 'write', units: ['repo.code'] }), 201)).id;
}

describe('team forms at their edges', () => {
  it('refuses a user the organization blocked beside the field (422, the name kept); a forged add changes nothing', async () => {
    const id = await orgWithTeam('guild');
    await createUser(s, 'troll');
    await ok(await api('orgs/guild/blocks/troll', 'PUT'), 204);
    const from = 'org/guild/teams/crew/edit';
    const res = await alice.web.post('org/guild/teams/crew/members/add', { uname: 'troll' }, { from });
    expect(res.status).toBe(422);
    const page = await res.text();
    expect(page).toMatch(/id="f-uname-error"[^>]*>The organization has blocked this user: unblock them first\./);
    expect(page).toContain('value="troll"');
    expect(await logins(id)).toEqual([]);
    expect((await bob.web.post('org/guild/teams/crew/members/add', { uname: 'bob' }, { from: 'user/settings' })).status).toBe(403);
    expect(await logins(id)).toEqual([]);
  });

  it('answers 303 back with a notice when the member or repository to remove is gone; the real ones go', async () => {
    const id = await orgWithTeam('crafts');
    await ok(await api(`teams/${id}/members/bob`, 'PUT'), 204);
    await ok(await api(`teams/${id}/repos/crafts/engine`, 'PUT'), 204);
    const from = 'org/crafts/teams/crew/edit';
    const ghost = await alice.web.post('org/crafts/teams/crew/members/remove', { uname: 'ghost' }, { from });
    expect(ghost.status).toBe(303);
    expect(ghost.headers.get('location')).toMatch(/\/org\/crafts\/teams\/crew\/edit\?gone=member#members$/);
    expect(await (await alice.web.get('org/crafts/teams/crew/edit?gone=member')).text()).toContain('That user no longer exists: nothing was removed.');
    const gone = await alice.web.post('org/crafts/teams/crew/repos/remove', { repo_name: 'vanished' }, { from });
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toMatch(/\?gone=repo#repos$/);
    expect(await (await alice.web.get('org/crafts/teams/crew/edit?gone=repo')).text()).toContain('That repository no longer exists: nothing was removed.');
    expect(await (await alice.web.get('org/crafts/teams/crew/edit?gone=<b>x</b>')).text()).not.toContain('<b>x</b>');
    expect(await logins(id)).toEqual(['bob']);
    expect(await repoNames(id)).toEqual(['engine']);

    const member = await alice.web.post('org/crafts/teams/crew/members/remove', { uname: 'bob' }, { from });
    expect(member.status).toBe(303);
    expect(member.headers.get('location')).toMatch(/\/org\/crafts\/teams\/crew\/edit#members$/);
    expect((await alice.web.post('org/crafts/teams/crew/repos/remove', { repo_name: 'engine' }, { from })).status).toBe(303);
    expect(await logins(id)).toEqual([]);
    expect(await repoNames(id)).toEqual([]);
  });

  it('keeps the last owner: removing them re-renders 422 with the reason', async () => {
    await ok(await api('orgs', 'POST', { username: 'solo' }), 201);
    const res = await alice.web.post('org/solo/teams/owners/members/remove', { uname: 'alice' }, { from: 'org/solo/teams/owners/edit' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('last member of owner team');
    const owners = (await ok(await api('orgs/solo/teams'))).find((t: { name: string }) => t.name === 'Owners');
    expect(await logins(owners.id)).toEqual(['alice']);
  });
});
