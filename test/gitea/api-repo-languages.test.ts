import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { repo } from '../helpers/gitea-extra';
import { eventually } from '../helpers/wait';

// Port of Gitea's tests/integration/api_repo_languages_test.go. Gitea's test writes test.go
// through the web editor; here through the contents API, which commits the same file.

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

it('TestRepoLanguages', async () => {
  // An empty repository, as Gitea's fresh instance has none of its own files in repo1's stats.
  await repo(g, 'user2', 'repo1', { auto_init: false });
  await g.call('repos/user2/repo1/contents/test.go', {
    method: 'POST', auth: await g.basic('user2'), json: { content: Buffer.from('package main').toString('base64'), branch: 'main' },
  }, 201);
  // The statistics are computed after the push, in the background.
  let languages: Record<string, number> = {};
  await eventually(async () => {
    languages = await g.call('repos/user2/repo1/languages');
    return Object.keys(languages).length > 0;
  }, 10_000, 'language statistics');
  expect(languages).toEqual({ Go: 12 });
});
