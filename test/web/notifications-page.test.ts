import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, ok, type Creds } from '../helpers/pull-fixtures';
import { createUser, startTestServer, type TestServer } from '../helpers/server';
import { eventually } from '../helpers/wait';
import { signedInClient, type WebClient } from '../helpers/web-client';

// The notifications page over HTTP: unread and read tabs grouped by repository, a thread
// marked read, unread and pinned, one repository's threads or all of them marked read; each
// change checked through the API. Another user's thread is not theirs to mark.

let s: TestServer;
let alice: Creds;
let bob: Creds;
let web: WebClient;

const api = (p: string, method = 'GET', body?: unknown, who: Creds = alice) =>
  s.request(`api/v1/${p}`, { method, auth: as(who), json: body });

/** Alice's threads as the API lists them (all statuses). */
const threads = async (): Promise<{ id: number; unread: boolean; pinned: boolean; repository: { name: string }; subject: { title: string } }[]> =>
  ok(await api('notifications?all=true'));

/** An issue of alice's in `repo` that bob comments on: a thread for alice. */
async function threadOn(repo: string, title: string): Promise<number> {
  const { number } = await ok(await api(`repos/alice/${repo}/issues`, 'POST', { title }), 201);
  await ok(await api(`repos/alice/${repo}/issues/${number}/comments`, 'POST', { body: 'hello' }, bob), 201);
  let id = 0;
  await eventually(async () => { id = (await threads()).find((t) => t.subject.title === title)?.id ?? 0; return id > 0; }, 10_000, `a thread on ${title}`);
  return id;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  bob = await createUser(s, 'bob');
  await createRepo(s, alice, 'one', { auto_init: true });
  await createRepo(s, alice, 'two', { auto_init: true });
  web = await signedInClient(s, 'alice', alice.password);
});
afterAll(async () => { await s.stop(); });

describe('notifications', () => {
  it('lists unread threads by repository; marks one read, unread and pinned', async () => {
    const id = await threadOn('one', 'First thread');
    const page = await (await web.get('notifications')).text();
    expect(page).toContain('aria-label="alice/one"');
    expect(page).toContain('>First thread #1</a>');
    const mark = (status: string, back = 'unread') => web.post(`notifications/threads/${id}`, { status, back }, { from: 'notifications' });
    const read = await mark('read');
    expect(read.status).toBe(303);
    expect((await threads()).find((t) => t.id === id)?.unread).toBe(false);
    expect(await (await web.get('notifications')).text()).not.toContain('First thread');
    expect(await (await web.get('notifications?type=read')).text()).toContain('First thread');
    expect((await mark('unread', 'read')).status).toBe(303);
    expect((await threads()).find((t) => t.id === id)?.unread).toBe(true);
    expect((await mark('pinned')).status).toBe(303);
    expect((await threads()).find((t) => t.id === id)?.pinned).toBe(true);
    expect(await (await web.get('notifications')).text()).toContain('pinned');
  });

  it("the header's count, read with the browser session, follows the threads' marks", async () => {
    const mine = await createUser(s, 'carol');
    await createRepo(s, mine, 'counted', { auto_init: true });
    const carol = await signedInClient(s, 'carol', mine.password);
    const header = async () => /aria-label="Notifications, (\d+) unread"/.exec(await (await carol.get('carol/counted')).text())?.[1];
    expect(await header()).toBe('0');
    const { number } = await ok(await api('repos/carol/counted/issues', 'POST', { title: 'Counted' }, mine), 201);
    await ok(await api(`repos/carol/counted/issues/${number}/comments`, 'POST', { body: 'hello' }, bob), 201);
    await eventually(async () => (await header()) === '1', 10_000, 'one unread in the header');
    await ok(await api('notifications', 'PUT', {}, mine), 205);
    expect(await header()).toBe('0');
  });

  it("marks one repository's threads read, then all of them", async () => {
    const [a, b] = [await threadOn('one', 'In one'), await threadOn('two', 'In two')];
    const two = (await threads()).find((t) => t.id === b)!;
    const page = await (await web.get('notifications')).text();
    const repoId = new RegExp(`aria-label="alice/two"[\\s\\S]*?name="repo" value="(\\d+)"`).exec(page)?.[1];
    expect(repoId, two.repository.name).toBeDefined();
    expect((await web.post('notifications/read', { repo: repoId! }, { from: 'notifications' })).status).toBe(303);
    let list = await threads();
    expect([list.find((t) => t.id === a)?.unread, list.find((t) => t.id === b)?.unread]).toEqual([true, false]);
    expect((await web.post('notifications/read', {}, { from: 'notifications' })).status).toBe(303);
    list = await threads();
    expect(list.find((t) => t.id === a)?.unread).toBe(false);
  });

  it("refuses to mark another user's thread, and sends anonymous visitors to sign in", async () => {
    const id = await threadOn('one', 'Not bobs');
    const bobWeb = await signedInClient(s, 'bob', bob.password);
    const res = await bobWeb.post(`notifications/threads/${id}`, { status: 'read' }, { from: 'notifications' });
    expect(res.status).toBe(403);
    expect((await threads()).find((t) => t.id === id)?.unread).toBe(true);
    const anon = await s.request('notifications', { redirect: 'manual' });
    expect(anon.status).toBe(303);
  });
});
