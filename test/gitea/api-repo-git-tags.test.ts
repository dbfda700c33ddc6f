import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { git, remoteUrl, tempDir } from '../helpers/git';

// Port of Gitea's tests/integration/api_repo_git_tags_test.go over the kit's repo1. Gitea makes
// its tags in the repository directly with user2 as tagger; here a clone pushes them.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const run = promisify(execFile);

/** git with user2 as the tagger (the helper's own identity would win over -c). */
async function asUser2(cwd: string, ...args: string[]): Promise<string> {
  const who = { GIT_COMMITTER_NAME: 'user2', GIT_COMMITTER_EMAIL: 'user2@example.com', GIT_AUTHOR_NAME: 'user2', GIT_AUTHOR_EMAIL: 'user2@example.com' };
  return (await run('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...who } })).stdout;
}

describe('api_repo_git_tags_test', () => {
  it('TestAPIGitTags', async () => {
    const r = await g.repo1();
    const url = remoteUrl(g.s, 'user2', 'repo1', r.owner.username, r.owner.password);
    const dir = tempDir();
    await git(dir, 'clone', '-q', url, '.');
    const commit = (await git(dir, 'rev-parse', 'master')).trim();
    await asUser2(dir, 'tag', 'lightweightTag', commit);
    await asUser2(dir, 'tag', '-a', 'annotatedTag', '-m', 'my annotated message', commit);
    const tagId = (await git(dir, 'rev-parse', 'annotatedTag')).trim();
    await git(dir, 'push', '-q', 'origin', 'lightweightTag', 'annotatedTag');

    const auth = await g.tokenAuth('user2', 'read:repository');
    const tag = await g.call(`repos/user2/repo1/git/tags/${tagId}`, { auth });
    expect(tag).toMatchObject({
      tag: 'annotatedTag', sha: tagId, object: { sha: commit }, message: 'my annotated message\n',
      tagger: { name: 'user2', email: 'user2@example.com' },
    });
    expect(tag.url).toBe(new URL(`api/v1/repos/user2/repo1/git/tags/${tagId}`, g.s.hearth.config.server.root_url).toString());
    // A lightweight tag names the commit itself, which is no tag object.
    expect((await g.api(`repos/user2/repo1/git/tags/${commit}`, { auth })).status).toBe(400);
  });

  it('TestAPIDeleteTagByName', async () => {
    await g.repo1();
    const auth = await g.tokenAuth('user2', 'write:repository');
    await g.call('repos/user2/repo1/tags', { method: 'POST', auth, json: { tag_name: 'delete-tag', target: 'master' } }, 201);
    expect((await g.api('repos/user2/repo1/tags/delete-tag', { method: 'DELETE', auth })).status).toBe(204);
    await g.call('repos/user2/repo1/releases', { method: 'POST', auth, json: { tag_name: 'release-tag', name: 'Release Tag', body: 'test' } }, 201);
    expect((await g.api('repos/user2/repo1/tags/release-tag', { method: 'DELETE', auth })).status).toBe(409);
  });
});
