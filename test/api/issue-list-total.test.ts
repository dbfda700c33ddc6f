import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../helpers/git';
import { as, createUser, ok, startTestServer, type TestServer } from '../helpers/server';

// X-Total-Count of a repository's issue listing: filtered by state and kind alone it comes from the
// repository's counters (no count of the rows), with any other filter from a count; both agree
// with the rows listed.

let s: TestServer;
let alice: { username: string; password: string; id: number };

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s, 'alice');
  await createRepo(s, alice, 'totals', { auto_init: true });
  const label = await ok(await s.request('api/v1/repos/alice/totals/labels', { method: 'POST', auth: as(alice), json: { name: 'bug', color: '#ff0000' } }), 201) as { id: number };
  for (let i = 1; i <= 5; i++) {
    await ok(await s.request('api/v1/repos/alice/totals/issues', { method: 'POST', auth: as(alice), json: { title: `Issue ${i}`, labels: i <= 2 ? [label.id] : [] } }), 201);
  }
  for (const n of [1, 3]) await ok(await s.request(`api/v1/repos/alice/totals/issues/${n}`, { method: 'PATCH', auth: as(alice), json: { state: 'closed' } }), 201);
});
afterAll(async () => { await s.stop(); });

async function total(query: string): Promise<{ total: number; listed: number }> {
  const res = await s.request(`api/v1/repos/alice/totals/issues?limit=50&${query}`, { auth: as(alice) });
  const rows = await ok(res) as unknown[];
  return { total: Number(res.headers.get('x-total-count')), listed: rows.length };
}

describe('X-Total-Count of the repository issue listing', () => {
  it('by state and kind alone matches the rows (from the counters)', async () => {
    expect(await total('state=open')).toEqual({ total: 3, listed: 3 });
    expect(await total('state=closed')).toEqual({ total: 2, listed: 2 });
    expect(await total('state=all&type=issues')).toEqual({ total: 5, listed: 5 });
    expect(await total('state=all&type=pulls')).toEqual({ total: 0, listed: 0 });
  });

  it('with a label filter counts the matching rows', async () => {
    expect(await total('state=all&labels=bug')).toEqual({ total: 2, listed: 2 });
    expect(await total('state=open&labels=bug')).toEqual({ total: 1, listed: 1 });
  });

  it('a page shorter than the total still reports the whole total', async () => {
    const res = await s.request('api/v1/repos/alice/totals/issues?state=all&limit=2', { auth: as(alice) });
    expect((await ok(res) as unknown[]).length).toBe(2);
    expect(res.headers.get('x-total-count')).toBe('5');
  });
});
