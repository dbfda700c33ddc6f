import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User, UserUpdate } from '../../db/schema';
import { ownerDir } from '../../git/repo';
import { BadRequestError, ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { hashPassword, PASSWORD_ALGO, verifyPassword } from '../../lib/password';
import { nowUnix } from '../../lib/time';
import { getEmail, insertEmail, setPrimaryEmail } from '../../models/email';
import { orgIdsOfUser } from '../../models/org-members';
import { countReposOfOwner, setOwnerNameOfRepos } from '../../models/repo';
import * as users from '../../models/user';
import { deleteRedirectsToUser, deleteUserRedirect, getUserRedirect, setUserRedirect } from '../../models/user-redirect';
import { deleteUserSettings } from '../../models/user-setting';
import { deleteWebhooksOf } from '../../models/webhook';
import { assertValidEmail, assertValidUserName } from '../names';
import { canSeeOwner } from '../permissions';
import { VISIBILITY, type VisibilityName } from '../visibility';
import { recordAudit, userTarget, type AuditEntry } from '../audit/record';
import { inTransactionWithMoves } from '../repo/dir-moves';
import { isEmailDomainAllowed } from './email-domains';
import { revokeOtherSessions } from './sessions';
import type { Hearth } from '../../hearth';

export type CreateUserInput = {
  username: string;
  email: string;
  password?: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  mustChangePassword?: boolean;
  restricted?: boolean;
  visibility?: VisibilityName;
  isAdmin?: boolean;
  createdUnix?: number;
  /** Made through /user/sign_up: the e-mail domain lists apply (an admin's creation is let through). */
  selfSignUp?: boolean;
};

export function assertPasswordPolicy(config: Config, password: string | undefined, field = 'password'): string {
  const min = config.security.min_password_length;
  if (!password || password.length < min) {
    throw new BadRequestError(`[${field}]: password is required and must be at least ${min} characters`);
  }
  return password;
}

async function assertEmailFree(db: DB, email: string, ownerId?: number): Promise<void> {
  const used = await getEmail(db, email);
  if (used && used.uid !== ownerId) throw new InvalidError(`e-mail already in use [email: ${email}]`, 'email');
}

async function assertNameFree(db: DB, name: string, ownerId?: number): Promise<void> {
  const taken = await users.getUserByName(db, name);
  if (taken && taken.id !== ownerId) throw new InvalidError(`user already exists [name: ${name}]`, 'username');
}

/** Creates an individual user with its primary email, all in one transaction. */
export async function createUser(db: DB, config: Config, input: CreateUserInput): Promise<User> {
  assertValidUserName(input.username);
  // Spaces around the address are forgiven; a line break inside the text is not (Gitea's
  // binding refuses "a@b.c\r\n" as no e-mail address).
  if (/[\r\n]/.test(input.email)) assertValidEmail(input.email);
  const email = input.email.trim();
  assertValidEmail(email);
  if (input.selfSignUp && !isEmailDomainAllowed(config, email)) {
    throw new InvalidError(`the domain of the e-mail address is not allowed to sign up [email: ${email}]`, 'email');
  }
  const password = assertPasswordPolicy(config, input.password);
  const passwd = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    await assertNameFree(trx, input.username);
    await assertEmailFree(trx, email);
    const now = nowUnix();
    const user = await users.insertUser(trx, {
      name: input.username,
      lower_name: input.username.toLowerCase(),
      full_name: input.fullName ?? '',
      email,
      passwd,
      passwd_hash_algo: PASSWORD_ALGO,
      login_name: input.loginName ?? '',
      login_source: input.sourceId ?? 0,
      must_change_password: input.mustChangePassword ? 1 : 0,
      is_restricted: input.restricted ? 1 : 0,
      is_admin: input.isAdmin ? 1 : 0,
      visibility: VISIBILITY[input.visibility ?? config.service.default_user_visibility],
      keep_email_private: config.service.default_keep_email_private ? 1 : 0,
      allow_create_organization: config.service.default_allow_create_organization ? 1 : 0,
      theme: config.ui.default_theme,
      created_unix: input.createdUnix ?? now,
      updated_unix: now,
    });
    await insertEmail(trx, { uid: user.id, email, is_primary: true, is_activated: true });
    // The name is someone's again: a renamed account's old name no longer leads to it.
    await deleteUserRedirect(trx, user.name);
    await recordAudit(trx, { op: 'user.create', target: userTarget(user), owner: user, extra: { is_admin: !!input.isAdmin } });
    return user;
  });
}

