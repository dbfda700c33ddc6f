import type { User } from '../db/schema';
import type { Hearth } from '../hearth';
import { randomPassword } from '../lib/password';
import { usersByEmails } from '../models/commit-users';
import { getUserById, USER_TYPE_INDIVIDUAL } from '../models/user';
import { adminDeleteUser, adminEditUser, adminSearchUsers } from '../services/user/admin-users';
import { createToken } from '../services/user/tokens';
import { changePassword, createUser, noAccountsYet, requireUser } from '../services/user/users';
import { isEmptyScope, parseScopes } from '../lib/scopes';
import { withHearth } from './admin';
import { CliError, type CommonOptions } from './options';

// What `hearth admin user ...` does (the commands are defined in admin.ts, which loads this file
// when one of them runs).

/**
 * The doer of a command line action, as Gitea's CLI user: no account, so the web rule
 * "you cannot delete yourself" never matches it.
 */
const CLI_DOER = { id: -1, name: 'CLI', is_admin: 1, type: USER_TYPE_INDIVIDUAL } as User;

type CreateOptions = CommonOptions & {
  username?: string; name?: string; email: string; password?: string; randomPassword?: boolean; randomPasswordLength?: string;
  admin?: boolean; restricted?: boolean; mustChangePassword?: boolean | string;
  accessToken?: boolean; accessTokenName?: string; accessTokenScopes?: string;
};

/** Gitea's boolean flags: `--flag` is true, `--flag=false` (or true, 1, 0) says so; absent is `absent`. */
function flagValue(name: string, v: boolean | string | undefined, absent: boolean | undefined): boolean | undefined {
  if (v === undefined) return absent;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new CliError(`--${name}: expected true or false, got '${v}'`);
}

/** The token --access-token asks for, checked before the user exists (Gitea prepares both first). */
function tokenRequest(opts: CreateOptions): { name: string; scopes: string } | null {
  if (!opts.accessToken) {
    if (opts.accessTokenName !== undefined || opts.accessTokenScopes !== undefined) {
      throw new CliError('access-token-name and access-token-scopes flags are only valid when access-token flag is set');
    }
    return null;
  }
  const name = (opts.accessTokenName ?? 'gitea-admin').trim();
  if (!name) throw new CliError('access-token-name cannot be empty');
  const scopes = opts.accessTokenScopes ?? 'all';
  const parsed = parseScopes(scopes.split(','));
  if ('invalid' in parsed) throw new CliError(`invalid access token scope provided: access token scope "${parsed.invalid}" is invalid`);
  if (isEmptyScope(parsed)) throw new CliError('access token does not have any permission');
  return { name, scopes };
}

function passwordOf(opts: CreateOptions): string {
  if (opts.password !== undefined && opts.randomPassword) throw new CliError('--password and --random-password cannot be used together');
  if (opts.password !== undefined) return opts.password;
  if (!opts.randomPassword) throw new CliError('one of --password or --random-password is required');
  const length = opts.randomPasswordLength === undefined ? undefined : Number(opts.randomPasswordLength);
  if (length !== undefined && !(Number.isInteger(length) && length >= 8 && length <= 256)) {
    throw new CliError(`--random-password-length: expected a whole number from 8 to 256, got '${opts.randomPasswordLength}'`);
  }
  return randomPassword(length);
}

export async function createUserCommand(opts: CreateOptions): Promise<void> {
  if (opts.name !== undefined && opts.username !== undefined) throw new CliError('cannot set both --name and --username flags');
  const username = opts.username ?? opts.name;
  if (username === undefined) throw new CliError('one of --name or --username flags must be set');
  if (opts.name !== undefined) process.stderr.write('--name flag is deprecated. Use --username instead.\n');
  const password = passwordOf(opts);
  const token = tokenRequest(opts);
  await withHearth(opts, async (h) => {
    // As Gitea: a user made here must change the password at first sign-in, except the very first
    // account (the administrator setting up); --must-change-password=false|true decides otherwise.
    const mustChange = flagValue('must-change-password', opts.mustChangePassword, undefined) ?? !(await noAccountsYet(h.db));
    const user = await createUser(h.db, h.config, {
      username, email: opts.email, password, isAdmin: Boolean(opts.admin), restricted: Boolean(opts.restricted), mustChangePassword: mustChange,
    });
    if (opts.randomPassword) console.log(`generated random password is '${password}'`);
    if (token) {
      const created = await createToken(h.db, user, token.name, [token.scopes]);
      console.log(`Access token was successfully created... ${created.token}`);
    }
    console.log(`New user '${user.name}' has been successfully created!`);
  });
}

