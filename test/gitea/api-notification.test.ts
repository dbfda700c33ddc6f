import { describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { eventually } from '../helpers/wait';

// Port of Gitea 1.25's tests/integration/api_notification_test.go. Gitea's fixtures give user2
// four threads: on repo1's #1 (unread), #2 (read), #3 (pinned), and on repo2's "issue4"
// (unread, the newest). Here the kit's repo1 notifies user2 of #1, #2 and #3 (user1 opened
// them), user1's comment on repo2's issue4 the fourth; each test builds them on its own server,
// as the tests change their states. TestAPICommitNotification and TestAPIReleaseNotification
// are not ported: they test commit-mention and release threads Gitea added after 1.25.

type Thread = { id: number; unread: boolean; pinned: boolean; subject: { title: string; type: string; url: string }; repository: { name: string; html_url: string } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fourThreads(g: GiteaFixtures) {
  await g.repo1();
  await g.repo2();
  const user2 = await g.basic('user2');
  const all = async (): Promise<Thread[]> => g.call('notifications?all=true', { auth: user2 });
  const on = (list: Thread[], repo: string, n: number) =>
    list.find((t) => t.repository.name === repo && /\/(issues|pulls)\/(\d+)$/.exec(t.subject.url)?.[2] === String(n));
  let ids: Thread[] = [];
  await eventually(async () => { ids = await all(); return [1, 2, 3].every((n) => on(ids, 'repo1', n)); }, 10_000, 'repo1 threads');
  const [a, b, c] = [on(ids, 'repo1', 1)!, on(ids, 'repo1', 2)!, on(ids, 'repo1', 3)!];
  expect((await g.raw('PATCH', `notifications/threads/${b.id}?to-status=read`, user2)).status).toBe(205);
  expect((await g.raw('PATCH', `notifications/threads/${c.id}?to-status=pinned`, user2)).status).toBe(205);
  // Thread times are seconds: the fourth comes a clear second after the others.
  await sleep(1100);
  const mid = new Date().toISOString();
  await sleep(1100);
  await g.call('repos/user2/repo2/issues/1/comments', { method: 'POST', auth: await g.basic('user1'), json: { body: 'on issue4' } }, 201);
  await eventually(async () => Boolean(on(await all(), 'repo2', 1)), 10_000, 'repo2 thread');
  const d = on(await all(), 'repo2', 1)!;
  return { a: a.id, b: b.id, c: c.id, d: d.id, mid };
}

describe('api_notification_test', () => {
  it('TestAPINotification', async () => {
    const g = await startGitea();
    try {
      const t = await fourThreads(g);
      // A thread of user1's: user2 comments on the issue user1 opened.
      await g.call('repos/user2/repo1/issues/1/comments', { method: 'POST', auth: await g.basic('user2'), json: { body: 'ping' } }, 201);
      let foreign = 0;
      await eventually(async () => {
        const list: Thread[] = await g.call('notifications?all=true', { auth: await g.basic('user1') });
        foreign = list[0]?.id ?? 0;
        return foreign > 0;
      }, 10_000, 'user1 thread');

      const auth = await g.tokenAuth('user2', 'write:notification', 'write:repository');
      expect((await g.api('notifications')).status).toBe(401);
      const list = async (q: string): Promise<Thread[]> => g.call(q, { auth });
      expect((await list(`notifications?since=${encodeURIComponent(t.mid)}`)).map((x) => x.id)).toEqual([t.d]);

      const before = await list(`notifications?all=true&before=${encodeURIComponent(t.mid)}`);
      expect(before.map((x) => [x.id, x.unread, x.pinned]).sort()).toEqual([[t.a, true, false], [t.b, false, false], [t.c, false, true]].sort());

      expect((await list('repos/user2/repo1/notifications?status-types=unread')).map((x) => x.id)).toEqual([t.a]);
      const unreadPinned = await list('repos/user2/repo1/notifications?status-types=unread&status-types=pinned');
      expect(unreadPinned.map((x) => [x.id, x.unread, x.pinned]).sort()).toEqual([[t.a, true, false], [t.c, false, true]].sort());

      expect((await g.api(`notifications/threads/${foreign}`)).status).toBe(401);
      expect((await g.api(`notifications/threads/${foreign}`, { auth })).status).toBe(403);
      const d: Thread = await g.call(`notifications/threads/${t.d}`, { auth });
      const issue4 = await g.call('repos/user2/repo2/issues/1', { auth: await g.basic('user2') });
      const repo2 = await g.call('repos/user2/repo2', { auth: await g.basic('user2') });
      expect(d).toMatchObject({ id: t.d, pinned: false, unread: true, subject: { title: 'issue4', type: 'Issue', url: issue4.url }, repository: { html_url: repo2.html_url } });

      expect((await g.api('notifications/new')).status).toBe(401);
      expect((await g.call('notifications/new', { auth })).new).toBeGreaterThan(0);

      expect(await list('notifications?status-types=unread')).toHaveLength(2);
      expect((await g.raw('PUT', `repos/user2/repo1/notifications?last_read_at=${encodeURIComponent(new Date().toISOString())}`, auth)).status).toBe(205);
      expect((await list('notifications?status-types=unread')).map((x) => x.id)).toEqual([t.d]);

      expect((await g.raw('PATCH', `notifications/threads/${t.d}`, auth)).status).toBe(205);
      expect((await g.call(`notifications/threads/${t.d}`, { auth })).unread).toBe(false);
      expect((await g.call('notifications/new', { auth })).new).toBe(0);
    } finally {
      await g.stop();
    }
  }, 60_000);

  it('TestAPINotificationPUT', async () => {
    const g = await startGitea();
    try {
      const t = await fourThreads(g);
      const auth = await g.tokenAuth('user2', 'write:notification');
      const all: Thread[] = await g.call('notifications?all=true', { auth });
      expect(all.map((x) => [x.id, x.unread, x.pinned])).toEqual([[t.d, true, false], ...all.slice(1).map((x) => [x.id, x.unread, x.pinned])]);
      expect(all.map((x) => x.id).sort()).toEqual([t.a, t.b, t.c, t.d].sort());

      // The only read, unpinned thread (Gitea's test also spells one parameter status-type, ignored).
      await sleep(1100);
      const put = await g.raw('PUT', 'notifications?status-types=read&status-type=pinned&to-status=unread', auth);
      expect(put.status).toBe(205);
      expect(put.body.map((x: Thread) => [x.id, x.unread, x.pinned])).toEqual([[t.b, true, false]]);

      const after: Thread[] = await g.call('notifications?all=true', { auth });
      expect(after).toHaveLength(4);
      expect([after[0]!.id, after[0]!.unread, after[0]!.pinned]).toEqual([t.b, true, false]);
    } finally {
      await g.stop();
    }
  }, 60_000);

  it('TestAPIRepoTransferNotification', async () => {
    const g = await startGitea();
    try {
      // Gitea's org6 has user5 on its owners team; user2 may create repositories there.
      await g.user('user2');
      await g.user('user5');
      await g.call('orgs', { method: 'POST', auth: await g.basic('user5'), json: { username: 'org6', visibility: 'public' } }, 201);
      const auth = await g.tokenAuth('user2', 'write:repository', 'write:user');
      await g.call('user/repos', { method: 'POST', auth, json: { name: 'moveME', description: 'repo move around', private: false, readme: 'Default', auto_init: true } }, 201);
      // user2 may not create repositories in org6: the transfer waits for org6 (201), and its owners are told.
      await g.call('repos/user2/moveME/transfer', { method: 'POST', auth, json: { new_owner: 'org6' } }, 201);
      const read = await g.tokenAuth('user5', 'write:notification');
      let first: Thread | undefined;
      await eventually(async () => {
        first = ((await g.call('notifications?all=true', { auth: read })) as Thread[])[0];
        return first?.subject.type === 'Repository';
      }, 10_000, 'transfer thread');
      expect(first).toMatchObject({ subject: { type: 'Repository', title: 'user2/moveME' }, unread: true, pinned: false });
    } finally {
      await g.stop();
    }
  }, 60_000);
});
