import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { avatarUploadSteps } from '../helpers/gitea-avatar';

// Port of Gitea's tests/integration/api_user_avatar_test.go.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_user_avatar_test', () => {
  it('TestAPIUpdateUserAvatar', async () => {
    await avatarUploadSteps(g, 'user/avatar', await g.tokenAuth('user2', 'write:user'));
    expect((await g.call('user', { auth: await g.basic('user2') })).avatar_url).toContain('/avatars/');
  });

  it('TestAPIDeleteUserAvatar', async () => {
    expect((await g.api('user/avatar', { method: 'DELETE', auth: await g.tokenAuth('user2', 'write:user') })).status).toBe(204);
  });
});
