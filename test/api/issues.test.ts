import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNullableShape } from '../helpers/issue-shape';
import { as, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectAllFields, expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let writer: Creds;
let reader: Creds;
let outsider: Creds;

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const createIssue = (repo: string, body: Record<string, unknown>, who: Creds = owner) =>
  api(`repos/owner/${repo}/issues`, { method: 'POST', auth: as(who), json: body });
const editIssue = (repo: string, index: number, body: Record<string, unknown>, who: Creds = owner) =>
  api(`repos/owner/${repo}/issues/${index}`, { method: 'PATCH', auth: as(who), json: body });
const repoRow = (name: string) => s.hearth.db.selectFrom('repository').selectAll().where('lower_name', '=', name).executeTakeFirstOrThrow();
const issueRow = async (repo: string, index: number) => {
  const r = await repoRow(repo);
  return s.hearth.db.selectFrom('issue').selectAll().where('repo_id', '=', r.id).where('index', '=', index).executeTakeFirstOrThrow();
};

async function makeRepo(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await api('user/repos', { method: 'POST', auth: as(owner), json: { name, ...extra } });
  if (res.status !== 201) throw new Error(`repo ${name}: ${res.status} ${await res.text()}`);
}

async function collaborator(repo: string, user: Creds, permission: string): Promise<void> {
  const res = await api(`repos/owner/${repo}/collaborators/${user.username}`, { method: 'PUT', auth: as(owner), json: { permission } });
  if (res.status !== 204) throw new Error(`collaborator: ${res.status}`);
}

beforeAll(async () => {
  s = await startTestServer({ HEARTH__SERVICE__INITIAL_ADMIN_EMAIL: 'root@example.com' });
  owner = await createUser(s, 'owner');
  writer = await createUser(s, 'writer');
  reader = await createUser(s, 'reader');
  outsider = await createUser(s, 'outsider');
  await makeRepo('pub');
  await makeRepo('priv', { private: true });
  await makeRepo('many');
  for (const repo of ['pub', 'priv']) {
    await collaborator(repo, writer, 'write');
    await collaborator(repo, reader, 'read');
  }
});
afterAll(async () => { await s.stop(); });

describe('POST /repos/{owner}/{repo}/issues', () => {
  it('creates issue #1 with every Issue field (201)', async () => {
    const res = await createIssue('pub', { title: 'First', body: 'Hello', ref: 'main' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectNullableShape(body, 'Issue');
    expectAllFields(body, 'Issue');
    const root = s.hearth.config.server.root_url;
    expect(body).toMatchObject({
      number: 1, title: 'First', body: 'Hello', ref: 'main', state: 'open', comments: 0, is_locked: false,
      labels: [], assets: [], milestone: null, assignee: null, assignees: null, pull_request: null,
      closed_at: null, due_date: null, original_author: '', time_estimate: 0, pin_order: 0,
      url: `${root}api/v1/repos/owner/pub/issues/1`, html_url: `${root}owner/pub/issues/1`,
      repository: { name: 'pub', owner: 'owner', full_name: 'owner/pub' },
    });
    expect(body.user.login).toBe('owner');
    expect((await repoRow('pub')).num_issues).toBe(1);
  });

  it('refuses a missing or empty title, a bad due date, an unknown label or assignee (422)', async () => {
    for (const bad of [{}, { title: '' }, { title: '  ' }, { title: 'x', due_date: 'tomorrow' }, { title: 'x', due_date: '2024-02-30T00:00:00Z' },
      { title: 'x', labels: [999999] }, { title: 'x', assignees: ['nobody-here'] }, { title: 'x', assignee: 'nobody-here' },
      { title: 'x', assignees: ['outsider'] }, { title: 42 }]) {
      const res = await createIssue('pub', bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
    }
  });

  it('keeps only the date of due_date: the end of that day', async () => {
    const body = await json(await createIssue('pub', { title: 'Due', due_date: '2030-03-10T01:04:05+09:00' }));
    expect(body.due_date).toBe('2030-03-10T23:59:59Z');
    const plain = await json(await createIssue('pub', { title: 'Due plain', due_date: '2030-04-01' }));
    expect(plain.due_date).toBe('2030-04-01T23:59:59Z');
  });

  it('takes labels, milestone, assignees (and the deprecated assignee) and closed from a writer', async () => {
    const label = await json(await api('repos/owner/pub/labels', { method: 'POST', auth: as(owner), json: { name: 'bug', color: '#ff0000' } }));
    const ms = await json(await api('repos/owner/pub/milestones', { method: 'POST', auth: as(owner), json: { title: 'v1' } }));
    const res = await createIssue('pub', { title: 'Full', labels: [label.id], milestone: ms.id, assignees: ['writer'], assignee: 'owner', closed: true }, writer);
    expect(res.status).toBe(201);
    const body = await json(res);
    expectNullableShape(body, 'Issue');
    expect(body.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    expect(body.milestone).toMatchObject({ id: ms.id, title: 'v1', open_issues: 0, closed_issues: 1 });
    expect(body.assignees.map((u: { login: string }) => u.login).sort()).toEqual(['owner', 'writer']);
    expect(body.assignee.login).toBe(body.assignees[0].login);
    expect(body.state).toBe('closed');
    expect(body.closed_at).toEqual(expect.any(String));
    const repo = await repoRow('pub');
    expect(repo.num_closed_issues).toBe(1);
    const labelRow = await s.hearth.db.selectFrom('label').selectAll().where('id', '=', label.id).executeTakeFirstOrThrow();
    expect([labelRow.num_issues, labelRow.num_closed_issues]).toEqual([1, 1]);
    // Events for the timeline: label, assignees, milestone, close.
    const types = (await s.hearth.db.selectFrom('comment').select('type').where('issue_id', '=', body.id).orderBy('id').execute()).map((c) => c.type);
    expect(types.sort((a, b) => a - b)).toEqual([2, 7, 8, 9, 9]);
  });

  it('drops labels, milestone, assignees and due date from a non-writer, and an unknown milestone from anyone', async () => {
    const [label] = await json(await api('repos/owner/pub/labels'));
    const res = await createIssue('pub', { title: 'From reader', labels: [label.id], assignees: ['owner'], due_date: '2030-01-01T00:00:00Z' }, reader);
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ labels: [], assignees: null, due_date: null, user: { login: 'reader' } });
    expect((await json(await createIssue('pub', { title: 'No such milestone', milestone: 987654 }))).milestone).toBeNull();
  });

  it('numbers 50 concurrent creates 1..50 without gaps or duplicates', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => createIssue('many', { title: `c${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = (await Promise.all(results.map(json))).map((b) => b.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await repoRow('many')).num_issues).toBe(50);
  });

  it('never reuses the number of a deleted issue', async () => {
    expect((await api('repos/owner/many/issues/50', { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await json(await createIssue('many', { title: 'after delete' }))).number).toBe(51);
    expect((await repoRow('many')).num_issues).toBe(50);
  });

  it('needs sign-in (401) and the issue scope on tokens (403)', async () => {
    expect((await api('repos/owner/pub/issues', { method: 'POST', json: { title: 'anon' } })).status).toBe(401);
    const repoOnly = await createToken(s, owner, ['write:repository']);
    expect((await api('repos/owner/pub/issues', { method: 'POST', auth: { token: repoOnly }, json: { title: 't' } })).status).toBe(403);
    const issueToken = await createToken(s, owner, ['write:issue']);
    expect((await api('repos/owner/pub/issues', { method: 'POST', auth: { token: issueToken }, json: { title: 't' } })).status).toBe(201);
  });
});

describe('GET /repos/{owner}/{repo}/issues/{index}', () => {
  it('answers an issue, 404 for a missing or non-numeric index', async () => {
    const res = await api('repos/owner/pub/issues/1');
    expect(res.status).toBe(200);
    expectNullableShape(await json(res), 'Issue');
    expect((await api('repos/owner/pub/issues/9999')).status).toBe(404);
    expect((await api('repos/owner/pub/issues/abc')).status).toBe(404);
  });

  it('hides a private repository\'s issues from outsiders and anonymous callers (404)', async () => {
    expect((await createIssue('priv', { title: 'secret' })).status).toBe(201);
    expect((await api('repos/owner/priv/issues/1', { auth: as(outsider) })).status).toBe(404);
    expect((await api('repos/owner/priv/issues/1')).status).toBe(404);
    expect((await api('repos/owner/priv/issues', { auth: as(outsider) })).status).toBe(404);
    expect((await api('repos/owner/priv/issues/1', { auth: as(reader) })).status).toBe(200);
  });
});

describe('PATCH /repos/{owner}/{repo}/issues/{index}', () => {
  it('edits title, body and state, answering 201; events are recorded', async () => {
    const res = await editIssue('pub', 1, { title: 'First (edited)', body: 'New body', state: 'closed' });
    expect(res.status).toBe(201);
    const body = await json(res);
    expectNullableShape(body, 'Issue');
    expect(body).toMatchObject({ title: 'First (edited)', body: 'New body', state: 'closed' });
    const row = await issueRow('pub', 1);
    expect(row.content_version).toBe(1);
    const types = (await s.hearth.db.selectFrom('comment').select('type').where('issue_id', '=', row.id).execute()).map((c) => c.type);
    expect(types.sort()).toEqual([10, 2]);
    const reopened = await json(await editIssue('pub', 1, { state: 'open' }));
    expect(reopened).toMatchObject({ state: 'open', closed_at: null });
  });

  it('refuses an older content_version with 409; each body edit increments it', async () => {
    const v = (await issueRow('pub', 1)).content_version;
    expect((await editIssue('pub', 1, { body: 'stale', content_version: v - 1 })).status).toBe(409);
    expect((await editIssue('pub', 1, { body: 'fresh', content_version: v })).status).toBe(201);
    expect((await issueRow('pub', 1)).content_version).toBe(v + 1);
    expect((await editIssue('pub', 1, { body: 'again', content_version: v })).status).toBe(409);
  });

  it('lets a reader edit their own issue but not others\' (403)', async () => {
    expect((await editIssue('pub', 1, { title: 'hijack' }, reader)).status).toBe(403);
    const own = await json(await createIssue('pub', { title: 'mine' }, reader));
    const res = await editIssue('pub', own.number, { title: 'mine, edited', state: 'closed', assignees: ['owner'] }, reader);
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ title: 'mine, edited', state: 'closed', assignees: null });
  });

  it('sets and clears assignees, milestone and due date for writers', async () => {
    const ms = await json(await api('repos/owner/pub/milestones', { method: 'POST', auth: as(owner), json: { title: 'v2' } }));
    let body = await json(await editIssue('pub', 1, { assignees: ['writer'], milestone: ms.id, due_date: '2031-05-05T10:00:00Z' }, writer));
    expect(body).toMatchObject({ assignees: [{ login: 'writer' }], milestone: { id: ms.id, open_issues: 1 }, due_date: '2031-05-05T23:59:59Z' });
    body = await json(await editIssue('pub', 1, { assignees: [], milestone: 0, unset_due_date: true }, writer));
    expect(body).toMatchObject({ assignees: null, milestone: null, due_date: null });
    const after = await json(await api(`repos/owner/pub/milestones/${ms.id}`));
    expect(after.open_issues).toBe(0);
  });

  it('refuses bad input: unknown state (412), bad date or milestone (422), empty due date (400)', async () => {
    expect((await editIssue('pub', 1, { state: 'sideways' })).status).toBe(412);
    expect((await editIssue('pub', 1, { due_date: 'soon' })).status).toBe(422);
    expect((await editIssue('pub', 1, { milestone: 424242 })).status).toBe(422);
    expect((await editIssue('pub', 1, { assignees: ['outsider'] })).status).toBe(422);
    expect((await editIssue('pub', 1, { unset_due_date: false })).status).toBe(400);
    expect((await editIssue('pub', 1, { title: 5 })).status).toBe(422);
  });
});

describe('archived repositories and disabled trackers', () => {
  it('answers 423 {message, url} to creating or editing an issue in an archived repository', async () => {
    await makeRepo('frozen');
    expect((await createIssue('frozen', { title: 'before' })).status).toBe(201);
    await api('repos/owner/frozen', { method: 'PATCH', auth: as(owner), json: { archived: true } });
    const res = await createIssue('frozen', { title: 'after' });
    expect(res.status).toBe(423);
    expect(Object.keys(await json(res)).sort()).toEqual(['message', 'url']);
    expect((await editIssue('frozen', 1, { title: 'x' })).status).toBe(423);
    expect((await api('repos/owner/frozen/issues/1')).status).toBe(200);
  });

  it('answers 404 for issues when the tracker is off', async () => {
    await makeRepo('noissues');
    expect((await createIssue('noissues', { title: 'one' })).status).toBe(201);
    await api('repos/owner/noissues', { method: 'PATCH', auth: as(owner), json: { has_issues: false } });
    expect((await createIssue('noissues', { title: 'two' })).status).toBe(404);
    expect((await api('repos/owner/noissues/issues/1')).status).toBe(404);
    expect(await json(await api('repos/owner/noissues/issues'))).toEqual([]);
    await api('repos/owner/noissues', { method: 'PATCH', auth: as(owner), json: { has_pull_requests: false } });
    expect((await api('repos/owner/noissues/issues')).status).toBe(404);
  });
});

describe('DELETE /repos/{owner}/{repo}/issues/{index}', () => {
  it('needs a repository admin (403 for writers), then 204 and exact counters', async () => {
    const issue = await json(await createIssue('pub', { title: 'doomed' }));
    expect((await api(`repos/owner/pub/issues/${issue.number}`, { method: 'DELETE', auth: as(writer) })).status).toBe(403);
    const before = await repoRow('pub');
    expect((await api(`repos/owner/pub/issues/${issue.number}`, { method: 'DELETE', auth: as(owner) })).status).toBe(204);
    expect((await repoRow('pub')).num_issues).toBe(before.num_issues - 1);
    expect((await api(`repos/owner/pub/issues/${issue.number}`)).status).toBe(404);
  });
});

describe('GET /repos/{owner}/{repo}/issues', () => {
  beforeAll(async () => {
    await makeRepo('filters');
    const l = (name: string) => api('repos/owner/filters/labels', { method: 'POST', auth: as(owner), json: { name, color: '#00aabb' } }).then(json);
    const [bug, ui] = [await l('bug'), await l('ui')];
    const ms = await json(await api('repos/owner/filters/milestones', { method: 'POST', auth: as(owner), json: { title: 'alpha' } }));
    await collaborator('filters', writer, 'write');
    await createIssue('filters', { title: 'Crash on start', body: 'it crashes', labels: [bug.id], milestone: ms.id });
    await createIssue('filters', { title: 'Button colour', body: 'ping @writer please', labels: [ui.id] }, writer);
    await createIssue('filters', { title: 'Old thing', closed: true, assignees: ['writer'] });
  });

  it('lists open issues newest first with paging headers (IssueList)', async () => {
    const res = await api('repos/owner/filters/issues?limit=1');
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, '[Issue]');
    expect(body.map((i: { number: number }) => i.number)).toEqual([2]);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    const all = await json(await api('repos/owner/filters/issues?state=all'));
    expect(all.map((i: { number: number }) => i.number)).toEqual([3, 2, 1]);
    const closed = await json(await api('repos/owner/filters/issues?state=closed'));
    expect(closed.map((i: { number: number }) => i.number)).toEqual([3]);
  });

  it('filters by labels, milestones (name or id), q, type, users and times', async () => {
    const numbers = async (query: string) => (await json(await api(`repos/owner/filters/issues?state=all&${query}`))).map((i: { number: number }) => i.number);
    expect(await numbers('labels=bug')).toEqual([1]);
    expect(await numbers('labels=bug,ui')).toEqual([2, 1]);
    expect(await numbers('labels=nosuch')).toEqual([3, 2, 1]);
    expect(await numbers('milestones=alpha')).toEqual([1]);
    const [ms] = await json(await api('repos/owner/filters/milestones'));
    expect(await numbers(`milestones=${ms.id}`)).toEqual([1]);
    expect(await numbers('q=crash')).toEqual([1]);
    expect(await numbers('q=colo')).toEqual([2]);
    expect(await numbers('q=cr')).toEqual([1]);
    expect(await numbers('q=3')).toEqual([3]);
    expect(await numbers('type=pulls')).toEqual([]);
    expect(await numbers('type=issues')).toEqual([3, 2, 1]);
    expect(await numbers('created_by=writer')).toEqual([2]);
    expect(await numbers('assigned_by=writer')).toEqual([3]);
    expect(await numbers('mentioned_by=writer')).toEqual([2]);
    expect(await numbers('since=2000-01-01T00:00:00Z')).toEqual([3, 2, 1]);
    expect(await numbers('before=2000-01-01T00:00:00Z')).toEqual([]);
    for (const odd of ['"', '"""', 'a"b"c', '***', 'NEAR(a b)', '%_%', '\\', 'x OR y', '^ab*']) {
      expect((await api(`repos/owner/filters/issues?q=${encodeURIComponent(odd)}`)).status, odd).toBe(200);
    }
    expect((await api('repos/owner/filters/issues?since=yesterday')).status).toBe(422);
    expect((await api('repos/owner/filters/issues?created_by=nobody-here')).status).toBe(404);
  });
});

describe('GET /repos/issues/search', () => {
  const titles = async (query: string, who?: Creds) =>
    (await json(await api(`repos/issues/search?${query}`, { auth: who ? as(who) : undefined }))).map((i: { title: string }) => i.title);

  it('searches across visible repositories only (IssueList)', async () => {
    const res = await api('repos/issues/search?q=secret', { auth: as(owner) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectNullableShape(body, '[Issue]');
    expect(body.map((i: { title: string }) => i.title)).toEqual(['secret']);
    expect(body[0].repository.full_name).toBe('owner/priv');
    expect(await titles('q=secret', outsider)).toEqual([]);
    expect(await titles('q=secret')).toEqual([]);
    expect(await titles('q=secret', reader)).toEqual(['secret']);
    expect(await titles('q=crash')).toEqual(['Crash on start']);
  });

  it('filters by owner, labels, state, type, created and assigned', async () => {
    expect(await titles('q=crash&owner=owner')).toEqual(['Crash on start']);
    expect((await api('repos/issues/search?owner=nobody-here')).status).toBe(400);
    expect((await api('repos/issues/search?team=x')).status).toBe(400);
    expect(await titles('labels=ui')).toEqual(['Button colour']);
    expect(await titles('state=closed&q=old')).toEqual(['Old thing']);
    expect(await titles('type=pulls')).toEqual([]);
    expect(await titles('created=true&owner=owner&q=colour', writer)).toEqual(['Button colour']);
    expect(await titles('assigned=true&state=all&q=thing', writer)).toEqual(['Old thing']);
    expect((await api('repos/issues/search?before=garbage')).status).toBe(422);
  });

  it('pages with X-Total-Count and Link', async () => {
    const res = await api('repos/issues/search?owner=owner&state=all&limit=2', { auth: as(owner) });
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(2);
    expect((await json(res)).length).toBe(2);
    expect(res.headers.get('link')).toContain('rel="next"');
    const priority = (await repoRow('filters')).id;
    const first = await json(await api(`repos/issues/search?owner=owner&priority_repo_id=${priority}&limit=2`, { auth: as(owner) }));
    expect(first.every((i: { repository: { name: string } }) => i.repository.name === 'filters')).toBe(true);
  });
});

describe('GET /repos/{owner}/{repo}/assignees', () => {
  it('lists writers and the owner (UserList), not readers', async () => {
    const res = await api('repos/owner/pub/assignees', { auth: as(reader) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectShape(body, '[User]');
    expect(body.map((u: { login: string }) => u.login)).toEqual(['writer', 'owner']);
    expect((await api('repos/owner/pub/assignees')).status).toBe(401);
  });
});
