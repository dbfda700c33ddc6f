import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { ForbiddenError, InvalidError } from '../lib/errors';
import { nowUnix } from '../lib/time';
import { addTeamUser, insertTeam, setTeamUnits } from '../models/org';
import { getUserByName, insertUser } from '../models/user';
import { assertValidUserName } from './names';
import { ACCESS, ORG_TYPE, UNITS } from './permissions';
import { VISIBILITY, type VisibilityName } from './visibility';

export type CreateOrgInput = {
  username: string; full_name?: string; description?: string; website?: string; location?: string;
  email?: string; visibility?: VisibilityName; repo_admin_change_team_access?: boolean;
};

export const OWNERS_TEAM = 'Owners';

/**
 * Creates an organization (a user row of type 1) with its Owners team, the creator its first
 * member: all in one transaction.
 */
export async function createOrganization(db: DB, creator: User, input: CreateOrgInput): Promise<User> {
  if (!creator.is_admin && !creator.allow_create_organization) {
    throw new ForbiddenError('Given user is not allowed to create an organization.');
  }
  assertValidUserName(input.username, 'username');
  return db.transaction().execute(async (trx) => {
    if (await getUserByName(trx, input.username)) {
      throw new InvalidError(`user already exists [name: ${input.username}]`, 'username');
    }
    const now = nowUnix();
    const org = await insertUser(trx, {
      name: input.username, lower_name: input.username.toLowerCase(), type: ORG_TYPE,
      full_name: input.full_name ?? '', description: input.description ?? '', website: input.website ?? '',
      location: input.location ?? '', email: input.email ?? '',
      visibility: VISIBILITY[input.visibility ?? 'public'],
      repo_admin_change_team_access: input.repo_admin_change_team_access ? 1 : 0,
      is_active: 1, created_unix: now, updated_unix: now,
    });
    const owners = await insertTeam(trx, {
      org_id: org.id, name: OWNERS_TEAM, authorize: ACCESS.owner, includes_all_repositories: true,
      can_create_org_repo: true, visibility: 'limited', now,
    });
    await setTeamUnits(trx, owners, Object.fromEntries(UNITS.map((u) => [u, ACCESS.owner])));
    await addTeamUser(trx, owners, creator.id);
    return org;
  });
}
