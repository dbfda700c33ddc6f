import type { DB } from '../../db/connect';
import type { User, UserUpdate } from '../../db/schema';
import { BadRequestError, ForbiddenError, InvalidError } from '../../lib/errors';
import { hashPassword, PASSWORD_ALGO } from '../../lib/password';
import { orgIdsOfUser } from '../../models/org-members';
import { listReposOfOwner } from '../../models/repo';
import { countAdmins, getUserById, searchUsers, USER_TYPE_INDIVIDUAL } from '../../models/user';
import { isLastOwner, removeMember } from '../org/org-members';
import { deleteOrganization } from '../org/orgs';
import { ACCESS } from '../permissions';
import { deleteRepository } from '../repo/repo-edit';
import { assertNotLastAdmin, assertPasswordPolicy, deleteUser, updateUserWithEmail } from './users';
import { VISIBILITY, type VisibilityName } from '../visibility';
import { isValidEmail } from '../names';
import { userTarget, type AuditEntry } from '../audit/record';
import { removeAvatarFile } from './avatars';
import type { Hearth } from '../../hearth';

export type AdminEdit = {
  email?: string; full_name?: string; login_name?: string; source_id?: number; password?: string;
  must_change_password?: boolean; website?: string; location?: string; description?: string;
  active?: boolean; admin?: boolean; allow_git_hook?: boolean; allow_import_local?: boolean;
  allow_create_organization?: boolean; prohibit_login?: boolean; restricted?: boolean;
  max_repo_creation?: number; visibility?: VisibilityName;
};

const FLAGS = {
  must_change_password: 'must_change_password', active: 'is_active', admin: 'is_admin',
  allow_git_hook: 'allow_git_hook', allow_import_local: 'allow_import_local',
  allow_create_organization: 'allow_create_organization', prohibit_login: 'prohibit_login',
  restricted: 'is_restricted',
} as const;

/** Applies the fields that are present; demoting the last site admin is refused. */
export async function adminEditUser(h: Hearth, user: User, edit: AdminEdit): Promise<User> {
  const patch: UserUpdate = {};
  for (const key of ['full_name', 'login_name', 'website', 'location', 'description'] as const) {
    if (edit[key] !== undefined) patch[key] = edit[key];
  }
  if (edit.source_id !== undefined) patch.login_source = edit.source_id;
  if (edit.max_repo_creation !== undefined) patch.max_repo_creation = edit.max_repo_creation;
  if (edit.visibility !== undefined) patch.visibility = VISIBILITY[edit.visibility];
  for (const [field, column] of Object.entries(FLAGS) as [keyof typeof FLAGS, (typeof FLAGS)[keyof typeof FLAGS]][]) {
    if (edit[field] !== undefined) patch[column] = edit[field] ? 1 : 0;
  }
  if (edit.admin === false) await assertNotLastAdmin(h.db, user);
  if (edit.password !== undefined && edit.password !== '') {
    patch.passwd = await hashPassword(assertPasswordPolicy(h.config, edit.password));
    patch.passwd_hash_algo = PASSWORD_ALGO;
    patch.password_printed = 0; // a password set by an admin is no longer the one the start printed
  }
  // As Gitea: an address given must be one, the empty one included (400, before any change).
  if (edit.email !== undefined && !isValidEmail(edit.email.trim())) throw new BadRequestError(`e-mail invalid [email: ${edit.email}]`);
  const email = edit.email === undefined ? undefined : edit.email.trim();
  // Which fields changed, never their values (a password hash has no place in the log).
  const fields = Object.keys(patch).filter((k) => k !== 'passwd_hash_algo').concat(email ? ['email'] : []);
  const audits: AuditEntry[] = [{ op: 'admin.user.edit', target: userTarget(user), owner: user, extra: { fields } }];
  if (patch.passwd) audits.push({ op: 'user.password.change', target: userTarget(user), owner: user });
  return updateUserWithEmail(h.db, user, patch, email, audits);
}

export async function adminDeleteUser(h: Hearth, doer: User, user: User, purge = false): Promise<void> {
  if (user.type !== USER_TYPE_INDIVIDUAL) throw new InvalidError(`${user.name} is an organization not a user`);
  if (user.id === doer.id) throw new InvalidError('you cannot delete yourself');
  if (purge) {
    if (user.is_admin && (await countAdmins(h.db)) <= 1) throw new InvalidError(`can not delete the last admin user [uid: ${user.id}]`);
    await purgeOwnership(h, user);
  }
  await deleteUser(h.db, user);
  await removeAvatarFile(h, user);
}

/**
 * Gitea's purge: the user's repositories are deleted and its memberships removed; an
 * organization it is the last owner of is deleted with its repositories.
 */
async function purgeOwnership(h: Hearth, user: User): Promise<void> {
  for (const repo of await listReposOfOwner(h.db, user.id)) {
    await deleteRepository(h, { repo, owner: user, mode: ACCESS.owner });
  }
  for (const orgId of await orgIdsOfUser(h.db, user.id)) {
    const org = await getUserById(h.db, orgId);
    if (!org) continue;
    if (await isLastOwner(h.db, org.id, user.id)) await deleteOrganization(h, org, true);
    else await removeMember(h.db, org, user.name);
  }
}

export function adminSearchUsers(
  db: DB, page: { offset: number; limit: number }, q: { sourceId?: number; loginName?: string; isAdmin?: boolean; keyword?: string; byEmail?: { viewerId?: number; admin: boolean } } = {},
) {
  return searchUsers(db, { type: USER_TYPE_INDIVIDUAL, ...page, ...q });
}

export function assertSiteAdmin(user: User | null): void {
  if (!user?.is_admin) throw new ForbiddenError('You must be an admin to perform this action.');
}
