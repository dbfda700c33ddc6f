import type { DB } from '../db/connect';
import type { Repository, User } from '../db/schema';
import { getCollaboratorMode } from '../models/repo';
import { isOrgMember, teamsGrantingRepo, teamUnitModes } from '../models/team-access';
import { getUserById } from '../models/user';
import { VISIBILITY } from './visibility';
import { actionsUserRepoId } from './actions/actions-user';
import { ACCESS, type AccessMode } from './access-modes';

export { ACCESS, type AccessMode };
export const accessName = (m: number) => (['none', 'read', 'write', 'admin', 'owner'] as const)[m] ?? 'none';

/** Repository units, with Gitea's identifiers. */
export const UNITS = [
  'repo.code', 'repo.issues', 'repo.ext_issues', 'repo.wiki', 'repo.pulls', 'repo.releases',
  'repo.projects', 'repo.ext_wiki', 'repo.packages', 'repo.actions',
] as const;
export type Unit = (typeof UNITS)[number];

export const ORG_TYPE = 1;

/**
 * Whether `viewer` may see the owner (user or organization) at all: public to everyone,
 * limited to signed-in users who are not restricted, private to itself, its members and admins.
 */
export async function canSeeOwner(db: DB, owner: User, viewer: User | null): Promise<boolean> {
  if (owner.visibility === VISIBILITY.public) return true;
  if (!viewer) return false;
  if (viewer.is_admin || viewer.id === owner.id) return true;
  const member = owner.type === ORG_TYPE && (await isOrgMember(db, owner.id, viewer.id));
  if (member) return true;
  if (owner.visibility === VISIBILITY.limited) return !viewer.is_restricted;
  return false;
}

/**
 * The rows one caller's access to one repository is computed from (their teams there, those
 * teams' units, their collaboration), read once: the overall mode and each unit mode of a request
 * come from the same reads (the request's RepoAccess keeps them).
 */
export type Grants = {
  teams?: ReturnType<typeof teamsGrantingRepo>;
  units?: ReturnType<typeof teamUnitModes>;
  collaborator?: ReturnType<typeof getCollaboratorMode>;
};

/** What an organization's teams give `user` on `repo`, for one unit or overall. */
async function teamMode(db: DB, user: User, repo: Repository, unit: Unit | undefined, g: Grants): Promise<AccessMode> {
  const teams = await (g.teams ??= teamsGrantingRepo(db, repo.owner_id, user.id, repo.id));
  if (!teams.length) return ACCESS.none;
  let best = 0;
  for (const t of teams) if (t.authorize >= ACCESS.admin) best = Math.max(best, t.authorize);
  if (best) return best as AccessMode;
  const units = await (g.units ??= teamUnitModes(db, teams.map((t) => t.team_id)));
  for (const t of teams) {
    const own = units.filter((u) => u.team_id === t.team_id);
    // A team without unit rows (older data) grants its mode on every unit. Overall, a unit's
    // admin mode does not make a non-admin team's members repository admins (Gitea's level is the team's).
    const modes = own.length
      ? own.filter((u) => !unit || u.type === unit).map((u) => (unit ? u.access_mode : Math.min(u.access_mode, ACCESS.write)))
      : [t.authorize];
    best = Math.max(best, ...modes, 0);
  }
  return best as AccessMode;
}

/**
 * The one access function: what `user` (null: anonymous) may do on `repo`, overall or on one
 * unit. Site admins and owners are owner; organization teams give their mode (owner and admin
 * teams on every unit); collaborators get their mode; public repositories of owners the caller
 * may see give read to everyone but restricted users.
 */
export async function accessMode(db: DB, user: User | null, repo: Repository, owner?: User, unit?: Unit, grants: Grants = {}): Promise<AccessMode> {
  if (user?.is_admin) return ACCESS.owner;
  // A job token writes to its task's repository; elsewhere it is an anonymous reader.
  const actionsRepo = user ? actionsUserRepoId(user) : undefined;
  if (actionsRepo !== undefined) return actionsRepo === repo.id ? ACCESS.write : accessMode(db, null, repo, owner, unit);
  if (user && user.id === repo.owner_id) return ACCESS.owner;
  const repoOwner = owner ?? (await getUserById(db, repo.owner_id));
  if (!repoOwner) return ACCESS.none;
  let mode: number = ACCESS.none;
  if (user) {
    if (repoOwner.type === ORG_TYPE) mode = await teamMode(db, user, repo, unit, grants);
    if (mode >= ACCESS.admin) return mode as AccessMode;
    mode = Math.max(mode, (await (grants.collaborator ??= getCollaboratorMode(db, repo.id, user.id))) ?? ACCESS.none);
  }
  if (mode >= ACCESS.read || repo.is_private) return mode as AccessMode;
  if (user?.is_restricted) return ACCESS.none;
  return (await canSeeOwner(db, repoOwner, user)) ? ACCESS.read : ACCESS.none;
}
