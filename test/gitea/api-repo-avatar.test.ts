import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { avatarUploadSteps } from '../helpers/gitea-avatar';

// Port of Gitea's tests/integration/api_repo_avatar_test.go over the kit's repo1.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_repo_avatar_test', () => {
  it('TestAPIUpdateRepoAvatar', async () => {
    await g.repo1();
    await avatarUploadSteps(g, 'repos/user2/repo1/avatar', await g.tokenAuth('user2', 'write:repository'));
    expect((await g.call('repos/user2/repo1')).avatar_url).not.toBe('');
  });

  it('TestAPIDeleteRepoAvatar', async () => {
    await g.repo1();
    expect((await g.api('repos/user2/repo1/avatar', { method: 'DELETE', auth: await g.tokenAuth('user2', 'write:repository') })).status).toBe(204);
    expect((await g.call('repos/user2/repo1')).avatar_url).toBe('');
  });
});
