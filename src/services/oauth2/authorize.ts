import crypto from 'node:crypto';
import net from 'node:net';
import type { DB } from '../../db/connect';
import type { OAuth2Application, User } from '../../db/schema';
import { NotFoundError, OAuth2Error } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { hashToken } from '../../lib/token';
import { getOAuth2ApplicationByClientId } from '../../models/oauth2-application';
import {
  deleteGrant, deleteStaleAuthorizationCodes, getGrantOf, insertAuthorizationCode, insertGrant, listGrantsOfUser,
  updateGrant, type GrantWithApp,
} from '../../models/oauth2-grant';
import { getUserById } from '../../models/user';
import { checkRequestedScope, scopeList } from './scopes';

// The authorization step of the provider (Gitea's /login/oauth/authorize and /grant): which
// application asks, whether its redirect URI is one it registered, what it asks for, and, once
// the user consents, a grant and a single-use authorization code (10 minutes, kept hashed).

export const CODE_SECONDS = 600;

export type AuthorizeParams = {
  client_id?: unknown; redirect_uri?: unknown; response_type?: unknown; state?: unknown; scope?: unknown;
  nonce?: unknown; code_challenge?: unknown; code_challenge_method?: unknown;
};

/** A checked request: what the consent page shows and the grant form carries. */
export type AuthorizeRequest = {
  app: OAuth2Application; owner: User | undefined; redirectUri: string; state: string; scope: string;
  nonce: string; codeChallenge: string; codeChallengeMethod: string;
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A loopback IP literal (RFC 8252 7.3): `localhost` is not one (it may resolve elsewhere). */
function isLoopbackIp(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return net.isIPv6(bare) && /^(?:0*:)*:?0*1$/.test(bare);
}

/** The URI without its port when it is an http loopback one, else unchanged. */
function portless(uri: string): string {
  if (!URL.canParse(uri)) return uri;
  const u = new URL(uri);
  if (u.protocol !== 'http:' || !isLoopbackIp(u.hostname)) return uri;
  u.port = '';
  return u.toString();
}

/**
 * Exact match with a registered URI; for public (native) clients an http loopback URI matches
 * whatever its port, as RFC 8252 7.3 asks (the app listens on a port the system gives it).
 */
export function redirectAllowed(app: OAuth2Application, uri: string): boolean {
  const registered = JSON.parse(app.redirect_uris) as string[];
  if (!uri) return false;
  if (registered.includes(uri)) return true;
  if (app.confidential_client) return false;
  const wanted = portless(uri);
  return wanted !== uri && registered.some((r) => portless(r) === wanted);
}

/**
 * The application and redirect URI, checked first: while either is wrong nothing may be sent
 * to the URI (an open redirect), so these errors are a page of ours, never a redirect.
 */
export async function checkClient(db: DB, params: AuthorizeParams): Promise<{ app: OAuth2Application; redirectUri: string }> {
  const app = await getOAuth2ApplicationByClientId(db, str(params.client_id));
  if (!app) throw new OAuth2Error('unauthorized_client', 'Client ID not registered');
  const redirectUri = str(params.redirect_uri);
  if (!redirectAllowed(app, redirectUri)) throw new OAuth2Error('invalid_request', 'Unregistered Redirect URI');
  return { app, redirectUri };
}

/** The rest of the request, once the redirect URI is known good: errors go back to it. */
export async function checkAuthorizeRequest(db: DB, params: AuthorizeParams): Promise<AuthorizeRequest> {
  const { app, redirectUri } = await checkClient(db, params);
  if (str(params.response_type) !== 'code') throw new OAuth2Error('unsupported_response_type', 'Only code response type is supported.');
  const method = str(params.code_challenge_method);
  const challenge = str(params.code_challenge);
  if (method && method !== 'S256' && method !== 'plain') throw new OAuth2Error('invalid_request', 'unsupported code challenge method');
  // RFC 7636 4.2: 43 to 128 characters of the unreserved set.
  if (challenge && !/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge)) throw new OAuth2Error('invalid_request', 'invalid code challenge');
  if (!challenge && !app.confidential_client) throw new OAuth2Error('invalid_request', 'PKCE is required for public clients');
  return {
    app, owner: await getUserById(db, app.uid), redirectUri, state: str(params.state), scope: checkRequestedScope(str(params.scope)),
    nonce: str(params.nonce), codeChallenge: challenge, codeChallengeMethod: challenge ? method || 'plain' : '',
  };
}

const coveredBy = (granted: string, asked: string): boolean => {
  const have = new Set(scopeList(granted));
  return scopeList(asked).every((s) => have.has(s));
};

/**
 * Whether the consent page may be skipped: the user already granted at least these scopes to
 * a confidential or trusted client (public clients always ask, as RFC 6749 10.2 advises).
 */
export async function alreadyGranted(db: DB, user: User, req: AuthorizeRequest): Promise<boolean> {
  if (!req.app.confidential_client && !req.app.skip_secondary_authorization) return false;
  const grant = await getGrantOf(db, user.id, req.app.id);
  return !!grant && coveredBy(grant.scope, req.scope);
}

/** The URI with these query parameters added (the client's own query kept). */
export function withQuery(uri: string, params: Record<string, string>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v || k !== 'state') u.searchParams.set(k, v);
  return u.toString();
}

/** The user consents: the grant (made or its scope updated) and a new code; the redirect to send. */
export async function grantAndIssueCode(db: DB, user: User, req: AuthorizeRequest): Promise<string> {
  const now = nowUnix();
  const code = crypto.randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    let grant = await getGrantOf(trx, user.id, req.app.id);
    if (!grant) grant = await insertGrant(trx, { user_id: user.id, application_id: req.app.id, scope: req.scope, nonce: req.nonce, now });
    else await updateGrant(trx, grant.id, { scope: req.scope, nonce: req.nonce, updated_unix: now });
    await deleteStaleAuthorizationCodes(trx, now - 24 * 3600);
    await insertAuthorizationCode(trx, {
      grant_id: grant.id, code_hash: hashToken(code), code_challenge: req.codeChallenge,
      code_challenge_method: req.codeChallengeMethod, redirect_uri: req.redirectUri, valid_until: now + CODE_SECONDS,
    });
  });
  return withQuery(req.redirectUri, { code, state: req.state });
}

/** The settings' "Authorized applications". */
export const listGrants = (db: DB, user: User): Promise<GrantWithApp[]> => listGrantsOfUser(db, user.id);

/** Revokes one of the user's grants: its tokens stop working at once (each use checks the grant). */
export async function revokeGrant(db: DB, user: User, grantId: number): Promise<void> {
  const mine = (await listGrantsOfUser(db, user.id)).some((g) => g.id === grantId);
  if (!mine || !(await deleteGrant(db, grantId))) throw new NotFoundError();
}
