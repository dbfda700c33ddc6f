import type { DB } from '../../db/connect';
import type { Team, TeamUnit, User } from '../../db/schema';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { insertTeam, isOrgOwner, setTeamUnits } from '../../models/org';
import {
  addAllOrgReposToTeam, deleteTeamRow, getTeamById, getTeamByName, isTeamMember, listOrgTeams, listTeamsOfUser,
  setAllUnitModes, teamMemberIds, teamRepoIds, unitsOfTeams, updateTeamRow, type TeamFilter,
} from '../../models/team';
import { getUserById } from '../../models/user';
import { deleteReviewRequestsOfTeam } from '../../models/review-team';
import { isOrgMember } from '../../models/team-access';
import type { OrgAccess } from './orgs';
import { ACCESS, canSeeOwner } from '../permissions';
import { readOnlyUnits, resolveUnits, type UnitsInput } from './team-units';
import { dropOrgMembershipIfTeamless, dropUnreadableWatches } from './team-leave';
import { recordAudit, teamTarget } from '../audit/record';

export type TeamVisibility = 'public' | 'limited' | 'private';

/** A team with the caller's roles: what every /teams/{id} route decides on. */
export type TeamAccess = {
  team: Team; org: User; viewer: User;
  /** Site admin or organization owner: manages the team. */
  manages: boolean;
  isMember: boolean;
  isTeamMember: boolean;
};

/** A team, its unit rows and its organization: what the converter needs. */
export type TeamView = { teams: Team[]; units: TeamUnit[]; orgs: Map<number, User> };

type Page = { offset: number; limit: number };

const teamNotFound = () => new NotFoundError('The target couldn\'t be found.');

/**
 * Who may see a team: site admins, organization owners and its members always; others as its
 * visibility says (limited: organization members; public: anyone who may see the organization).
 */
async function canSeeTeam(db: DB, a: Omit<TeamAccess, 'team'> & { team: Team }): Promise<boolean> {
  if (a.manages || a.isTeamMember) return true;
  if (a.team.visibility === 'limited') return a.isMember;
  if (a.team.visibility === 'public') return canSeeOwner(db, a.org, a.viewer);
  return false;
}

/**
 * `/teams/{id}` for a signed-in caller: 404 when missing or hidden from the caller; members of
 * the organization who may not see a private team get 403 (Gitea's "Must be a team member").
 */
export async function lookupTeam(db: DB, id: number, viewer: User): Promise<TeamAccess> {
  const team = Number.isSafeInteger(id) && id > 0 ? await getTeamById(db, id) : undefined;
  const org = team && (await getUserById(db, team.org_id));
  if (!team || !org) throw teamNotFound();
  const isMember = await isOrgMember(db, org.id, viewer.id);
  const manages = viewer.is_admin === 1 || (isMember && (await isOrgOwner(db, org.id, viewer.id)));
  const access: TeamAccess = { team, org, viewer, manages, isMember, isTeamMember: await isTeamMember(db, team.id, viewer.id) };
  if (await canSeeTeam(db, access)) return access;
  if (isMember) throw new ForbiddenError('Must be a team member');
  throw teamNotFound();
}

/** Writes to a team: organization owners and site admins; others who see it get 403. */
export function assertManages(access: TeamAccess): void {
  if (!access.manages) throw new ForbiddenError('Must be an organization owner');
}

export async function viewOf(db: DB, teams: Team[], orgs: User[]): Promise<TeamView> {
  const units = await unitsOfTeams(db, teams.map((t) => t.id));
  const byId = new Map(orgs.map((o) => [o.id, o]));
  for (const t of teams) {
    if (!byId.has(t.org_id)) {
      const o = await getUserById(db, t.org_id);
      if (o) byId.set(o.id, o);
    }
  }
  return { teams, units, orgs: byId };
}

/** GET /teams/{id} */
export async function getTeam(db: DB, id: number, viewer: User): Promise<TeamView> {
  const { team, org } = await lookupTeam(db, id, viewer);
  return viewOf(db, [team], [org]);
}

function filterFor(access: OrgAccess, viewer: User): TeamFilter['seer'] {
  return viewer.is_admin || access.isOwner ? 'all' : { uid: viewer.id, member: access.isMember };
}

/** GET /orgs/{org}/teams and /teams/search: the teams the caller may list, by name. */
export async function listTeams(
  db: DB, access: OrgAccess, viewer: User, page: Page, search?: { keyword?: string; includeDesc: boolean },
): Promise<TeamView & { total: number }> {
  const filter: TeamFilter = { orgId: access.org.id, seer: filterFor(access, viewer), ...search };
  const { teams, total } = await listOrgTeams(db, filter, page.offset, page.limit);
  return { ...(await viewOf(db, teams, [access.org])), total };
}

/** GET /user/teams */
export async function listMyTeams(db: DB, viewer: User, page: Page): Promise<TeamView & { total: number }> {
  const { teams, total } = await listTeamsOfUser(db, viewer.id, page.offset, page.limit);
  return { ...(await viewOf(db, teams, [])), total };
}

export type TeamInput = UnitsInput & {
  name: string; description?: string; includes_all_repositories?: boolean; can_create_org_repo?: boolean;
  visibility?: TeamVisibility;
};

