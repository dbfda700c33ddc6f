import crypto from 'node:crypto';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { scopeNames, parseScopes, type ScopeSet } from '../../../lib/scopes';
import { getUserById } from '../../../models/user';
import { assertMaySignIn } from '../../user/auth';

// The container registry's bearer tokens (Gitea's packages_service.CreateAuthorizationToken):
// an HS256 JWT signed with a key derived from the instance secret, naming the user (-1: the
// ghost, an anonymous caller who may pull public images) and the scopes of the credentials
// that got it. Gitea's tokens live 24 hours.

export const TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const GHOST_ID = -1;
export type TokenClaims = { uid: number; scopes: ScopeSet | null };

const b64 = (v: Buffer | string) => Buffer.from(v).toString('base64url');
const key = (secret: string) => crypto.createHmac('sha256', secret).update('container-registry-token').digest();
const sign = (secret: string, data: string) => crypto.createHmac('sha256', key(secret)).update(data).digest();

export function createRegistryToken(secret: string, uid: number, scopes: ScopeSet | null, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const header = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64(JSON.stringify({
    uid, scope: scopes ? scopeNames(scopes).join(',') : undefined, iat, nbf: iat, exp: iat + TOKEN_TTL_SECONDS,
  }));
  return `${header}.${payload}.${b64(sign(secret, `${header}.${payload}`))}`;
}

/** The claims of a valid, unexpired token; null for anything else (another kind of token). */
export function verifyRegistryToken(secret: string, token: string, now = Date.now()): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, mac] = parts as [string, string, string];
  const expected = sign(secret, `${header}.${payload}`);
  const got = Buffer.from(mac, 'base64url');
  if (got.length !== expected.length || !crypto.timingSafeEqual(got, expected)) return null;
  let claims: { uid?: unknown; scope?: unknown; exp?: unknown };
  try { claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')); } catch { return null; }
  if (typeof claims.uid !== 'number' || typeof claims.exp !== 'number' || claims.exp * 1000 < now) return null;
  let scopes: ScopeSet | null = null;
  if (typeof claims.scope === 'string') {
    const parsed = parseScopes(claims.scope ? claims.scope.split(',') : []);
    if ('invalid' in parsed) return null;
    scopes = parsed;
  }
  return { uid: claims.uid, scopes };
}

/** The user a (non-ghost) token names, if it still exists; one who may no longer sign in is refused as at sign-in. */
export async function registryTokenUser(db: DB, claims: TokenClaims): Promise<User | null> {
  const user = await getUserById(db, claims.uid);
  if (user) assertMaySignIn(user);
  return user ?? null;
}
