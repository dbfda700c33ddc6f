import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_tracked_time_test.go. Gitea's fixtures
// track time on repo1's #2: here user1 (the site administrator) records each test's times,
// for user2 or itself, at the instants the filters read.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
});
afterAll(async () => { await g.stop(); });

type Time = { id: number; time: number; created: string; user_id: number; user_name: string; issue_id: number; issue: { title: string } };
const at = (s: number) => new Date((946684800 + s) * 1000).toISOString();

/** Times on a new pull-less issue, so each test reads only its own. */
async function issueWithTimes(entries: { user: string; time: number; second: number }[]): Promise<{ n: number; times: Time[] }> {
  const issue = await g.call('repos/user2/repo1/issues', { method: 'POST', auth: await g.basic('user2'), json: { title: 'tracked' } }, 201);
  const admin = await g.basic('user1');
  const times: Time[] = [];
  for (const e of entries) {
    times.push(await g.call(`repos/user2/repo1/issues/${issue.number}/times`, { method: 'POST', auth: admin, json: { time: e.time, user_name: e.user, created: at(e.second) } }));
  }
  return { n: issue.number as number, times };
}

describe('api_issue_tracked_time_test', () => {
  it('TestAPIGetTrackedTimes', async () => {
    const { n, times } = await issueWithTimes([
      { user: 'user2', time: 1, second: 1 }, { user: 'user2', time: 3660, second: 5 }, { user: 'user1', time: 20, second: 10 },
    ]);
    const auth = await g.tokenAuth('user2', 'write:repository', 'write:issue');
    const list: Time[] = await g.call(`repos/user2/repo1/issues/${n}/times`, { auth });
    expect(list).toHaveLength(3);
    list.forEach((t, i) => {
      expect({ id: t.id, title: t.issue.title, created: Date.parse(t.created), time: t.time, user: t.user_name })
        .toEqual({ id: times[i]!.id, title: 'tracked', created: Date.parse(times[i]!.created), time: times[i]!.time, user: i === 2 ? 'user1' : 'user2' });
      expect(t.issue_id).toBe(times[0]!.issue_id);
    });
    const since = encodeURIComponent(at(2));
    const before = encodeURIComponent(at(12));
    const filtered: Time[] = await g.call(`repos/user2/repo1/issues/${n}/times?since=${since}&before=${before}`, { auth });
    expect(filtered.map((t) => t.id)).toEqual([times[1]!.id, times[2]!.id]);
  });

  it('TestAPIDeleteTrackedTime', async () => {
    const { n, times } = await issueWithTimes([
      { user: 'user2', time: 1, second: 1 }, { user: 'user2', time: 3660, second: 5 }, { user: 'user1', time: 20, second: 10 },
    ]);
    const auth = await g.tokenAuth('user2', 'write:repository', 'write:issue');
    const url = `repos/user2/repo1/issues/${n}/times`;
    // Another user's time: not user2's to delete, owner of the repository though it is.
    expect((await g.api(`${url}/${times[2]!.id}`, { method: 'DELETE', auth })).status).toBe(403);
    expect((await g.api(`${url}/${times[0]!.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(`${url}/${times[0]!.id}`, { method: 'DELETE', auth })).status).toBe(404);

    const mine = async () => ((await g.call(`${url}?user=user2`, { auth })) as Time[]).reduce((s, t) => s + t.time, 0);
    expect(await mine()).toBe(3660);
    expect((await g.api(url, { method: 'DELETE', auth })).status).toBe(204);
    expect((await g.api(url, { method: 'DELETE', auth })).status).toBe(404);
    expect(await mine()).toBe(0);
  });

  it('TestAPIAddTrackedTimes', async () => {
    const issue = await g.call('repos/user2/repo1/issues', { method: 'POST', auth: await g.basic('user2'), json: { title: 'add time' } }, 201);
    const user2 = await g.user('user2');
    const auth = await g.tokenAuth('user1', 'write:repository', 'write:issue');
    const made: Time = await g.call(`repos/user2/repo1/issues/${issue.number}/times`, {
      method: 'POST', auth, json: { time: 33, user_name: 'user2', created: new Date(947688818 * 1000).toISOString() },
    });
    expect({ time: made.time, user: made.user_id, created: Date.parse(made.created) / 1000 }).toEqual({ time: 33, user: user2.id, created: 947688818 });
  });
});