const RESERVED = ['new'];

function assertTeamName(name: string): void {
  if (!name) throw new InvalidError('[name]: Required', 'name');
  if (!/^[\w.-]+$/.test(name)) throw new InvalidError('[name]: should contain only alphanumeric, dash (\'-\'), underscore (\'_\') and dot (\'.\') characters', 'name');
  if (name.length > 255) throw new InvalidError('[name]: must be less than or equal to 255 characters', 'name');
  if (RESERVED.includes(name.toLowerCase())) throw new InvalidError(`name is reserved [name: ${name}]`, 'name');
}

async function assertNameFree(db: DB, orgId: number, name: string, selfId = 0): Promise<void> {
  const other = await getTeamByName(db, orgId, name);
  if (other && other.id !== selfId) throw new InvalidError(`team already exists [org_id: ${orgId}, name: ${name.toLowerCase()}]`, 'name');
}

/** POST /orgs/{org}/teams: 422 for an invalid option or a name taken in the organization. */
export async function createTeam(db: DB, org: User, input: TeamInput): Promise<TeamView> {
  assertTeamName(input.name);
  const { level, units } = resolveUnits(input, ACCESS.none, true);
  if (!units) throw new InvalidError('[units]: units permission should not be empty', 'units');
  const team = await db.transaction().execute(async (trx) => {
    await assertNameFree(trx, org.id, input.name);
    const row = await insertTeam(trx, {
      org_id: org.id, name: input.name, description: input.description ?? '', authorize: level,
      includes_all_repositories: !!input.includes_all_repositories, can_create_org_repo: !!input.can_create_org_repo,
      visibility: input.visibility ?? 'limited', now: nowUnix(),
    });
    await setTeamUnits(trx, row, units);
    if (row.includes_all_repositories) await addAllOrgReposToTeam(trx, row);
    await recordAudit(trx, { op: 'team.create', target: teamTarget(org, row), owner: org });
    return (await getTeamById(trx, row.id))!;
  });
  return viewOf(db, [team], [org]);
}

/** An edit: an empty or missing name keeps the team's (Gitea's EditTeam). */
export type TeamEdit = Omit<TeamInput, 'visibility' | 'name'> & { name?: string; visibility?: TeamVisibility };

/**
 * PATCH /teams/{id}. The Owners team keeps its name, owner level, units and rights (as Gitea,
 * which ignores those fields for it); its description and visibility may change.
 */
export async function editTeam(db: DB, id: number, viewer: User, edit: TeamEdit): Promise<TeamView> {
  const access = await lookupTeam(db, id, viewer);
  assertManages(access);
  const { team, org } = access;
  const name = edit.name || team.name;
  assertTeamName(name);
  const owners = team.authorize === ACCESS.owner;
  const now = nowUnix();
  await db.transaction().execute(async (trx) => {
    const patch: Parameters<typeof updateTeamRow>[2] = { updated_unix: now };
    if (edit.description !== undefined) patch.description = edit.description;
    if (edit.visibility !== undefined) patch.visibility = edit.visibility;
    if (!owners) {
      await assertNameFree(trx, org.id, name, team.id);
      Object.assign(patch, { name, lower_name: name.toLowerCase() });
      if (edit.can_create_org_repo !== undefined) patch.can_create_org_repo = edit.can_create_org_repo ? 1 : 0;
      if (edit.includes_all_repositories !== undefined) patch.includes_all_repositories = edit.includes_all_repositories ? 1 : 0;
      const { level, units } = resolveUnits(edit, team.authorize, false);
      patch.authorize = level;
      if (units) await setTeamUnits(trx, team, units);
      else if (level !== team.authorize) await setAllUnitModes(trx, team.id, level, readOnlyUnits(), ACCESS.read);
    }
    await updateTeamRow(trx, team.id, patch);
    const updated = (await getTeamById(trx, team.id))!;
    if (updated.includes_all_repositories && !team.includes_all_repositories) await addAllOrgReposToTeam(trx, updated);
  });
  return viewOf(db, [(await getTeamById(db, team.id))!], [org]);
}

/**
 * DELETE /teams/{id}: the Owners team stays (403). Members lose watches of private repositories
 * they can no longer read; those left on no other team leave the organization (as Gitea).
 */
export async function deleteTeam(db: DB, id: number, viewer: User): Promise<void> {
  const access = await lookupTeam(db, id, viewer);
  assertManages(access);
  const { team, org } = access;
  if (team.authorize === ACCESS.owner) throw new ForbiddenError('the Owners team cannot be deleted');
  await db.transaction().execute(async (trx) => {
    const members = await teamMemberIds(trx, team.id);
    const repoIds = await teamRepoIds(trx, team.id);
    await deleteTeamRow(trx, team.id);
    await deleteReviewRequestsOfTeam(trx, team.id);
    await recordAudit(trx, { op: 'team.delete', target: teamTarget(org, team), owner: org });
    for (const uid of members) {
      const user = await getUserById(trx, uid);
      if (user) await dropUnreadableWatches(trx, org, user, repoIds);
      await dropOrgMembershipIfTeamless(trx, org.id, uid);
    }
  });
}
