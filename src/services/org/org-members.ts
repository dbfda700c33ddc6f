import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import {
  countOwners, deleteOrgMembership, isPublicMember, listOrgMembers, privateOrgRepoIdsWithoutCollab, setMembershipPublic,
} from '../../models/org-members';
import { isOrgOwner } from '../../models/org';
import { isOrgMember } from '../../models/team-access';
import { getUserByName } from '../../models/user';
import { dropMarks } from '../../models/user-block';
import type { OrgAccess } from './orgs';

type Page = { offset: number; limit: number };

/** The `{username}` of a membership path: any existing account, hidden or not (as Gitea). */
async function memberTarget(db: DB, name: string): Promise<User> {
  const user = await getUserByName(db, name);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return user;
}

/**
 * GET /orgs/{org}/members and /public_members: members and site admins see every member,
 * others only public memberships (Gitea's FindOrgMembersOpts.PublicOnly).
 */
export function listMembers(db: DB, access: OrgAccess, viewer: User | null, page: Page, asMember = access.isMember) {
  const seesAll = !!viewer && (asMember || viewer.is_admin === 1);
  return listOrgMembers(db, { orgId: access.org.id, publicOnly: !seesAll, ...page });
}

export type MemberCheck = { answer: 'member' | 'not-member' | 'ask-public'; target: User };

/**
 * GET /orgs/{org}/members/{username}: members and site admins learn the answer; anyone else
 * is sent to the public membership check (303), except when asking about themselves (404).
 */
export async function checkMember(db: DB, access: OrgAccess, viewer: User, name: string): Promise<MemberCheck> {
  const target = await memberTarget(db, name);
  if (access.isMember || viewer.is_admin) {
    return { target, answer: (await isOrgMember(db, access.org.id, target.id)) ? 'member' : 'not-member' };
  }
  return { target, answer: viewer.id === target.id ? 'not-member' : 'ask-public' };
}

export async function isPublicMemberOf(db: DB, access: OrgAccess, name: string): Promise<boolean> {
  return isPublicMember(db, access.org.id, (await memberTarget(db, name)).id);
}

/** PUT/DELETE /orgs/{org}/public_members/{username}: a member shows or hides only their own membership. */
export async function setPublicity(db: DB, access: OrgAccess, doer: User, name: string, isPublic: boolean): Promise<void> {
  const target = await memberTarget(db, name);
  if (target.id !== doer.id) throw new ForbiddenError(`Cannot ${isPublic ? 'publicize' : 'conceal'} another member`);
  await setMembershipPublic(db, access.org.id, target.id, isPublic);
}

/**
 * DELETE /orgs/{org}/members/{username}: off every team and out of the organization, in one
 * transaction; the last owner stays. Watches of private repositories the user can no longer
 * read go too. Not a member: nothing to do (Gitea answers 204 as well).
 */
export async function removeMember(db: DB, org: User, name: string): Promise<void> {
  const user = await memberTarget(db, name);
  await db.transaction().execute(async (trx) => {
    if (!(await isOrgMember(trx, org.id, user.id))) {
      await deleteOrgMembership(trx, org.id, user.id);
      return;
    }
    if (await isLastOwner(trx, org.id, user.id)) {
      throw new InvalidError(`user is the last member of owner team [uid: ${user.id}]`);
    }
    await deleteOrgMembership(trx, org.id, user.id);
    await dropWatches(trx, org.id, user.id);
  });
}

/** Whether the user is the only one left on the organization's Owners team. */
export async function isLastOwner(db: DB, orgId: number, uid: number): Promise<boolean> {
  return (await isOrgOwner(db, orgId, uid)) && (await countOwners(db, orgId)) <= 1;
}

async function dropWatches(db: DB, orgId: number, uid: number): Promise<void> {
  await dropMarks(db, uid, await privateOrgRepoIdsWithoutCollab(db, orgId, uid), ['watch']);
}
