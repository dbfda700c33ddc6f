import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { expectNullableShape } from '../helpers/issue-shape';
import { addTeam, createOrg } from '../helpers/orgs';
import { as, cloneWork, ok, type Creds, type Work } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';

// Review requests addressed to teams: requested_reviewers with team_reviewers, the pull's
// requested_reviewers_teams, team requests among the reviews, pulls created with team reviewers.

let s: TestServer;
let alice: Creds & { id: number };
let bob: Creds & { id: number };
let carol: Creds & { id: number };
let branch: Work['branch'];
let privBranch: Work['branch'];
const team: Record<string, number> = {};

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });
const requested = (repo: string, n: number, method: string, body: unknown, who: Creds = alice) =>
  api(`repos/${repo}/pulls/${n}/requested_reviewers`, method, body, who);
const openPull = async (repo: string, head: string, extra: Record<string, unknown> = {}) =>
  ok(await api(`repos/${repo}/pulls`, 'POST', { head, base: 'main', title: `pull ${head}`, ...extra }), 201);
const teamNames = (pr: { requested_reviewers_teams: { name: string }[] }) => pr.requested_reviewers_teams.map((t) => t.name);

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  carol = await createUser(s, 'carol');
  const org = await createOrg(s, alice, 'acme', { email: 'acme@example.com' });
  for (const [name, priv] of [['proj', false], ['secret', true]] as const) {
    await ok(await api('orgs/acme/repos', 'POST', { name, private: priv, auto_init: true, default_branch: 'main' }), 201);
  }
  team.reviewers = await addTeam(s, org.id, 'reviewers', { uids: [bob.id] });
  team.readers = await addTeam(s, org.id, 'readers', { mode: 1 });
  team.everything = await addTeam(s, org.id, 'everything', { allRepos: true });
  team.outsiders = await addTeam(s, org.id, 'outsiders');
  for (const t of ['reviewers', 'readers']) {
    for (const repo of ['proj', 'secret']) await ok(await api(`teams/${team[t]}/repos/acme/${repo}`, 'PUT'), 204);
  }
  branch = (await cloneWork(s, 'acme', 'proj', alice)).branch;
  privBranch = (await cloneWork(s, 'acme', 'secret', alice)).branch;
});
afterAll(async () => { await s.stop(); });

