import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitea, type GiteaFixtures } from '../helpers/gitea-fixtures';
import { collaborator } from '../helpers/gitea-extra';

// Port of Gitea's tests/integration/api_repo_collaborator_test.go (the version this kit's
// Gitea has: TestAPIRepoCollaboratorPermission on the private repo2).

let g: GiteaFixtures;
beforeAll(async () => { g = await startGitea(); });
afterAll(async () => { await g.stop(); });

const permissionOf = async (who: string, asker = 'user2', status = 200) =>
  (await g.call(`repos/user2/repo2/collaborators/${who}/permission`, { auth: await g.tokenAuth(asker, 'read:repository') }, status))?.permission as string;

describe('TestAPIRepoCollaboratorPermission', () => {
  it('TestAPIRepoCollaboratorPermission/RepoOwnerShouldBeOwner', async () => {
    await g.repo2();
    expect(await permissionOf('user2')).toBe('owner');
  });

  for (const level of ['read', 'write', 'admin']) {
    const name = `CollaboratorWith${level[0]!.toUpperCase()}${level.slice(1)}Access`;
    it(`TestAPIRepoCollaboratorPermission/${name}`, async () => {
      await g.repo2();
      await collaborator(g, 'user2', 'repo2', 'user4', level);
      expect(await permissionOf('user4')).toBe(level);
    });
  }

  it('TestAPIRepoCollaboratorPermission/CollaboratorNotFound', async () => {
    await g.repo2();
    await permissionOf('non-existent-user', 'user2', 404);
  });

  it('TestAPIRepoCollaboratorPermission/CollaboratorCanQueryItsPermissions', async () => {
    await g.repo2();
    await collaborator(g, 'user2', 'repo2', 'user5', 'read');
    expect(await permissionOf('user5', 'user5')).toBe('read');
  });

  it('TestAPIRepoCollaboratorPermission/RepoAdminCanQueryACollaboratorsPermissions', async () => {
    await g.repo2();
    await collaborator(g, 'user2', 'repo2', 'user10', 'admin');
    await collaborator(g, 'user2', 'repo2', 'user11', 'read');
    expect(await permissionOf('user11', 'user10')).toBe('read');
  });
});
