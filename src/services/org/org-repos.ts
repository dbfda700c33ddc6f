import type { User } from '../../db/schema';
import { ForbiddenError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { upsertCollaboration } from '../../models/collaboration';
import { teamsForNewRepo } from '../../models/org';
import { addTeamRepo, canCreateOrgRepo } from '../../models/team-rights';
import type { OrgAccess } from './orgs';
import { ACCESS, accessMode } from '../permissions';
import { createRepository, type CreateRepoInput } from '../repo/repo-create';
import { accessOf, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

/**
 * POST /orgs/{org}/repos: owners, site admins and members of a team allowed to create
 * repositories. The repository joins the teams covering all repositories and the creator's
 * creating teams; a creator left below admin becomes an admin collaborator, as Gitea does.
 */
export async function createOrgRepository(
  h: Hearth, doer: User, access: OrgAccess, input: CreateRepoInput,
): Promise<RepoAccess> {
  const { org } = access;
  if (!doer.is_admin && !(await canCreateOrgRepo(h.db, org.id, doer.id))) {
    throw new ForbiddenError('Given user is not allowed to create repository in organization.');
  }
  const repo = await createRepository(h, doer, org, {
    ...input,
    onCreated: async (trx, repo) => {
      const teams = await teamsForNewRepo(trx, org.id, doer.id);
      for (const team of teams) await addTeamRepo(trx, team, repo.id);
      if (doer.is_admin || access.isOwner) return;
      if ((await accessMode(trx, doer, repo, org)) < ACCESS.admin) {
        await upsertCollaboration(trx, repo.id, doer.id, ACCESS.admin, nowUnix());
      }
    },
  });
  return accessOf(h.db, repo, doer);
}
