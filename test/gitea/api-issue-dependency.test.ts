import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';

// Port of Gitea 1.25's tests/integration/api_issue_dependency_test.go: repo1's #1 depends on
// private org3/repo3's #1; user40 needs read on repo3 and write on repo1 to link or unlink them.

let g: GiteaFixtures;
beforeAll(async () => {
  g = await startGitea();
  await g.repo1();
  await g.org3();
  for (const repo of ['user2/repo1', 'org3/repo3']) {
    await g.call(`repos/${repo}`, { method: 'PATCH', auth: await g.basic('user2'), json: { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true } } });
  }
});
afterAll(async () => { await g.stop(); });

const url = 'repos/user2/repo1/issues/1/dependencies';
const meta = { owner: 'org3', repo: 'repo3', index: 1 };
const dependsOnRepo3 = async (): Promise<boolean> =>
  ((await g.call(url, { auth: await g.basic('user2') })) as { title: string }[]).some((i) => i.title === 'issue6');
const collaborate = async (repo: string, permission: string) =>
  g.call(`repos/${repo}/collaborators/user40`, { method: 'PUT', auth: await g.basic('user2'), json: { permission } }, 204);

describe('api_issue_dependency_test', () => {
  it('TestAPICreateIssueDependencyCrossRepoPermission', async () => {
    await g.call(`repos/org3/repo3/collaborators/user40`, { method: 'DELETE', auth: await g.basic('user2') }, 204).catch(() => undefined);
    await g.call(`repos/user2/repo1/collaborators/user40`, { method: 'DELETE', auth: await g.basic('user2') }, 204).catch(() => undefined);
    await g.call(url, { method: 'DELETE', auth: await g.basic('user2'), json: meta }, 201).catch(() => undefined);
    const auth = await g.tokenAuth('user40', 'write:issue');
    expect((await g.api(url, { method: 'POST', auth, json: meta })).status).toBe(404);
    expect(await dependsOnRepo3()).toBe(false);

    await collaborate('org3/repo3', 'read');
    expect((await g.api(url, { method: 'POST', auth, json: meta })).status).toBe(404);
    expect(await dependsOnRepo3()).toBe(false);

    await collaborate('user2/repo1', 'write');
    expect((await g.api(url, { method: 'POST', auth, json: meta })).status).toBe(201);
    expect(await dependsOnRepo3()).toBe(true);
  });

  it('TestAPIDeleteIssueDependencyCrossRepoPermission', async () => {
    await g.user('user40');
    await g.call(`repos/org3/repo3/collaborators/user40`, { method: 'DELETE', auth: await g.basic('user2') }, 204).catch(() => undefined);
    await g.call(`repos/user2/repo1/collaborators/user40`, { method: 'DELETE', auth: await g.basic('user2') }, 204).catch(() => undefined);
    if (!(await dependsOnRepo3())) await g.call(url, { method: 'POST', auth: await g.basic('user1'), json: meta }, 201);
    const auth = await g.tokenAuth('user40', 'write:issue');
    expect((await g.api(url, { method: 'DELETE', auth, json: meta })).status).toBe(404);
    expect(await dependsOnRepo3()).toBe(true);

    await collaborate('org3/repo3', 'read');
    expect((await g.api(url, { method: 'DELETE', auth, json: meta })).status).toBe(404);
    expect(await dependsOnRepo3()).toBe(true);

    await collaborate('user2/repo1', 'write');
    expect((await g.api(url, { method: 'DELETE', auth, json: meta })).status).toBe(201);
    expect(await dependsOnRepo3()).toBe(false);
  });
});
