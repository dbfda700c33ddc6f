import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { ForbiddenError, InvalidError } from '../../lib/errors';
import { isOrgOwner } from '../../models/org';
import { getUserById, getUserByName } from '../../models/user';
import { createOrgRepository } from '../org/org-repos';
import { lookupOrg } from '../org/orgs';
import { ORG_TYPE } from '../permissions';
import { createRepository, type CreateRepoInput } from '../repo/repo-create';
import type { Hearth } from '../../hearth';

// Who owns a migrated repository and how its (empty) row and directory come to be: as
// POST /user/repos for the caller, as POST /orgs/{org}/repos for an organization.

/** repo_owner (or the deprecated uid, or the caller); 422 when unknown, 403 when not allowed. */
export async function migrationOwner(db: DB, doer: User, repoOwner: string | undefined, uid: number | undefined): Promise<User> {
  let owner: User | undefined = doer;
  if (repoOwner) owner = repoOwner.toLowerCase() === doer.lower_name ? doer : await getUserByName(db, repoOwner);
  else if (uid) owner = uid === doer.id ? doer : await getUserById(db, uid);
  if (!owner) throw new InvalidError(`user does not exist [uid: ${uid ?? 0}, name: ${repoOwner ?? ''}]`, 'repo_owner');
  if (doer.is_admin || owner.id === doer.id) return owner;
  if (owner.type !== ORG_TYPE) throw new ForbiddenError('Given user is not an organization.');
  // Gitea 1.25 lets only an organization's owners migrate into it (not every team that may create).
  if (!(await isOrgOwner(db, owner.id, doer.id))) throw new ForbiddenError('Given user is not owner of organization.');
  return owner;
}

/** The empty repository the migration fills (teams and creator access for organizations). */
export async function createTarget(h: Hearth, doer: User, owner: User, input: CreateRepoInput): Promise<Repository> {
  if (owner.type !== ORG_TYPE) return createRepository(h, doer, owner, input);
  const org = await lookupOrg(h.db, owner.name, doer);
  return (await createOrgRepository(h, doer, org, input)).repo;
}