export async function changePasswordCommand(opts: CommonOptions & { username: string; password: string; mustChangePassword?: boolean | string }) {
  await withHearth(opts, async (h) => {
    const user = await requireUser(h.db, opts.username);
    // Gitea's default: whoever gets a password set by an admin picks their own at next sign-in.
    await changePassword(h, user, opts.password, flagValue('must-change-password', opts.mustChangePassword, true));
    console.log(`${user.name}'s password has been successfully updated!`);
  });
}

export async function listUsersCommand(opts: CommonOptions & { admin?: boolean }) {
  await withHearth(opts, async (h) => {
    const { users } = await adminSearchUsers(h.db, { offset: 0, limit: Number.MAX_SAFE_INTEGER }, { isAdmin: opts.admin });
    const rows = [['ID', 'Username', 'Email', 'IsActive', 'IsAdmin', '2FA']]
      .concat(users.map((u) => [String(u.id), u.name, u.email, String(Boolean(u.is_active)), String(Boolean(u.is_admin)), 'false']));
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
  });
}

type DeleteOptions = CommonOptions & { id?: string; username?: string; email?: string; purge?: boolean };

/** Gitea's lookup order: email, then name, then id; the other options given must agree with it. */
async function findUserToDelete(h: Hearth, opts: DeleteOptions): Promise<User> {
  let user: User | undefined;
  if (opts.email !== undefined) user = (await usersByEmails(h.db, [opts.email])).get(opts.email.toLowerCase());
  else if (opts.username !== undefined) user = await requireUser(h.db, opts.username);
  else {
    const id = Number(opts.id);
    if (!Number.isInteger(id) || id <= 0) throw new CliError(`--id: not a user id: ${opts.id}`);
    user = await getUserById(h.db, id);
  }
  if (!user || user.type !== USER_TYPE_INDIVIDUAL) {
    throw new CliError(`user does not exist [${opts.email !== undefined ? `email: ${opts.email}` : opts.username !== undefined ? `name: ${opts.username}` : `uid: ${opts.id}`}]`);
  }
  if (opts.username !== undefined && user.lower_name !== opts.username.trim().toLowerCase()) {
    throw new CliError(`the user ${user.name} who has email ${opts.email} does not match the provided username ${opts.username}`);
  }
  if (opts.id !== undefined && user.id !== Number(opts.id)) {
    throw new CliError(`the user ${user.name} does not match the provided id ${opts.id}`);
  }
  return user;
}

export async function deleteUserCommand(opts: DeleteOptions) {
  if (opts.id === undefined && opts.username === undefined && opts.email === undefined) {
    throw new CliError('you must provide the id, username or email of a user to delete');
  }
  await withHearth(opts, async (h) => {
    const user = await findUserToDelete(h, opts);
    // The service refuses the last admin and, without --purge, a user still owning repositories.
    await adminDeleteUser(h, CLI_DOER, user, Boolean(opts.purge));
    console.log(`User '${user.name}' has been successfully deleted!`);
  });
}

type TokenOptions = CommonOptions & { username?: string; tokenName: string; scopes?: string; raw?: boolean };

export async function generateTokenCommand(opts: TokenOptions) {
  if (!opts.username) throw new CliError('you must provide a username to generate a token for');
  await withHearth(opts, async (h) => {
    const user = await requireUser(h.db, opts.username!);
    // The API's rules: known scope names only, at least one, a name not used by this user yet.
    const { token } = await createToken(h.db, user, opts.tokenName, [opts.scopes ?? '']);
    console.log(opts.raw ? token : `Access token was successfully created: ${token}`);
  });
}

type MustChangeOptions = CommonOptions & { all?: boolean; unset?: boolean; exclude?: string[] };

export async function mustChangePasswordCommand(names: string[], opts: MustChangeOptions) {
  if (!names.length && !opts.all) throw new CliError('either usernames or --all must be provided');
  const mustChange = !opts.unset;
  const lower = (list: string[]) => new Set(list.map((n) => n.trim().toLowerCase()).filter(Boolean));
  const [include, exclude] = [lower(names), lower(opts.exclude ?? [])];
  await withHearth(opts, async (h) => {
    const { users } = await adminSearchUsers(h.db, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    // As Gitea, only users whose flag changes are counted.
    const targets = users.filter((u) => Boolean(u.must_change_password) !== mustChange
      && (opts.all || include.has(u.lower_name)) && !exclude.has(u.lower_name));
    for (const u of targets) await adminEditUser(h, u, { must_change_password: mustChange });
    console.log(`Updated ${targets.length} users setting MustChangePassword to ${mustChange}`);
  });
}
