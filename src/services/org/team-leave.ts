import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { deleteOrgMembership } from '../../models/org-members';
import { getRepoById } from '../../models/repo';
import { countUserTeamsInOrg, privateRepoIdsOfOwner } from '../../models/team';
import { getUserById } from '../../models/user';
import { dropMarks } from '../../models/user-block';
import { ACCESS, accessMode } from '../permissions';

// What leaving a team costs a user: watches of repositories it can no longer read, and the
// organization membership once no team of it is left.

/** Gitea's ReconsiderWatches: watches of repositories the user can no longer read go. */
export async function dropUnreadableWatches(db: DB, org: User, user: User, repoIds: number[]): Promise<void> {
  const lost: number[] = [];
  for (const id of repoIds) {
    const repo = await getRepoById(db, id);
    if (repo?.is_private && (await accessMode(db, user, repo, org)) === ACCESS.none) lost.push(id);
  }
  await dropMarks(db, user.id, lost, ['watch']);
}

/** Gitea's removeInvalidOrgUser: a user on no team of the organization is no longer a member. */
export async function dropOrgMembershipIfTeamless(db: DB, orgId: number, uid: number): Promise<void> {
  if (await countUserTeamsInOrg(db, orgId, uid)) return;
  await deleteOrgMembership(db, orgId, uid);
  const user = await getUserById(db, uid);
  const org = await getUserById(db, orgId);
  if (!user || !org) return;
  await dropUnreadableWatches(db, org, user, await privateRepoIdsOfOwner(db, orgId));
}