describe('requesting a team', () => {
  let n = 0;
  beforeAll(async () => {
    await branch('one', { 'one.txt': 'one\n' });
    n = (await openPull('acme/proj', 'one')).number;
  });

  it('answers 201 with the new requests: users first, teams with user null', async () => {
    const made = await ok(await requested('acme/proj', n, 'POST', { reviewers: ['bob'], team_reviewers: ['Reviewers'] }), 201);
    expectNullableShape(made, '[PullReview]');
    expect(made).toHaveLength(2);
    expect(made[0]).toMatchObject({ user: { login: 'bob' }, team: null, state: 'REQUEST_REVIEW' });
    expect(made[1]).toMatchObject({ user: null, state: 'REQUEST_REVIEW', team: { id: team.reviewers, name: 'reviewers', organization: { username: 'acme' } } });
    // Asking again changes nothing.
    expect(await ok(await requested('acme/proj', n, 'POST', { reviewers: ['bob'], team_reviewers: ['reviewers'] }), 201)).toEqual([]);
  });

  it('lists the team on the pull request, users apart', async () => {
    const pr = await ok(await api(`repos/acme/proj/pulls/${n}`));
    expectNullableShape(pr, 'PullRequest');
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['bob']);
    expect(teamNames(pr)).toEqual(['reviewers']);
    const list = await ok(await api('repos/acme/proj/pulls?state=open'));
    expectNullableShape(list, '[PullRequest]');
    expect(teamNames(list.find((p: { number: number }) => p.number === n))).toEqual(['reviewers']);
  });

  it('lists the team request among the reviews, and gets it by id', async () => {
    const reviews = await ok(await api(`repos/acme/proj/pulls/${n}/reviews`));
    expectNullableShape(reviews, '[PullReview]');
    const forTeam = reviews.filter((r: { team: unknown }) => r.team);
    expect(forTeam).toHaveLength(1);
    expect(forTeam[0]).toMatchObject({ user: null, state: 'REQUEST_REVIEW', team: { name: 'reviewers' } });
    const one = await ok(await api(`repos/acme/proj/pulls/${n}/reviews/${forTeam[0].id}`));
    expectNullableShape(one, 'PullReview');
    expect(one).toMatchObject({ user: null, team: { id: team.reviewers } });
  });

  it('refuses unknown teams (404) and callers who may not change requests (422, Gitea\'s ErrNotValidReviewRequest)', async () => {
    expect((await requested('acme/proj', n, 'POST', { team_reviewers: ['nobody'] })).status).toBe(404);
    expect((await requested('acme/proj', n, 'DELETE', { team_reviewers: ['nobody'] })).status).toBe(404);
    expect((await requested('acme/proj', n, 'POST', { team_reviewers: ['readers'] }, carol)).status).toBe(422);
  });

  it('cancels with DELETE (204), the user request staying', async () => {
    await ok(await requested('acme/proj', n, 'DELETE', { team_reviewers: ['reviewers'] }), 204);
    const pr = await ok(await api(`repos/acme/proj/pulls/${n}`));
    expect(pr.requested_reviewers_teams).toEqual([]);
    expect(pr.requested_reviewers).toHaveLength(1);
    const reviews = await ok(await api(`repos/acme/proj/pulls/${n}/reviews`));
    expect(reviews.filter((r: { team: unknown }) => r.team)).toEqual([]);
    // Cancelling what is not requested is no error, and leaves no event.
    await ok(await requested('acme/proj', n, 'DELETE', { team_reviewers: ['reviewers'] }), 204);
  });

  it('records review_request events in the timeline: the user or the team, added then removed', async () => {
    const timeline = await ok(await api(`repos/acme/proj/issues/${n}/timeline`));
    expectNullableShape(timeline, '[TimelineComment]');
    const events = timeline.filter((e: { type: string }) => e.type === 'review_request')
      .map((e: { assignee: { login: string } | null; assignee_team: { name: string } | null; removed_assignee: boolean }) =>
        [e.assignee?.login ?? null, e.assignee_team?.name ?? null, e.removed_assignee]);
    expect(events).toEqual([['bob', null, false], [null, 'reviewers', false], [null, 'reviewers', true]]);
  });
});

describe('which teams may be asked', () => {
  it('a private repository needs the team to reach it (422 otherwise)', async () => {
    await privBranch('hidden', { 'h.txt': 'h\n' });
    const { number } = await openPull('acme/secret', 'hidden');
    const refused = await ok(await requested('acme/secret', number, 'POST', { team_reviewers: ['outsiders'] }), 422);
    expect(refused.message).toMatch(/outsiders/);
    const made = await ok(await requested('acme/secret', number, 'POST', { team_reviewers: ['reviewers', 'everything'] }), 201);
    expectNullableShape(made, '[PullReview]');
    expect(made.map((r: { team: { name: string } }) => r.team.name)).toEqual(['reviewers', 'everything']);
  });

  it('any team of the organization may review a public repository (as Gitea)', async () => {
    await branch('two', { 'two.txt': 'two\n' });
    const { number } = await openPull('acme/proj', 'two');
    await ok(await requested('acme/proj', number, 'POST', { team_reviewers: ['outsiders'] }), 201);
    expect(teamNames(await ok(await api(`repos/acme/proj/pulls/${number}`)))).toEqual(['outsiders']);
  });

  it('a user repository has no teams: the names are ignored, as Gitea does', async () => {
    await createRepo(s, alice, 'mine', { auto_init: true, default_branch: 'main' });
    await (await cloneWork(s, 'alice', 'mine', alice)).branch('topic', { 't.txt': 't\n' });
    const { number } = await openPull('alice/mine', 'topic');
    expect(await ok(await requested('alice/mine', number, 'POST', { team_reviewers: ['reviewers'] }), 201)).toEqual([]);
    expect((await ok(await api(`repos/alice/mine/pulls/${number}`))).requested_reviewers_teams).toEqual([]);
  });

  it('a team request is official when the team writes code under the base branch rule', async () => {
    await ok(await api('repos/acme/proj/branch_protections', 'POST', { rule_name: 'main' }), 201);
    await branch('three', { 'three.txt': 'three\n' });
    const { number } = await openPull('acme/proj', 'three');
    const made = await ok(await requested('acme/proj', number, 'POST', { team_reviewers: ['reviewers', 'readers'] }), 201);
    expect(made.map((r: { official: boolean }) => r.official)).toEqual([true, false]);
    await ok(await api('repos/acme/proj/branch_protections/main', 'DELETE'), 204);
  });
});

