import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, basicHeader, createToken, createUser, json, startTestServer, type TestServer } from '../helpers/server';
import { expectShape } from '../helpers/swagger';

type Creds = { username: string; password: string; id: number };

let s: TestServer;
let owner: Creds;
let watcher: Creds;
let assignee: Creds;
let commenter: Creds;
let outsider: Creds;

const api = (path: string, init: Parameters<TestServer['request']>[1] = {}) => s.request(`api/v1/${path}`, init);
const comment = (repo: string, index: number, body: string, who: Creds) =>
  api(`repos/owner/${repo}/issues/${index}/comments`, { method: 'POST', auth: as(who), json: { body } });

/** fetch drops bodies of 205 answers (a "null body status"); Gitea's carry JSON: read it raw. */
function reset(method: string, path: string, who: Creds): Promise<{ status: number; body: any }> {
  const url = new URL(`api/v1/${path}`, s.hearth.config.server.root_url);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { Authorization: basicHeader(who.username, who.password) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Thread JSON with Gitea's null `parent` dropped from its repository (not nullable in the reference). */
function expectThreads(body: unknown, list = true): void {
  const strip = (t: Record<string, any>) => {
    const repository = { ...t.repository };
    for (const k of ['parent', 'repo_transfer']) if (repository[k] === null) delete repository[k];
    return { ...t, repository };
  };
  if (list) expectShape((body as Record<string, any>[]).map(strip), '[NotificationThread]');
  else expectShape(strip(body as Record<string, any>), 'NotificationThread');
}

async function threads(who: Creds, query = ''): Promise<any[]> {
  const res = await api(`notifications${query}`, { auth: as(who) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectThreads(body);
  return body;
}

const threadOn = async (who: Creds, repo: string, index: number, query = '?all=true') =>
  (await threads(who, query)).find((t) => t.repository.name === repo && t.subject.url.endsWith(`/issues/${index}`));

const newCount = async (who: Creds) => {
  const res = await api('notifications/new', { auth: as(who) });
  expect(res.status).toBe(200);
  const body = await json(res);
  expectShape(body, 'NotificationCount');
  return body.new as number;
};

beforeAll(async () => {
  s = await startTestServer();
  owner = await createUser(s, 'owner');
  watcher = await createUser(s, 'watcher');
  assignee = await createUser(s, 'assignee');
  commenter = await createUser(s, 'commenter');
  outsider = await createUser(s, 'outsider');
  for (const name of ['pub', 'later-private']) {
    await api('user/repos', { method: 'POST', auth: as(owner), json: { name } });
  }
  await api('repos/owner/pub/collaborators/assignee', { method: 'PUT', auth: as(owner), json: { permission: 'write' } });
  expect((await api('repos/owner/pub/subscription', { method: 'PUT', auth: as(watcher) })).status).toBe(200);
  const res = await api('repos/owner/pub/issues', { method: 'POST', auth: as(owner), json: { title: 'first', assignees: ['assignee'] } });
  expect(res.status).toBe(201);
});
afterAll(async () => { await s.stop(); });

describe('threads on issue events', () => {
  it('reaches the repository watcher and the assignee on creation, not the poster', async () => {
    const w = await threadOn(watcher, 'pub', 1);
    expect(w).toMatchObject({ unread: true, pinned: false, subject: { title: 'first', type: 'Issue', state: 'open' } });
    expect(await threadOn(assignee, 'pub', 1)).toMatchObject({ unread: true });
    expect(await threadOn(owner, 'pub', 1)).toBeUndefined();
  });

  it('a comment by someone else reaches watcher, assignee and poster, not the commenter', async () => {
    for (const u of [watcher, assignee]) {
      expect((await api('notifications', { method: 'PUT', auth: as(u) })).status).toBe(205);
      expect(await newCount(u)).toBe(0);
    }
    const res = await comment('pub', 1, 'hello', commenter);
    expect(res.status).toBe(201);
    const c = await json(res);
    for (const u of [watcher, assignee, owner]) {
      const t = await threadOn(u, 'pub', 1, '');
      expect(t, u.username).toMatchObject({ unread: true, subject: { latest_comment_html_url: c.html_url } });
      expect(t.subject.latest_comment_url).toMatch(new RegExp(`/api/v1/repos/owner/pub/issues/comments/${c.id}$`));
      expect(t.url).toBe(`${s.hearth.config.server.root_url}api/v1/notifications/threads/${t.id}`);
      expect(t.repository.full_name).toBe('owner/pub');
      expect(t.repository.permissions).toBeUndefined();
      expect(await newCount(u)).toBe(1);
    }
    expect(await threadOn(commenter, 'pub', 1)).toBeUndefined();
  });

  it('an issue unsubscription (is_watching = 0) opts the watcher out', async () => {
    const now = Math.floor(Date.now() / 1000);
    const issue = await s.hearth.db.selectFrom('issue').select('id').where('index', '=', 1).executeTakeFirstOrThrow();
    await s.hearth.db.insertInto('issue_watch')
      .values({ user_id: watcher.id, issue_id: issue.id, is_watching: 0, created_unix: now, updated_unix: now }).execute();
    await api('notifications', { method: 'PUT', auth: as(watcher) });
    expect((await comment('pub', 1, 'again', owner)).status).toBe(201);
    expect(await newCount(watcher)).toBe(0);
    expect(await threadOn(commenter, 'pub', 1, '')).toMatchObject({ unread: true });
    await s.hearth.db.deleteFrom('issue_watch').where('user_id', '=', watcher.id).execute();
  });

  it('closing reaches everyone concerned; a new assignment only the new assignee', async () => {
    await api('notifications', { method: 'PUT', auth: as(watcher) });
    const closed = await api('repos/owner/pub/issues/1', { method: 'PATCH', auth: as(owner), json: { state: 'closed' } });
    expect(closed.status).toBe(201);
    expect(await threadOn(watcher, 'pub', 1, '')).toMatchObject({ unread: true, subject: { state: 'closed' } });

    await api('repos/owner/pub/collaborators/commenter', { method: 'PUT', auth: as(owner), json: { permission: 'write' } });
    await api('repos/owner/pub/issues', { method: 'POST', auth: as(assignee), json: { title: 'second' } });
    for (const u of [watcher, commenter, owner]) await api('notifications', { method: 'PUT', auth: as(u) });
    const res = await api('repos/owner/pub/issues/2', { method: 'PATCH', auth: as(owner), json: { assignees: ['commenter'] } });
    expect(res.status).toBe(201);
    expect(await threadOn(commenter, 'pub', 2, '')).toMatchObject({ unread: true, subject: { title: 'second' } });
    expect(await threadOn(watcher, 'pub', 2, '')).toBeUndefined();
  });

  it('an @mention reaches a user who reads the repository', async () => {
    expect(await threadOn(outsider, 'pub', 2)).toBeUndefined();
    expect((await comment('pub', 2, 'what do you think, @outsider?', commenter)).status).toBe(201);
    expect(await threadOn(outsider, 'pub', 2, '')).toMatchObject({ unread: true, subject: { title: 'second' } });
  });

  it('a user who cannot read a private repository gets no thread', async () => {
    expect((await api('repos/owner/later-private/issues', { method: 'POST', auth: as(owner), json: { title: 'x' } })).status).toBe(201);
    expect((await comment('later-private', 1, 'me too', outsider)).status).toBe(201);
    const edit = await api('repos/owner/later-private', { method: 'PATCH', auth: as(owner), json: { private: true } });
    expect(edit.status).toBe(200);
    expect((await comment('later-private', 1, 'private now, @outsider', owner)).status).toBe(201);
    expect((await threads(outsider, '?all=true')).filter((t) => t.repository.name === 'later-private')).toEqual([]);
  });
});

describe('reading and marking threads', () => {
  it('PATCH marks read by default, then pinned; filters follow', async () => {
    await comment('pub', 1, 'ping', commenter);
    const t = await threadOn(watcher, 'pub', 1, '');
    let { status, body } = await reset('PATCH', `notifications/threads/${t.id}`, watcher);
    expect(status).toBe(205);
    expectThreads(body, false);
    expect(body).toMatchObject({ id: t.id, unread: false, pinned: false });
    expect(await threadOn(watcher, 'pub', 1, '')).toBeUndefined();
    expect(await threadOn(watcher, 'pub', 1, '?status-types=read')).toMatchObject({ id: t.id });

    ({ status, body } = await reset('PATCH', `notifications/threads/${t.id}?to-status=pinned`, watcher));
    expect(status).toBe(205);
    expect(body).toMatchObject({ unread: false, pinned: true });
    expect(await threadOn(watcher, 'pub', 1, '')).toMatchObject({ pinned: true });
    expect(await threadOn(watcher, 'pub', 1, '?status-types=unread')).toBeUndefined();

    const res = await api(`notifications/threads/${t.id}`, { auth: as(watcher) });
    expect(res.status).toBe(200);
    expectThreads(await json(res), false);
  });

  it('subject-type and the repository listing filter', async () => {
    expect(await threads(watcher, '?all=true&subject-type=pull')).toEqual([]);
    expect((await threads(watcher, '?all=true&subject-type=issue')).length).toBeGreaterThan(0);
    const res = await api('repos/owner/pub/notifications?all=true', { auth: as(watcher) });
    expect(res.status).toBe(200);
    const body = await json(res);
    expectThreads(body);
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((t: any) => t.repository.full_name === 'owner/pub')).toBe(true);
    expect(res.headers.get('X-Total-Count')).toBe(String(body.length));
  });

  it('PUT marks the unread ones read (205 with the changed threads); last_read_at bounds it', async () => {
    await comment('pub', 2, 'for owner', commenter);
    expect(await newCount(owner)).toBeGreaterThan(0);
    let res = await reset('PUT', 'notifications?last_read_at=2000-01-01T00:00:00Z', owner);
    expect(res).toEqual({ status: 205, body: [] });
    expect((await api('notifications?last_read_at=yesterday', { method: 'PUT', auth: as(owner) })).status).toBe(400);
    res = await reset('PUT', 'repos/owner/pub/notifications', owner);
    expect(res.status).toBe(205);
    const body = res.body;
    expectThreads(body);
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((t: any) => !t.unread && !t.pinned && t.repository.name === 'pub')).toBe(true);
    expect(await json(await api('repos/owner/pub/notifications', { auth: as(owner) }))).toEqual([]);
    expect(await newCount(owner)).toBe(1); // later-private, outside the repository marked
    expect((await reset('PUT', 'notifications', owner)).status).toBe(205);
    expect(await newCount(owner)).toBe(0);
  });

  it('another user\'s thread is 403, a missing one 404, anonymous 401', async () => {
    const t = await threadOn(watcher, 'pub', 1);
    expect((await api(`notifications/threads/${t.id}`, { auth: as(commenter) })).status).toBe(403);
    expect((await api(`notifications/threads/${t.id}`, { method: 'PATCH', auth: as(commenter) })).status).toBe(403);
    expect((await api('notifications/threads/999999', { auth: as(watcher) })).status).toBe(404);
    expect((await api('notifications/threads/999999', { method: 'PATCH', auth: as(watcher) })).status).toBe(404);
    expect((await api('notifications')).status).toBe(401);
    expect((await api('notifications/new')).status).toBe(401);
  });

  it('needs the notification token scope', async () => {
    const good = await createToken(s, watcher, ['read:notification']);
    const bad = await createToken(s, watcher, ['read:repository']);
    expect((await api('notifications', { auth: { token: good } })).status).toBe(200);
    expect((await api('notifications', { auth: { token: bad } })).status).toBe(403);
    expect((await api('notifications', { method: 'PUT', auth: { token: good } })).status).toBe(403);
  });
});
