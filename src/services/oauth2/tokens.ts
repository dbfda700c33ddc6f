import crypto from 'node:crypto';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { OAuth2Application, OAuth2Grant, User } from '../../db/schema';
import { OAuth2Error } from '../../lib/errors';
import type { ScopeSet } from '../../lib/scopes';
import { nowUnix } from '../../lib/time';
import { Lru } from '../../lib/lru';
import { hashToken } from '../../lib/token';
import { getOAuth2ApplicationByClientId, getOAuth2ApplicationById } from '../../models/oauth2-application';
import {
  advanceGrantCounter, deleteGrant, getAuthorizationCodeByHash, getGrantById, useAuthorizationCode,
} from '../../models/oauth2-grant';
import { getUserById } from '../../models/user';
import { avatarUrl } from '../../convert/user';
import { apiScopesOfGrant, scopeList } from './scopes';
import { signingKey, signJwt, verifyJwt, type SigningKey } from './signing-key';

// The token endpoint's work (Gitea's /login/oauth/access_token) and the checks of the tokens it
// issues. Tokens are RS256 JWTs, as Gitea's: `gnt` the grant, `tt` 0 for access and 1 for
// refresh, `cnt` the refresh token's number. Each refresh moves the grant's number on; a
// refresh token of an older number was already used, so whoever holds it is not (only) the
// client: the grant goes, and with it every token of the family (each use checks the grant).

export type TokenForm = {
  grant_type?: unknown; client_id?: unknown; client_secret?: unknown; code?: unknown;
  redirect_uri?: unknown; code_verifier?: unknown; refresh_token?: unknown;
};

export type TokenResponse = {
  access_token: string; token_type: 'bearer'; expires_in: number; refresh_token: string; id_token?: string;
};

export type Keys = { db: DB; config: Config; secret: string };

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const PKCE_FAILED = 'failed PKCE code challenge';
const KIND_ACCESS = 0;

/** A failed proof of the client: a wrong secret, or a PKCE verifier that fails (a public client's proof). */
export const isClientProofFailure = (err: unknown): boolean =>
  err instanceof OAuth2Error && (err.code === 'invalid_client' || err.message === PKCE_FAILED);
const KIND_REFRESH = 1;

/** Whether the secret is the application's (every application has one, public ones too). */
export const sameSecret = (app: OAuth2Application, secret: string): boolean => {
  const [a, b] = [Buffer.from(hashToken(secret)), Buffer.from(app.client_secret_hash)];
  return a.length === b.length && crypto.timingSafeEqual(a, b);
};

/**
 * The client of the request: known, and for a confidential client the right secret. A failure
 * is invalid_client (401): the route counts it with the sign-in limiter.
 */
export async function authenticateClient(db: DB, form: TokenForm): Promise<OAuth2Application> {
  const app = await getOAuth2ApplicationByClientId(db, str(form.client_id));
  if (!app) throw new OAuth2Error('invalid_client', `cannot load client with client id: '${str(form.client_id)}'`, 401);
  if (app.confidential_client && !sameSecret(app, str(form.client_secret))) {
    throw new OAuth2Error('invalid_client', str(form.client_secret) ? 'invalid client secret' : 'invalid empty client secret', 401);
  }
  return app;
}

