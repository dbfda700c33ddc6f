import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { BlockedError, InvalidError, NotFoundError } from '../../lib/errors';
import { addTeamUser } from '../../models/org';
import { getTeamById, isTeamMember, listTeamMembers, removeTeamUser, teamRepoIds } from '../../models/team';
import { getUserByName } from '../../models/user';
import { hasBlocked } from '../../models/user-block';
import { ACCESS, ORG_TYPE } from '../permissions';
import { dropOrgMembershipIfTeamless, dropUnreadableWatches } from './team-leave';
import { assertManages, lookupTeam } from './teams';
import { recordAudit, teamTarget } from '../audit/record';

type Page = { offset: number; limit: number };

async function namedUser(db: DB, name: string): Promise<User> {
  const user = await getUserByName(db, name);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return user;
}

/** GET /teams/{id}/members: anyone who may see the team; X-Total-Count is the member count. */
export async function listMembers(db: DB, id: number, viewer: User, page: Page): Promise<{ users: User[]; total: number }> {
  const { team } = await lookupTeam(db, id, viewer);
  return { users: await listTeamMembers(db, team.id, page.offset, page.limit), total: team.num_members };
}

/** GET /teams/{id}/members/{username}: the user when on the team, else 404. */
export async function getMember(db: DB, id: number, viewer: User, name: string): Promise<User> {
  const { team } = await lookupTeam(db, id, viewer);
  const user = await namedUser(db, name);
  if (!(await isTeamMember(db, team.id, user.id))) throw new NotFoundError();
  return user;
}

/**
 * PUT /teams/{id}/members/{username}: joins the team and the organization. A user the
 * organization blocked is refused (403, as Gitea); organizations cannot be members.
 */
export async function addMember(db: DB, id: number, viewer: User, name: string): Promise<void> {
  const access = await lookupTeam(db, id, viewer);
  assertManages(access);
  const user = await namedUser(db, name);
  if (user.type === ORG_TYPE) throw new InvalidError(`${user.name} is an organization, not a user`, 'username');
  if (await hasBlocked(db, access.org.id, user.id)) throw new BlockedError('user is blocked by the organization');
  await db.transaction().execute(async (trx) => {
    await addTeamUser(trx, access.team, user.id);
    await recordAudit(trx, { op: 'team.member.add', target: teamTarget(access.org, access.team), owner: access.org, extra: { member: user.name, member_id: user.id } });
  });
}

/**
 * DELETE /teams/{id}/members/{username}: the last member of the Owners team stays (422, as
 * removing the last owner from the organization). Watches of private repositories the user can
 * no longer read go; a user left on no team leaves the organization.
 */
export async function removeMember(db: DB, id: number, viewer: User, name: string): Promise<void> {
  const access = await lookupTeam(db, id, viewer);
  assertManages(access);
  const { team, org } = access;
  const user = await namedUser(db, name);
  await db.transaction().execute(async (trx) => {
    if (!(await isTeamMember(trx, team.id, user.id))) return;
    const current = await getTeamById(trx, team.id);
    if (team.authorize === ACCESS.owner && (current?.num_members ?? 0) <= 1) {
      throw new InvalidError(`user is the last member of owner team [uid: ${user.id}]`);
    }
    await removeTeamUser(trx, team, user.id);
    await recordAudit(trx, { op: 'team.member.remove', target: teamTarget(org, team), owner: org, extra: { member: user.name, member_id: user.id } });
    await dropUnreadableWatches(trx, org, user, await teamRepoIds(trx, team.id));
    await dropOrgMembershipIfTeamless(trx, org.id, user.id);
  });
}
