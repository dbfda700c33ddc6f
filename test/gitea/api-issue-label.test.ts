import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_label_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

/** Create, list, get, edit and delete labels under `base` (a repository's or an organization's). */
async function modifyLabels(base: string, who: string, existing: number): Promise<void> {
  const auth = await g.tokenAuth(who, 'write:issue', 'write:organization');
  const made = await g.call(`${base}/labels`, { method: 'POST', auth, json: { name: 'TestL 1', color: 'abcdef', description: 'test label' } }, 201);
  expect(made).toMatchObject({ name: 'TestL 1', color: 'abcdef', description: 'test label' });
  await g.call(`${base}/labels`, { method: 'POST', auth, json: { name: 'TestL 2', color: '#123456', description: 'jet another test label' } }, 201);
  expect((await g.api(`${base}/labels`, { method: 'POST', auth, json: { name: 'WrongTestL', color: '#12345g' } })).status).toBe(422);

  expect(await g.call(`${base}/labels`, { auth })).toHaveLength(existing + 2);
  expect((await g.call(`${base}/labels/${made.id}`, { auth })).color).toBe('abcdef');

  const edited = await g.call(`${base}/labels/${made.id}`, { method: 'PATCH', auth, json: { name: 'LabelNewName', color: '09876a' } });
  expect(edited).toMatchObject({ name: 'LabelNewName', color: '09876a' });
  expect((await g.api(`${base}/labels/${made.id}`, { method: 'PATCH', auth, json: { color: '09g76a' } })).status).toBe(422);
  expect((await g.api(`${base}/labels/${made.id}`, { method: 'DELETE', auth })).status).toBe(204);
}

describe('api_issue_label_test', () => {
  it('TestAPIModifyLabels', async () => {
    await g.repo2();
    await modifyLabels('repos/user2/repo2', 'user2', 0);
  });

  it('TestAPIAddIssueLabels', async () => {
    const r = await g.repo1();
    const auth = await g.tokenAuth('user2', 'write:issue');
    const labels = await g.call('repos/user2/repo1/issues/1/labels', { method: 'POST', auth, json: { labels: [r.labels.label1, r.labels.label2] } });
    expect(labels.map((l: { id: number }) => l.id).sort()).toEqual([r.labels.label1, r.labels.label2].sort());
    const issue = await g.call('repos/user2/repo1/issues/1');
    expect(issue.labels).toHaveLength(labels.length);
  });

  it('TestAPIReplaceIssueLabels', async () => {
    const r = await g.repo1();
    const auth = await g.tokenAuth('user2', 'write:issue');
    const labels = await g.call('repos/user2/repo1/issues/1/labels', { method: 'PUT', auth, json: { labels: [r.labels.label1] } });
    expect(labels.map((l: { id: number }) => l.id)).toEqual([r.labels.label1]);
    expect((await g.call('repos/user2/repo1/issues/1')).labels.map((l: { id: number }) => l.id)).toEqual([r.labels.label1]);
  });

  it('TestAPIAddIssueLabelsWithLabelNames', async () => {
    // Gitea's repo3 issue 6 takes its repository's label and its organization's by name.
    await g.org3();
    const auth = await g.tokenAuth('user1', 'write:issue');
    await g.call('repos/org3/repo3/labels', { method: 'POST', auth: await g.basic('user2'), json: { name: 'repo3label', color: '#aabbcc' } }, 201).catch(() => undefined);
    const url = 'repos/org3/repo3/issues/1/labels';
    const labels = await g.call(url, { method: 'POST', auth, json: { labels: ['repo3label', 'orglabel4'] } });
    expect(labels.map((l: { name: string }) => l.name).sort()).toEqual(['orglabel4', 'repo3label']);
    expect(await g.call(url, { auth })).toHaveLength(labels.length);
    expect((await g.api(url, { method: 'DELETE', auth })).status).toBe(204);
  });

  it('TestAPIReplaceIssueLabelsWithLabelNames', async () => {
    await g.repo1();
    const auth = await g.tokenAuth('user2', 'write:issue');
    const labels = await g.call('repos/user2/repo1/issues/1/labels', { method: 'PUT', auth, json: { labels: ['label1'] } });
    expect(labels.map((l: { name: string }) => l.name)).toEqual(['label1']);
  });

  it('TestAPIModifyOrgLabels', async () => {
    await g.org3();
    // Gitea's test signs in as user1, the site administrator.
    await modifyLabels('orgs/org3', 'user1', 2);
  });
});
