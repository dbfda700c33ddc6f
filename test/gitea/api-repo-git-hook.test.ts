import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { once, repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_git_hook_test.go. Gitea's test settings turn git
// hooks on (`[security] DISABLE_GIT_HOOKS = false`), so the server here does too. Gitea's
// repo37 carries an active pre-receive hook: user2's repo37 gets it from the administrator.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea({ HEARTH__SECURITY__DISABLE_GIT_HOOKS: 'false' }); });
afterAll(async () => { await g.stop(); });

const content = '#!/bin/bash\n\necho Hello, World!\n';
type Hook = { name: string; is_active: boolean; content: string };

/** A repository of user2 with the pre-receive hook set (Gitea's repo37). */
const repo37 = () => once(g, 'repo37', async () => {
  await repo(g, 'user2', 'repo37');
  await g.call('repos/user2/repo37/hooks/git/pre-receive', { method: 'PATCH', auth: await g.tokenAuth('user1', 'write:repository'), json: { content } });
});

describe('api_repo_git_hook_test', () => {
  it('TestAPIListGitHooks', async () => {
    await repo37();
    const hooks = (await g.call('repos/user2/repo37/hooks/git', { auth: await g.tokenAuth('user1', 'read:repository') })) as Hook[];
    expect(hooks).toHaveLength(3);
    for (const h of hooks) {
      if (h.name === 'pre-receive') expect(h).toMatchObject({ is_active: true, content });
      else expect(h).toMatchObject({ is_active: false, content: '' });
    }
  });

  it('TestAPIListGitHooksNoHooks', async () => {
    await g.repo1();
    const hooks = (await g.call('repos/user2/repo1/hooks/git', { auth: await g.tokenAuth('user1', 'read:repository') })) as Hook[];
    expect(hooks).toHaveLength(3);
    for (const h of hooks) expect(h).toMatchObject({ is_active: false, content: '' });
  });

  it('TestAPIListGitHooksNoAccess', async () => {
    await g.repo1();
    expect((await g.api('repos/user2/repo1/hooks/git', { auth: await g.tokenAuth('user2', 'read:repository') })).status).toBe(403);
  });

  it('TestAPIGetGitHook', async () => {
    await repo37();
    const hook = await g.call('repos/user2/repo37/hooks/git/pre-receive', { auth: await g.tokenAuth('user1', 'read:repository') });
    expect(hook).toMatchObject({ name: 'pre-receive', is_active: true, content });
  });

  it('TestAPIGetGitHookNoAccess', async () => {
    await g.repo1();
    expect((await g.api('repos/user2/repo1/hooks/git/pre-receive', { auth: await g.tokenAuth('user2', 'read:repository') })).status).toBe(403);
  });

  it('TestAPIEditGitHook', async () => {
    await repo(g, 'user2', 'hooked');
    const auth = await g.tokenAuth('user1', 'write:repository');
    const edited = await g.call('repos/user2/hooked/hooks/git/pre-receive', { method: 'PATCH', auth, json: { content } });
    expect(edited).toMatchObject({ is_active: true, content });
    expect(await g.call('repos/user2/hooked/hooks/git/pre-receive', { auth })).toMatchObject({ is_active: true, content });
  });

  it('TestAPIEditGitHookNoAccess', async () => {
    await g.repo1();
    const res = await g.api('repos/user2/repo1/hooks/git/pre-receive', { method: 'PATCH', auth: await g.tokenAuth('user2', 'write:repository'), json: { content } });
    expect(res.status).toBe(403);
  });

  it('TestAPIDeleteGitHook', async () => {
    await repo37();
    const auth = await g.tokenAuth('user1', 'write:repository');
    expect((await g.api('repos/user2/repo37/hooks/git/pre-receive', { method: 'DELETE', auth })).status).toBe(204);
    expect(await g.call('repos/user2/repo37/hooks/git/pre-receive', { auth })).toMatchObject({ is_active: false, content: '' });
    // Put it back: the other tests of this file read repo37's hook.
    await g.call('repos/user2/repo37/hooks/git/pre-receive', { method: 'PATCH', auth, json: { content } });
  });

  it('TestAPIDeleteGitHookNoAccess', async () => {
    await g.repo1();
    expect((await g.api('repos/user2/repo1/hooks/git/pre-receive', { method: 'DELETE', auth: await g.tokenAuth('user2', 'write:repository') })).status).toBe(403);
  });
});
