import type { DB } from '../../db/connect';
import type { Team, TeamUnit, User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { getTeamByName } from '../../models/team';
import { lookupOrg, type OrgAccess } from '../org/orgs';
import type { RepoWithParent } from '../repo/repos';
import { listMembers } from '../org/team-members';
import { listReposOfTeam } from '../org/team-repos';
import { listTeams, lookupTeam, viewOf, type TeamView } from '../org/teams';

// `/org/{org}/teams` and `/org/{org}/teams/{team}`, as Gitea's web routes: only members of the
// organization (and site admins) reach them, and a team the member may not see does not exist
// for them. Everything else is 404, as Gitea's web pages never tell what is hidden.

type Page = { offset: number; limit: number };

export type TeamsPage = TeamView & { org: User; total: number };
export type TeamPage = {
  org: User; team: Team; units: TeamUnit[];
  members: User[]; repos: RepoWithParent[];
};

/** Teams pages list at most this many members and repositories of one team. */
const TEAM_LIST_LIMIT = 100;

const hidden = () => new NotFoundError();

async function memberAccess(db: DB, orgName: string, viewer: User | null): Promise<{ access: OrgAccess; viewer: User }> {
  const access = await lookupOrg(db, orgName, viewer);
  if (!viewer || !(access.isMember || viewer.is_admin === 1)) throw hidden();
  return { access, viewer };
}

/** The teams of the organization the viewer may list (its own, and those visible to members). */
export async function orgTeams(db: DB, orgName: string, viewer: User | null, page: Page): Promise<TeamsPage> {
  const { access, viewer: v } = await memberAccess(db, orgName, viewer);
  return { ...(await listTeams(db, access, v, page)), org: access.org };
}

/** The API answers 403 to a member for a private team; a page says it does not exist. */
async function visibleTeam(db: DB, id: number, viewer: User): Promise<Team> {
  try {
    return (await lookupTeam(db, id, viewer)).team;
  } catch (err) {
    if (err instanceof ForbiddenError) throw hidden();
    throw err;
  }
}

/** One team by its lower-cased name, with its members and the repositories the viewer may see. */
export async function orgTeam(db: DB, orgName: string, teamName: string, viewer: User | null): Promise<TeamPage> {
  const { access, viewer: v } = await memberAccess(db, orgName, viewer);
  const found = await getTeamByName(db, access.org.id, teamName);
  if (!found) throw hidden();
  const team = await visibleTeam(db, found.id, v);
  const page = { offset: 0, limit: TEAM_LIST_LIMIT };
  const { users } = await listMembers(db, team.id, v, page);
  const { repos } = await listReposOfTeam(db, team.id, v, page);
  const { units } = await viewOf(db, [team], [access.org]);
  return { org: access.org, team, units, members: users, repos };
}
