import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { avatarPng, avatarUploadSteps } from '../helpers/gitea-avatar';

// Port of Gitea's tests/integration/api_org_avatar_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_org_avatar_test', () => {
  it('TestAPIUpdateOrgAvatar', async () => {
    await g.org3();
    const auth = await g.tokenAuth('user1', 'write:organization');
    expect((await g.api('orgs/org3/avatar', { method: 'DELETE', auth })).status).toBe(204);
    await avatarUploadSteps(g, 'orgs/org3/avatar', auth);
    // A second upload replaces the first (Gitea 1.25 answers 204 to both).
    expect((await g.api('orgs/org3/avatar', { method: 'POST', auth, json: { image: avatarPng() } })).status).toBe(204);
  });

  it('TestAPIDeleteOrgAvatar', async () => {
    await g.org3();
    expect((await g.api('orgs/org3/avatar', { method: 'DELETE', auth: await g.tokenAuth('user1', 'write:organization') })).status).toBe(204);
  });
});
