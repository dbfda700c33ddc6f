import { afterAll, beforeAll } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { variableTests } from '../helpers/gitea-actions-cases';
import { repo } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_variables_test.go (the cases are in
// test/helpers/gitea-actions-cases.ts, shared by the levels).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const level = {
  test: 'TestAPIRepoVariables',
  g: () => g,
  base: async () => { await repo(g, 'user2', 'repo1'); return 'repos/user2/repo1/actions'; },
  auth: () => g.tokenAuth('user2', 'write:repository'),
};

variableTests(level, { create: 'CreateRepoVariable', update: 'UpdateRepoVariable', remove: 'DeleteRepoVariable' });