describe('creating a pull request with reviewers', () => {
  it('requests the users and teams given (201)', async () => {
    await branch('four', { 'four.txt': 'four\n' });
    const pr = await openPull('acme/proj', 'four', { reviewers: ['bob'], team_reviewers: ['reviewers'] });
    expectNullableShape(pr, 'PullRequest');
    expect(pr.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['bob']);
    expect(teamNames(pr)).toEqual(['reviewers']);
    const reviews = await ok(await api(`repos/acme/proj/pulls/${pr.number}/reviews`));
    expectNullableShape(reviews, '[PullReview]');
    expect(reviews.map((r: { state: string }) => r.state)).toEqual(['REQUEST_REVIEW', 'REQUEST_REVIEW']);
  });

  it('refuses unknown names and the poster before creating anything', async () => {
    await branch('five', { 'five.txt': 'five\n' });
    const body = { head: 'five', base: 'main', title: 'five' };
    expect((await api('repos/acme/proj/pulls', 'POST', { ...body, team_reviewers: ['nobody'] })).status).toBe(404);
    expect((await api('repos/acme/proj/pulls', 'POST', { ...body, reviewers: ['nobody'] })).status).toBe(404);
    expect((await api('repos/acme/proj/pulls', 'POST', { ...body, reviewers: ['alice'] })).status).toBe(422);
    // Nothing was created: the same branch opens a pull request now.
    await openPull('acme/proj', 'five');
  });
});

describe('deleting a team', () => {
  it('drops its requests: pulls and reviews stay well formed', async () => {
    const org = (await ok(await api('orgs/acme'))) as { id: number };
    const temp = await addTeam(s, org.id, 'temporary');
    await branch('six', { 'six.txt': 'six\n' });
    const { number } = await openPull('acme/proj', 'six', { team_reviewers: ['temporary', 'reviewers'] });
    await ok(await api(`teams/${temp}`, 'DELETE'), 204);
    const pr = await ok(await api(`repos/acme/proj/pulls/${number}`));
    expectNullableShape(pr, 'PullRequest');
    expect(teamNames(pr)).toEqual(['reviewers']);
    const reviews = await ok(await api(`repos/acme/proj/pulls/${number}/reviews`));
    expectNullableShape(reviews, '[PullReview]');
    expect(reviews.map((r: { team: { name: string } }) => r.team.name)).toEqual(['reviewers']);
  });
});

describe('team members hear of a team request', () => {
  it('notifies every member who can read the pull, never its poster', async () => {
    const org = (await ok(await api('orgs/acme'))) as { id: number };
    // alice (the poster) and carol are members; only carol gets a thread.
    const t = await addTeam(s, org.id, 'notified', { uids: [alice.id, carol.id] });
    await ok(await api(`teams/${t}/repos/acme/proj`, 'PUT'), 204);
    await branch('seven', { 'seven.txt': 'seven\n' });
    const { number } = await openPull('acme/proj', 'seven');
    const threadsOf = async (who: Creds) => (await ok(await api('notifications?all=true', 'GET', undefined, who)))
      .filter((n: { subject: { html_url: string } }) => n.subject.html_url.endsWith(`/pulls/${number}`));
    expect(await threadsOf(carol)).toHaveLength(0);
    await ok(await requested('acme/proj', number, 'POST', { team_reviewers: ['notified'] }), 201);
    expect(await threadsOf(carol)).toHaveLength(1);
    expect(await threadsOf(alice)).toHaveLength(0);
  });
});
