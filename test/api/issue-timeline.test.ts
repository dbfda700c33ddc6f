import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createUser, issueApi, json, type Creds } from '../helpers/issue-fixtures';
import { expectNullableShape } from '../helpers/issue-shape';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let h: ReturnType<typeof issueApi>;
let owner: Creds;
let dev: Creds;
let outsider: Creds;

type Entry = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const post = async (path: string, body: unknown, method = 'POST') => {
  const res = await h.api(`repos/lowner/tl/${path}`, { method, auth: as(owner), json: body });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return json(res);
};
const timeline = async (query = '', who: Creds = owner): Promise<Entry[]> => {
  const res = await h.api(`repos/lowner/tl/issues/1/timeline${query}`, { auth: as(who) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectNullableShape(body, '[TimelineComment]');
  return body;
};

beforeAll(async () => {
  s = await startTestServer();
  h = issueApi(s);
  owner = await createUser(s, 'lowner');
  dev = await createUser(s, 'ldev');
  outsider = await createUser(s, 'loutsider');
  await h.makeRepo(owner, 'tl');
  await h.makeRepo(owner, 'private', { private: true });
  await h.collaborator(owner, 'tl', dev, 'write');
  await h.issue(owner, 'lowner/tl', 'first');
  await h.issue(owner, 'lowner/tl', 'second');
  const label = await post('labels', { name: 'bug', color: '#ff0000' });
  const milestone = await post('milestones', { title: 'v1' });
  await post('issues/1/comments', { body: 'hello' });
  await post('issues/1/labels', { labels: [label.id] });
  await post('issues/1', { milestone: milestone.id, assignees: ['ldev'], title: 'renamed', ref: 'refs/heads/x' }, 'PATCH');
  await post('issues/1', { state: 'closed' }, 'PATCH');
  await post('issues/1', { state: 'open' }, 'PATCH');
  await post('issues/1/dependencies', { index: 2 });
  await post('issues/1/times', { time: 5400 });
  await post('issues/1/deadline', { due_date: '2031-01-02T00:00:00Z' });
});
afterAll(async () => { await s.stop(); });

describe('GET /repos/{owner}/{repo}/issues/{index}/timeline', () => {
  it('lists comments and events oldest first with their details', async () => {
    const all = await timeline();
    const types = all.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining([
      'comment', 'label', 'milestone', 'assignees', 'change_title', 'change_issue_ref', 'close', 'reopen',
      'add_dependency', 'add_time_manual', 'added_deadline',
    ]));
    expect(types.indexOf('comment')).toBeLessThan(types.indexOf('close'));
    const by = (t: string) => all.find((e) => e.type === t)!;
    expect(by('comment')).toMatchObject({ body: 'hello', user: { login: 'lowner' } });
    expect(by('comment').html_url).toMatch(/\/lowner\/tl\/issues\/1#issuecomment-\d+$/);
    expect(by('label')).toMatchObject({ body: '1', label: { name: 'bug' } });
    expect(by('milestone')).toMatchObject({ milestone: { title: 'v1' }, old_milestone: null });
    expect(by('assignees')).toMatchObject({ assignee: { login: 'ldev' }, removed_assignee: false });
    expect(by('change_title')).toMatchObject({ old_title: 'first', new_title: 'renamed' });
    expect(by('change_issue_ref')).toMatchObject({ old_ref: '', new_ref: 'refs/heads/x' });
    expect(by('add_dependency').dependent_issue).toMatchObject({ number: 2, title: 'second' });
    expect(by('add_time_manual')).toMatchObject({ body: '1 hour 30 minutes', tracked_time: { time: 5400 } });
    expect(by('added_deadline').body).toBe('2031-01-02');
    const res = await h.api('repos/lowner/tl/issues/1/timeline', { auth: as(owner) });
    expect(res.headers.get('x-total-count')).toBe(String(all.length));
  });

  it('pages when asked', async () => {
    const all = await timeline();
    const first = await timeline('?page=1&limit=3');
    const second = await timeline('?page=2&limit=3');
    expect(first.map((e) => e.id)).toEqual(all.slice(0, 3).map((e) => e.id));
    expect(second.map((e) => e.id)).toEqual(all.slice(3, 6).map((e) => e.id));
  });

  it('filters by since and before (updated time), and refuses bad times (422)', async () => {
    expect(await timeline('?since=2999-01-01T00:00:00Z')).toEqual([]);
    expect(await timeline('?before=2000-01-01T00:00:00Z')).toEqual([]);
    expect((await timeline('?since=2000-01-01T00:00:00Z')).length).toBeGreaterThan(5);
    expect((await h.api('repos/lowner/tl/issues/1/timeline?since=nope', { auth: as(owner) })).status).toBe(422);
  });

  it('hides the details of issues the caller cannot read', async () => {
    await h.issue(owner, 'lowner/private', 'hidden');
    await post('issues/2/dependencies', { index: 1, owner: 'lowner', repo: 'private' });
    const res = await h.api('repos/lowner/tl/issues/2/timeline', { auth: as(outsider) });
    const entries: Entry[] = await json(res);
    const deps = entries.filter((e) => e.type === 'add_dependency');
    expect(deps.map((e) => e.dependent_issue?.repository?.name ?? null)).toEqual(['tl', null]);
  });

  it('shows references from issues and comments (issue_ref, comment_ref), once each', async () => {
    await h.issue(owner, 'lowner/tl', 'see #1 and (#1)'); // #3
    const c = await post('issues/2/comments', { body: 'related to lowner/tl#1.' });
    await post('issues/2/comments', { body: 'self #2 and missing #99' });
    const all = await timeline();
    const issueRef = all.filter((e) => e.type === 'issue_ref');
    expect(issueRef).toHaveLength(1);
    expect(issueRef[0]).toMatchObject({ ref_issue: { number: 3 }, ref_comment: null, ref_action: 'none' });
    const commentRef = all.filter((e) => e.type === 'comment_ref');
    expect(commentRef).toHaveLength(1);
    expect(commentRef[0]).toMatchObject({ ref_issue: { number: 2 }, ref_comment: { id: c.id, body: 'related to lowner/tl#1.' } });
    const two = await h.api('repos/lowner/tl/issues/2/timeline', { auth: as(owner) });
    expect((await json(two)).filter((e: Entry) => e.type.endsWith('_ref'))).toEqual([]);
  });

  it('hides references from repositories the caller cannot read', async () => {
    const res = await h.api('repos/lowner/private/issues', { method: 'POST', auth: as(owner), json: { title: 'x', body: 'see lowner/tl#1' } });
    expect(res.status).toBe(201);
    const mine = (await timeline()).filter((e) => e.type === 'issue_ref');
    expect(mine.map((e) => e.ref_issue.repository.name)).toEqual(['tl', 'private']);
    const theirs = (await timeline('', outsider)).filter((e) => e.type === 'issue_ref');
    expect(theirs.map((e) => e.ref_issue.repository.name)).toEqual(['tl']);
  });

  it('answers 404 for a missing issue', async () => {
    expect((await h.api('repos/lowner/tl/issues/77/timeline', { auth: as(owner) })).status).toBe(404);
  });
});