/** Whether no account exists yet: the CLI's first user is not made to change a password it was just given. */
export const noAccountsYet = async (db: DB): Promise<boolean> => !(await users.anyUserRow(db));

export async function requireUser(db: DB, name: string): Promise<User> {
  const user = await users.getUserByName(db, name);
  if (!user || user.type !== users.USER_TYPE_INDIVIDUAL) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return user;
}

/**
 * Sets a new password and ends the user's browser sessions but `keepSession` (the one that
 * changed it), in the same transaction: whoever knew the old password is signed out.
 */
export async function changePassword(
  h: Hearth, user: User, password: string, mustChange?: boolean, keepSession = 0,
): Promise<void> {
  assertPasswordPolicy(h.config, password);
  const passwd = await hashPassword(password);
  await h.db.transaction().execute(async (trx) => {
    await users.updateUser(trx, user.id, {
      passwd, passwd_hash_algo: PASSWORD_ALGO, updated_unix: nowUnix(), password_printed: 0,
      ...(mustChange === undefined ? {} : { must_change_password: mustChange ? 1 : 0 }),
    });
    await recordAudit(trx, { op: 'user.password.change', target: userTarget(user), owner: user });
    await revokeOtherSessions(trx, user.id, keepSession);
  });
}

export type PasswordChangeForm = { old_password?: unknown; password?: unknown; retype?: unknown };

/**
 * The change-password page: the current password proves the caller owns the account (a browser
 * may send cached Basic credentials with a form another site posts), the new one typed twice;
 * clears must_change_password.
 */
export async function changeOwnPassword(h: Hearth, user: User, form: PasswordChangeForm, keepSession = 0): Promise<void> {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const [old, next, retype] = [str(form.old_password), str(form.password), str(form.retype)];
  if (!(await verifyPassword(old, user.passwd, user.passwd_hash_algo))) throw new InvalidError('The current password is not correct.', 'old_password');
  if (next !== retype) throw new InvalidError('The passwords do not match.', 'retype');
  if (next === old) throw new InvalidError('The new password must differ from the current one.', 'password');
  const min = h.config.security.min_password_length;
  if (next.length < min) throw new InvalidError(`The password must be at least ${min} characters.`, 'password');
  await changePassword(h, user, next, false, keepSession);
}

/**
 * Applies a patch that may change the primary email; name and email checks run in the
 * transaction, and so do the audit rows the caller describes the change with.
 */
export async function updateUserWithEmail(db: DB, user: User, patch: UserUpdate, email?: string, audits: AuditEntry[] = []): Promise<User> {
  if (email !== undefined) assertValidEmail(email);
  return db.transaction().execute(async (trx) => {
    if (email !== undefined && email.toLowerCase() !== user.email.toLowerCase()) {
      await assertEmailFree(trx, email, user.id);
      await setPrimaryEmail(trx, user.id, email);
      patch = { ...patch, email };
    }
    await users.updateUser(trx, user.id, { ...patch, updated_unix: nowUnix() });
    for (const a of audits) await recordAudit(trx, a);
    // A password set by an admin signs every browser of the user out.
    if (patch.passwd) await revokeOtherSessions(trx, user.id);
    return (await users.getUserById(trx, user.id))!;
  });
}

