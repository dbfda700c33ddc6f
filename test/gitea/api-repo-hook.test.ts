import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_hook_test.go: the administrator adds a webhook
// with an Authorization header to user2's repo37.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

describe('api_repo_hook_test', () => {
  it('TestAPICreateHook', async () => {
    await repo(g, 'user2', 'repo37');
    const auth = await g.tokenAuth('user1', 'write:repository');
    const hook = await g.call('repos/user2/repo37/hooks', {
      method: 'POST', auth,
      json: { type: 'gitea', config: { content_type: 'json', url: 'http://example.com/' }, authorization_header: 'Bearer s3cr3t' },
    }, 201);
    expect(hook.config.url).toBe('http://example.com/');
    expect(hook.authorization_header).toBe('Bearer s3cr3t');
    expect((await g.call(`repos/user2/repo37/hooks/${hook.id}`, { auth })).authorization_header).toBe('Bearer s3cr3t');
  });
});
