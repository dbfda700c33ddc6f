import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { User, UserUpdate } from '../db/schema';
import { ForbiddenError, InvalidError } from '../lib/errors';
import { hashPassword, PASSWORD_ALGO } from '../lib/password';
import { searchUsers, USER_TYPE_INDIVIDUAL } from '../models/user';
import { assertNotLastAdmin, assertPasswordPolicy, deleteUser, updateUserWithEmail } from './users';
import { VISIBILITY, type VisibilityName } from './visibility';

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
export async function adminEditUser(db: DB, config: Config, user: User, edit: AdminEdit): Promise<User> {
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
  if (edit.admin === false) await assertNotLastAdmin(db, user);
  if (edit.password !== undefined && edit.password !== '') {
    patch.passwd = await hashPassword(assertPasswordPolicy(config, edit.password));
    patch.passwd_hash_algo = PASSWORD_ALGO;
  }
  const email = edit.email === undefined || edit.email === '' ? undefined : edit.email.trim();
  return updateUserWithEmail(db, user, patch, email);
}

export async function adminDeleteUser(db: DB, doer: User, user: User): Promise<void> {
  if (user.type !== USER_TYPE_INDIVIDUAL) throw new InvalidError(`${user.name} is an organization not a user`);
  if (user.id === doer.id) throw new InvalidError('you cannot delete yourself');
  await deleteUser(db, user);
}

export function adminSearchUsers(
  db: DB, page: { offset: number; limit: number }, q: { sourceId?: number; loginName?: string; isAdmin?: boolean } = {},
) {
  return searchUsers(db, { type: USER_TYPE_INDIVIDUAL, ...page, ...q });
}

export function assertSiteAdmin(user: User | null): void {
  if (!user?.is_admin) throw new ForbiddenError('You must be an admin to perform this action.');
}
