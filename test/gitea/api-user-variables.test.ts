import { afterAll, beforeAll } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { variableTests } from '../helpers/gitea-actions-cases';

// Port of Gitea's tests/integration/api_user_variables_test.go (the cases are in
// test/helpers/gitea-actions-cases.ts, shared by the levels).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const level = {
  test: 'TestAPIUserVariables',
  g: () => g,
  base: async () => 'user/actions',
  auth: () => g.tokenAuth('user1', 'write:user'),
};

variableTests(level, { create: 'CreateUserVariable', update: 'UpdateUserVariable', remove: 'DeleteRepoVariable' });
