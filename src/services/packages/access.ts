import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { teamsOfMember, teamUnitModes } from '../../models/team-access';
import { getUserByName } from '../../models/user';
import { ACCESS, canSeeOwner, ORG_TYPE, type AccessMode } from '../permissions';
import { VISIBILITY } from '../visibility';

// Who may read or write an owner's packages, as Gitea's services/context/package.go
// (determineAccessMode): packages belong to a user or an organization, not to a repository.

/** The owner named in `/api/packages/{owner}` or `/api/v1/packages/{owner}`: a user or an organization. */
export async function resolvePackageOwner(db: DB, name: string): Promise<User> {
  const owner = await getUserByName(db, name);
  if (!owner) throw new NotFoundError('owner does not exist');
  return owner;
}

/** The best packages mode an organization's teams give a member: team mode, or the packages unit's. */
async function orgTeamMode(db: DB, orgId: number, uid: number): Promise<AccessMode> {
  const teams = await teamsOfMember(db, orgId, uid);
  let best = 0;
  for (const t of teams) best = Math.max(best, t.authorize >= ACCESS.admin ? t.authorize : 0);
  if (best >= ACCESS.write || !teams.length) return best as AccessMode;
  const units = await teamUnitModes(db, teams.map((t) => t.id));
  for (const t of teams) {
    const own = units.filter((u) => u.team_id === t.id);
    // A team without unit rows (older data) grants its own mode on every unit; else its packages unit's.
    best = Math.max(best, own.length ? (own.find((u) => u.type === 'repo.packages')?.access_mode ?? 0) : t.authorize);
  }
  return best as AccessMode;
}

/**
 * The caller's mode on an owner's packages: site admins and the owning user are owner;
 * organization members get their teams' packages mode; anyone who may see the owner reads.
 * A user's packages: public ones to everyone, limited ones to signed-in users.
 */
export async function packageAccessMode(db: DB, owner: User, doer: User | null): Promise<AccessMode> {
  if (doer?.is_admin) return ACCESS.owner;
  if (owner.type === ORG_TYPE) {
    const mode = doer ? await orgTeamMode(db, owner.id, doer.id) : ACCESS.none;
    if (mode === ACCESS.none && (await canSeeOwner(db, owner, doer))) return ACCESS.read;
    return mode;
  }
  if (doer) {
    if (doer.id === owner.id) return ACCESS.owner;
    return owner.visibility === VISIBILITY.private ? ACCESS.none : ACCESS.read;
  }
  return owner.visibility === VISIBILITY.public ? ACCESS.read : ACCESS.none;
}
