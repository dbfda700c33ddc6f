import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { assertMaySignIn, assertPasswordCurrent, authenticateBasic, authenticateToken, type Authenticated } from '../../services/user/auth';
import { findUserByName } from '../../services/user/users';
import { recordSignIn, recordSignInFailure, recordSudo } from '../../services/audit/record';
import { jobTokenMayCall } from '../../services/actions/actions-user';
import { signInLimiter } from '../../services/user/signin-limit';
import { repoPathOf, type RepoPath } from '../../services/repo/repo-path';

export type Credentials = { kind: 'token'; token: string } | { kind: 'basic'; login: string; password: string };

/** Token from `?token=` / `?access_token=` or `Authorization: token|bearer X`; else Basic. */
export function credentialsOf(req: Request): Credentials | null {
  for (const key of ['access_token', 'token']) {
    const value = req.query[key];
    if (typeof value === 'string' && value !== '') return { kind: 'token', token: value };
  }
  const header = req.headers.authorization;
  if (!header) return null;
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if ((scheme === 'token' || scheme === 'bearer') && value) return { kind: 'token', token: value };
  if (scheme === 'basic' && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // Split on the first colon only: passwords may contain colons.
    if (colon < 0) return { kind: 'basic', login: decoded, password: '' };
    return { kind: 'basic', login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return null;
}

export type Verified = Authenticated & { method: 'basic' | 'token' };

const API_REPO_PATH = /^\/repos\/([^/]+)\/([^/]+)/;

/**
 * The `{owner}/{repo}` an API request's path names (`/api/v1/repos/{owner}/{repo}...`): the
 * caller is then read in the same statement as the owner and the repository, which the
 * repository guard takes from req.ctx.heldRepo instead of reading them again.
 */
function apiRepoPath(req: Request): RepoPath | undefined {
  const m = req.baseUrl === '/api/v1' ? API_REPO_PATH.exec(req.path) : null;
  if (!m) return undefined;
  try {
    return repoPathOf(decodeURIComponent(m[1]!), decodeURIComponent(m[2]!));
  } catch {
    return undefined; // a malformed escape: the route answers it, the guard reads as usual
  }
}

/** The caller the credentials name, or null when they name no one (a wrong password, an unknown token). */
async function verify(req: Request, creds: Credentials): Promise<Verified | null> {
  const path = apiRepoPath(req);
  if (creds.kind === 'token') {
    const found = await authenticateToken(req.ctx.db, creds.token, req.ctx.secret, path);
    return found ? { ...found, method: 'token' } : null;
  }
  try {
    const found = await authenticateBasic(req.ctx.db, creds.login, creds.password, req.ctx.secret, path);
    return { ...found, method: found.scopes ? 'token' : 'basic' };
  } catch (err) {
    if (err instanceof UnauthorizedError) return null;
    throw err;
  }
}

/**
 * The caller the credentials name, after the sign-in limiter for passwords; a failure is logged,
 * recorded and thrown (401), so every way of checking credentials answers the same.
 */
export async function checkCredentials(req: Request, creds: Credentials): Promise<Verified> {
  const ip = req.ctx.actor.ip;
  // Passwords are what gets guessed: Basic attempts pass the sign-in limiter first.
  const limiter = creds.kind === 'basic' ? signInLimiter(req.ctx.db) : null;
  if (limiter && creds.kind === 'basic') await limiter.beforeAttempt(ip, creds.login);
  const found = await verify(req, creds);
  if (found) return found;
  if (limiter && creds.kind === 'basic') limiter.recordFailure(ip, creds.login);
  // One fixed message with the name and the address: what fail2ban and the like match on.
  req.ctx.log.warn({ user: creds.kind === 'basic' ? creds.login : '', ip: req.ip, auth: creds.kind }, 'failed sign-in');
  await recordSignInFailure(req.ctx.db, creds.kind === 'basic' ? creds.login : '', ip, creds.kind);
  throw new UnauthorizedError();
}

/** The request acts as the verified caller (unless the account may not sign in). */
export async function actAs(req: Request, found: Verified): Promise<void> {
  assertMaySignIn(found.user);
  req.ctx.doer = found.user;
  req.ctx.signer = found.user;
  req.ctx.auth = found.method;
  req.ctx.scopes = found.scopes;
  req.ctx.heldRepo = found.held;
  Object.assign(req.ctx.actor, { id: found.user.id, name: found.user.name });
  if (found.method === 'basic') await recordSignIn(req.ctx.db, found.user, req.ctx.actor.ip, 'password');
}

let viaPassport: Promise<typeof import('./passport-api')> | undefined;

/**
 * Who is calling: fills req.ctx.doer/auth/scopes; anonymous when no credentials were sent.
 * Credentials go through passport strategies (passport-api.ts, loaded with the first request
 * that has any); HEARTH_API_AUTH=direct checks them by a direct call instead, the variant
 * bench/api and bench/api-cpu measure passport against.
 */
export function authenticate(): RequestHandler {
  const direct = process.env.HEARTH_API_AUTH === 'direct';
  return async (req: Request, _res: Response, next: NextFunction) => {
    const creds = credentialsOf(req);
    if (!creds) return next();
    const found = direct ? await checkCredentials(req, creds) : await (await (viaPassport ??= import('./passport-api'))).verifyViaPassport(req, creds);
    await actAs(req, found);
    next();
  };
}

/** API calls with an Actions job token change nothing outside repositories (git, LFS and packages allow theirs). */
export function jobTokenLimits(): RequestHandler {
  return (req, _res, next) => {
    if (req.ctx.doer && !jobTokenMayCall(req.ctx.doer, req.method, req.path)) {
      throw new ForbiddenError('an Actions job token may only change its own repository');
    }
    next();
  };
}

/** API calls of a user flagged must_change_password answer 403 (Gitea), whatever the credentials. */
export function passwordCurrent(): RequestHandler {
  return (req, _res, next) => {
    if (req.ctx.signer) assertPasswordCurrent(req.ctx.signer, req.ctx.config.server.root_url);
    next();
  };
}

/** `Sudo` header or `sudo` query: site admins act as another user. */
export function sudo(): RequestHandler {
  return async (req, _res, next) => {
    const fromQuery = typeof req.query.sudo === 'string' ? req.query.sudo : '';
    const target = fromQuery || req.get('Sudo') || '';
    if (!target) return next();
    if (!req.ctx.doer?.is_admin) throw new ForbiddenError('Only administrators allowed to sudo.');
    const user = await findUserByName(req.ctx.db, target);
    // Organizations never act: no one may sudo as one.
    if (!user || user.type !== 0) throw new NotFoundError();
    await recordSudo(req.ctx.db, req.ctx.actor, user, `${req.method} ${req.path}`);
    req.ctx.doer = user;
    // Rows of the request name the user acted as; each one says who signed in (extra.sudo_by).
    Object.assign(req.ctx.actor, { id: user.id, name: user.name, sudoBy: req.ctx.signer?.name });
    next();
  };
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