/**
 * Renames a user or organization: the row, the owner name cached on its repositories and, last
 * in the transaction, its directory of repositories, under an 'owner.move' intent (dir-moves.ts):
 * a failed move rolls the rows back, a crash is finished or undone at the next start.
 */
export async function renameUser(h: Hearth, user: User, newName: string, field = 'new_username'): Promise<void> {
  assertValidUserName(newName, field);
  if (newName === user.name) return;
  const from = ownerDir(h.config.repository.root, user.name);
  const to = ownerDir(h.config.repository.root, newName);
  const staged = { kind: 'owner.move' as const, payload: { userId: user.id }, moves: [{ from, to }], crashAt: 'owner.rename.after-move' };
  await inTransactionWithMoves(h.db, staged, async (trx) => {
    await assertNameFree(trx, newName, user.id);
    await users.updateUser(trx, user.id, { name: newName, lower_name: newName.toLowerCase(), updated_unix: nowUnix() });
    await setOwnerNameOfRepos(trx, user.id, newName);
    // Gitea's user_redirect: the old name leads here (its repositories too); the new one is no
    // longer a redirect of anyone's.
    await deleteUserRedirect(trx, newName);
    if (user.lower_name !== newName.toLowerCase()) await setUserRedirect(trx, user.name, user.id);
    await recordAudit(trx, {
      op: user.type === 1 ? 'org.rename' : 'user.rename', target: { ...userTarget(user), name: newName }, owner: user,
      extra: { old_name: user.name, new_name: newName },
    });
    // An empty directory left by a deleted owner of that name is no obstacle (the move replaces it).
    if (from !== to && fs.existsSync(from) && fs.existsSync(to) && fs.readdirSync(to).length) {
      throw new ConflictError(`repository files already exist for [${newName}]`);
    }
  });
}

/**
 * Refuses to remove the last site admin, and, as Gitea, users who still own repositories or
 * belong to organizations (purging removes those first).
 */
export async function deleteUser(db: DB, user: User): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (user.is_admin && (await users.countAdmins(trx)) <= 1) {
      throw new InvalidError(`can not delete the last admin user [uid: ${user.id}]`);
    }
    if (await countReposOfOwner(trx, user.id)) {
      throw new InvalidError(`user still has ownership of repositories [uid: ${user.id}]`);
    }
    if ((await orgIdsOfUser(trx, user.id)).length) {
      throw new InvalidError(`user still has membership of organizations [uid: ${user.id}]`);
    }
    await deleteWebhooksOf(trx, { ownerId: user.id });
    await deleteUserSettings(trx, user.id);
    await users.deleteUserRow(trx, user.id);
    await deleteRedirectsToUser(trx, user.id);
    await recordAudit(trx, { op: 'user.delete', target: userTarget(user), owner: user });
  });
}

export async function assertNotLastAdmin(db: DB, user: User): Promise<void> {
  if (user.is_admin && (await users.countAdmins(db)) <= 1) {
    throw new BadRequestError('cannot remove the last instance admin');
  }
}

export const findUserByName = (db: DB, name: string): Promise<User | undefined> => users.getUserByName(db, name);

/** The named user, or a 404 when it does not exist or the viewer may not see it. */
/**
 * The new name of a renamed user or organization the viewer may see (Gitea's LookupUserRedirect),
 * or null when `name` is no old name of anyone visible.
 */
export async function renamedUserName(db: DB, name: string, viewer: User | null): Promise<string | null> {
  const id = await getUserRedirect(db, name);
  const user = id ? await users.getUserById(db, id) : undefined;
  return user && (await canSeeOwner(db, user, viewer)) ? user.name : null;
}

export async function getVisibleUser(db: DB, name: string, viewer: User | null): Promise<User> {
  const user = await users.getUserByName(db, name);
  if (!user || !(await canSeeOwner(db, user, viewer))) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
  return user;
}
