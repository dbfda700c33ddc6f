import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { ForbiddenError, UnauthorizedError } from '../../lib/errors';
import { verifyPassword } from '../../lib/password';
import { rememberVerified, wasVerified } from '../../lib/verified-cache';
import { parseStoredScopes, type ScopeSet } from '../../lib/scopes';
import { nowUnix } from '../../lib/time';
import { hashToken, looksLikeToken } from '../../lib/token';
import { getTokenWithUser, touchToken } from '../../models/access-token';
import { getEmail } from '../../models/email';
import { getCallerByNameAndRepo, getTokenAndRepo } from '../../models/repo-path';
import { getUserById, getUserByName } from '../../models/user';
import { authenticateJobToken } from '../actions/actions-user';
import type { HeldRepo, RepoPath } from '../repo/repo-path';

/**
 * The caller and, when the request named a repository path (`path` below), the owner's and the
 * repository's rows read in the same statement: the repository guard answers from them.
 */
export type Authenticated = { user: User; scopes: ScopeSet | null; held?: HeldRepo };

// The provider's code loads with the first OAuth2 token, not with the server.
let oauth2Tokens: Promise<typeof import('../oauth2/tokens')> | undefined;

/** Three base64url parts: an OAuth2 access token of the provider (personal tokens are 40 hex). */
const looksLikeJwt = (value: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);

/**
 * A personal access token, or an OAuth2 access token (a JWT of the provider, limited to its
 * grant's scopes) when the instance secret that seals the signing key is given; null when unknown.
 */
export async function authenticateToken(db: DB, token: string, secret?: string, path?: RepoPath): Promise<Authenticated | null> {
  if (secret && looksLikeJwt(token.trim())) {
    const { verifyAccessToken } = await (oauth2Tokens ??= import('../oauth2/tokens'));
    const caller = await verifyAccessToken(db, secret, token.trim());
    return caller ? { user: caller.user, scopes: caller.scopes } : null;
  }
  const hash = hashToken(token.trim());
  const read = path ? await getTokenAndRepo(db, hash, path.owner, path.name) : undefined;
  const held = read && path ? { path, rows: { owner: read.owner, repo: read.repo, collaborator: read.collaborator } } : undefined;
  const found = read ? read.token : await getTokenWithUser(db, hash);
  if (!found) {
    // Not a personal token: maybe a running Actions task's job token (the gitea-actions user).
    const job = await authenticateJobToken(db, token);
    return job && held ? { ...job, held } : job;
  }
  const { token: row, user } = found;
  // Organizations never sign in, whatever token may name them.
  if (!user || user.type !== 0) return null;
  const now = nowUnix();
  if (row.updated_unix !== now) await touchToken(db, row.id, now);
  return { user, scopes: parseStoredScopes(row.scope), held };
}

/** The account a sign-in name or activated email names, with the rows of `path` when given. */
async function accountOf(db: DB, login: string, path?: RepoPath): Promise<{ user: User | undefined; held?: HeldRepo }> {
  let user: User | undefined;
  let held: HeldRepo | undefined;
  if (path) {
    const read = await getCallerByNameAndRepo(db, login.toLowerCase(), path.owner, path.name);
    user = read.caller;
    held = { path, rows: { owner: read.owner, repo: read.repo, collaborator: read.collaborator } };
  } else {
    user = await getUserByName(db, login);
  }
  if (!user && login.includes('@')) {
    const email = await getEmail(db, login);
    if (email?.is_activated) user = await getUserById(db, email.uid);
  }
  return { user, held };
}

/** The account and the rows of `path` (see accountOf); the account is null when the name or the password is wrong. */
async function passwordSignIn(db: DB, login: string, password: string, path?: RepoPath): Promise<{ user: User | null; held?: HeldRepo }> {
  const { user, held } = await accountOf(db, login, path);
  if (!user || user.type !== 0) return { user: null, held };
  if (wasVerified(user.passwd, password)) return { user, held };
  if (!(await verifyPassword(password, user.passwd, user.passwd_hash_algo))) return { user: null, held };
  rememberVerified(user.passwd, password);
  return { user, held };
}

/** Sign-in by user name or email and password; null when either is wrong. */
export async function authenticatePassword(db: DB, login: string, password: string): Promise<User | null> {
  return (await passwordSignIn(db, login, password)).user;
}

/**
 * Basic credentials, as Gitea reads them: an empty password (or `x-oauth-basic`) makes the
 * user name the token; otherwise the password is tried as a token, then as a password.
 */
export async function authenticateBasic(db: DB, login: string, password: string, secret?: string, path?: RepoPath): Promise<Authenticated> {
  const usernameIsToken = password === '' || password === 'x-oauth-basic';
  const candidate = usernameIsToken ? login : password;
  // Only a value shaped like a token (40 hex, or an OAuth2 JWT) can be one: a plain password skips the lookup.
  const shaped = looksLikeToken(candidate.trim()) || (!!secret && looksLikeJwt(candidate.trim()));
  const byToken = shaped ? await authenticateToken(db, candidate, secret, path) : null;
  if (byToken) return byToken;
  if (usernameIsToken) throw new UnauthorizedError();
  const { user, held } = await passwordSignIn(db, login, password, path);
  if (!user) throw new UnauthorizedError();
  return { user, scopes: null, held };
}

/** An inactive or login-prohibited account named by good credentials (403 in the API). */
export class SignInProhibitedError extends ForbiddenError {
  constructor() { super('This account is prohibited from signing in, please contact your site administrator.'); }
}

/** Inactive or login-prohibited accounts may not act, whatever their credentials. */
export function assertMaySignIn(user: User): void {
  if (!user.is_active || user.prohibit_login) throw new SignInProhibitedError();
}

/**
 * Whether the web pages send the user to change the password first: flagged by an admin, or, in
 * a browser, a password hearth printed (scripts keep using that one: see ensureInitialAdmin).
 */
export const mustSetPasswordFirst = (user: Pick<User, 'must_change_password' | 'password_printed'>, inBrowser: boolean): boolean =>
  !!user.must_change_password || (inBrowser && !!user.password_printed);

/** Where a user flagged must_change_password sets a new one (the web page of web.ts). */
const changePasswordUrl = (rootUrl: string) => `${rootUrl.replace(/\/+$/, '')}/user/change_password`;

/** Gitea answers every API call of a user who must change their password with 403 until they do. */
export function assertPasswordCurrent(user: User, rootUrl: string): void {
  if (user.must_change_password) throw new ForbiddenError(`You must change your password. Change it at: ${changePasswordUrl(rootUrl)}`);
}