/** RFC 7636 4.6: the verifier, hashed as the challenge's method says, must give the challenge. */
function pkceMatches(challenge: string, method: string, verifier: string): boolean {
  if (!challenge) return true;
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = method === 'S256' ? crypto.createHash('sha256').update(verifier).digest('base64url') : verifier;
  const [a, b] = [Buffer.from(computed), Buffer.from(challenge)];
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** grant_type=authorization_code: the code, once, by the client it was issued to. */
export async function exchangeCode(k: Keys, app: OAuth2Application, form: TokenForm): Promise<TokenResponse> {
  const code = await getAuthorizationCodeByHash(k.db, hashToken(str(form.code)));
  const grant = code ? await getGrantById(k.db, code.grant_id) : undefined;
  if (!code || !grant || grant.application_id !== app.id) throw new OAuth2Error('invalid_grant', 'client is not authorized');
  const now = nowUnix();
  if (code.used_unix) {
    // RFC 6749 4.1.2: a code used twice revokes what it gave (the whole grant's family).
    await deleteGrant(k.db, grant.id);
    throw new OAuth2Error('invalid_grant', 'authorization code already used');
  }
  if (code.valid_until <= now) throw new OAuth2Error('invalid_grant', 'authorization code expired');
  if (str(form.redirect_uri) !== code.redirect_uri) {
    throw new OAuth2Error('invalid_grant', 'redirect_uri differs from the original authorization request');
  }
  if (!pkceMatches(code.code_challenge, code.code_challenge_method, str(form.code_verifier))) {
    throw new OAuth2Error('invalid_grant', PKCE_FAILED);
  }
  if (!(await useAuthorizationCode(k.db, code.id, now))) {
    await deleteGrant(k.db, grant.id);
    throw new OAuth2Error('invalid_grant', 'authorization code already used');
  }
  return issueTokens(k, app, grant);
}

/** grant_type=refresh_token: the live refresh token of the grant, rotated. */
export async function refreshTokens(k: Keys, app: OAuth2Application, form: TokenForm): Promise<TokenResponse> {
  const key = await signingKey(k.db, k.secret);
  const claims = verifyJwt(key, str(form.refresh_token));
  if (!claims || claims.tt !== KIND_REFRESH || typeof claims.gnt !== 'number' || typeof claims.cnt !== 'number') {
    throw new OAuth2Error('invalid_grant', 'unable to parse refresh token');
  }
  if (typeof claims.exp === 'number' && claims.exp <= nowUnix()) throw new OAuth2Error('invalid_grant', 'refresh token expired');
  const grant = await getGrantById(k.db, claims.gnt);
  if (!grant) throw new OAuth2Error('invalid_grant', 'grant does not exist');
  if (grant.application_id !== app.id) throw new OAuth2Error('invalid_grant', 'refresh token belongs to a different client');
  if (grant.counter !== claims.cnt) {
    await deleteGrant(k.db, grant.id);
    throw new OAuth2Error('invalid_grant', 'token was already used: the grant is revoked');
  }
  return issueTokens(k, app, grant);
}

/** New access and refresh tokens (and an id_token under `openid`); the grant's number moves on. */
async function issueTokens(k: Keys, app: OAuth2Application, grant: OAuth2Grant): Promise<TokenResponse> {
  const now = nowUnix();
  // Two requests racing with the same refresh token: only one moves the number on.
  if (!(await advanceGrantCounter(k.db, grant.id, grant.counter, now))) {
    await deleteGrant(k.db, grant.id);
    throw new OAuth2Error('invalid_grant', 'token was already used: the grant is revoked');
  }
  const key = await signingKey(k.db, k.secret);
  const { access_token_expiration_time: accessTtl, refresh_token_expiration_time: refreshHours } = k.config.oauth2;
  const jti = () => crypto.randomBytes(12).toString('base64url');
  const response: TokenResponse = {
    access_token: signJwt(key, { gnt: grant.id, tt: KIND_ACCESS, exp: now + accessTtl, iat: now, jti: jti() }),
    token_type: 'bearer',
    expires_in: accessTtl,
    refresh_token: signJwt(key, { gnt: grant.id, tt: KIND_REFRESH, cnt: grant.counter + 1, exp: now + refreshHours * 3600, iat: now, jti: jti() }),
  };
  if (scopeList(grant.scope).includes('openid')) response.id_token = await idToken(k, key, app, grant, now + accessTtl);
  return response;
}

async function idToken(k: Keys, key: SigningKey, app: OAuth2Application, grant: OAuth2Grant, exp: number): Promise<string> {
  const user = (await getUserById(k.db, grant.user_id))!;
  const scopes = scopeList(grant.scope);
  const root = k.config.server.root_url;
  const claims: Record<string, unknown> = {
    iss: root.replace(/\/$/, ''), aud: [app.client_id], sub: String(user.id), exp, iat: nowUnix(),
  };
  if (grant.nonce) claims.nonce = grant.nonce;
  if (scopes.includes('profile')) {
    Object.assign(claims, {
      name: user.full_name || user.name, preferred_username: user.name, profile: `${root}${encodeURIComponent(user.name)}`,
      picture: avatarUrl(k.config, user), website: user.website, locale: user.language, updated_at: user.updated_unix,
    });
  }
  if (scopes.includes('email')) Object.assign(claims, { email: user.email, email_verified: !!user.is_active });
  return signJwt(key, claims);
}

export type OAuth2Caller = { user: User; scopes: ScopeSet; grant: OAuth2Grant };

// Access tokens are presented on every API call of an app: their checked signatures are kept
// (by the token's hash), so a call costs the grant's and the user's rows, as a personal
// token's costs its row and the user's. The grant is still read each time: revoking it ends
// the token at once.
// One cache per database: each server (tests run several in one process) has its own key.
const checkedTokens = new WeakMap<DB, Lru<string, Record<string, unknown>>>();

async function accessClaims(db: DB, secret: string, token: string): Promise<Record<string, unknown> | null> {
  let cache = checkedTokens.get(db);
  if (!cache) checkedTokens.set(db, (cache = new Lru(2000)));
  const key = hashToken(token);
  const known = cache.get(key);
  if (known) return known;
  const claims = verifyJwt(await signingKey(db, secret), token);
  if (!claims || claims.tt !== KIND_ACCESS || typeof claims.gnt !== 'number' || typeof claims.exp !== 'number') return null;
  cache.set(key, claims);
  return claims;
}

/**
 * The caller an access token names: signed by us, an access token, unexpired, its grant still
 * there (revoking the grant, or deleting its application, ends it), its user allowed to act.
 */
export async function verifyAccessToken(db: DB, secret: string, token: string): Promise<OAuth2Caller | null> {
  const claims = await accessClaims(db, secret, token);
  if (!claims || (claims.exp as number) <= nowUnix()) return null;
  const grant = await getGrantById(db, claims.gnt as number);
  if (!grant) return null;
  const user = await getUserById(db, grant.user_id);
  if (!user || user.type !== 0) return null;
  return { user, scopes: apiScopesOfGrant(grant.scope), grant };
}

export type Introspection = { active: boolean; scope?: string; username?: string; client_id?: string; sub?: string; exp?: number; iat?: number; token_type?: string };

/** RFC 7662 for the client that asks: whether a token (access or refresh) is live, and its facts. */
export async function introspect(db: DB, secret: string, token: string): Promise<Introspection> {
  // Only what this instance signed: a refresh or access token of any of its applications (as Gitea).
  const claims = verifyJwt(await signingKey(db, secret), token);
  if (!claims || typeof claims.gnt !== 'number' || typeof claims.exp !== 'number' || claims.exp <= nowUnix()) return { active: false };
  const grant = await getGrantById(db, claims.gnt);
  if (!grant || (claims.tt === KIND_REFRESH && claims.cnt !== grant.counter)) return { active: false };
  const [user, app] = await Promise.all([getUserById(db, grant.user_id), getOAuth2ApplicationById(db, grant.application_id)]);
  if (!user || !app) return { active: false };
  return {
    active: true, scope: grant.scope, username: user.name, client_id: app.client_id, sub: String(user.id),
    exp: claims.exp, iat: typeof claims.iat === 'number' ? claims.iat : undefined, token_type: claims.tt === KIND_REFRESH ? 'refresh_token' : 'access_token',
  };
}

/** The client asking to introspect, by its id and secret (whatever its type), or null. */
export async function introspectingClient(db: DB, clientId: string, clientSecret: string): Promise<OAuth2Application | null> {
  const app = await getOAuth2ApplicationByClientId(db, clientId);
  return app && sameSecret(app, clientSecret) ? app : null;
}
