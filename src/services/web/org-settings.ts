import type { DB } from '../../db/connect';
import type { Team, User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { addAllOrgReposToTeam, getTeamByName } from '../../models/team';
import { lookupOrg } from '../org/orgs';
import { assertManages, lookupTeam, type TeamAccess } from '../org/teams';

// Who reaches an organization's settings and team forms on the web: its owners and site admins
// (as Gitea's reqOrgOwnership); a member or visitor who sees the organization gets 403, and one
// who may not see it a 404, as for a missing organization.

export async function orgForOwner(db: DB, name: string, viewer: User | null): Promise<User> {
  const access = await lookupOrg(db, name, viewer).catch(() => { throw new NotFoundError(); });
  if (!viewer || !(access.isOwner || viewer.is_admin)) throw new ForbiddenError('Only the owners of this organization may change it.');
  return access.org;
}

/** A team of the organization by its (lower-cased) name, for one who manages it. */
export async function teamForOwner(db: DB, orgName: string, teamName: string, viewer: User | null): Promise<TeamAccess & { team: Team }> {
  const org = await orgForOwner(db, orgName, viewer);
  const team = await getTeamByName(db, org.id, teamName);
  if (!team) throw new NotFoundError();
  return lookupTeam(db, team.id, viewer!);
}

/** Gitea's web "add all repositories": every repository the organization owns now joins the team. */
export async function addAllReposToTeam(db: DB, teamId: number, viewer: User): Promise<void> {
  const access = await lookupTeam(db, teamId, viewer);
  assertManages(access);
  await db.transaction().execute((trx) => addAllOrgReposToTeam(trx, access.team));
}
