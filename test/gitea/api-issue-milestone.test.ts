import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_milestone_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_issue_milestone_test', () => {
  it('TestAPIIssuesMilestone', async () => {
    const r = await g.repo1();
    const base = 'repos/user2/repo1/milestones';
    const m1 = await g.call(`${base}/${r.milestones.milestone1}`);
    expect(m1).toMatchObject({ open_issues: 1, state: 'open' });
    const auth = await g.tokenAuth('user2', 'write:issue');

    expect((await g.call(`${base}/${r.milestones.milestone1}`, { method: 'PATCH', auth, json: { state: 'closed' } })).state).toBe('closed');
    expect((await g.call(`${base}/${r.milestones.milestone1}`, { auth })).state).toBe('closed');

    const wow = await g.call(base, { method: 'POST', auth, json: { title: 'wow', description: 'closed one', state: 'closed' } }, 201);
    expect(wow).toMatchObject({ title: 'wow', state: 'closed', due_on: null });

    const all = await g.call(`${base}?state=all`, { auth });
    expect(all).toHaveLength(4);
    expect(all[0].due_on).toBeNull();

    expect(await g.call(`${base}/${encodeURIComponent(all[2].title)}`, { auth })).toEqual(all[2]);

    const named = await g.call(`${base}?state=all&name=milestone2`, { auth });
    expect(named.map((m: { id: number }) => m.id)).toEqual([r.milestones.milestone2]);

    expect((await g.api(`${base}/${wow.id}`, { method: 'DELETE', auth })).status).toBe(204);
  });
});
