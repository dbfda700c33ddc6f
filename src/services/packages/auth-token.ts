import crypto from 'node:crypto';
import type { User } from '../../db/schema';
import { parseStoredScopes, scopeNames, type ScopeSet } from '../../lib/scopes';
import { getUserById } from '../../models/user';
import { assertMaySignIn } from '../user/auth';
import type { Hearth } from '../../hearth';

// The bearer token a registry hands a client that signed in (Gitea's packages.CreateAuthorizationToken,
// which conan's `users/authenticate` asks for): the user, an expiry and the scopes of the
// credentials it was made from (a read:package token cannot become a writer), signed with the
// instance secret. Nothing is stored: it is valid until it expires.

const PREFIX = 'hpkg_';
const LIFETIME_S = 24 * 3600;
const PURPOSE = 'hearth:package-token';

const mac = (secret: string, body: string) => crypto.createHmac('sha256', `${PURPOSE}:${secret}`).update(body).digest('base64url');

export const isPackageToken = (token: string) => token.startsWith(PREFIX);

export function createPackageToken(secret: string, user: User, scopes: ScopeSet | null): string {
  const body = Buffer.from(JSON.stringify({ u: user.id, e: Math.floor(Date.now() / 1000) + LIFETIME_S, s: scopes ? scopeNames(scopes).join(',') : null })).toString('base64url');
  return `${PREFIX}${body}.${mac(secret, body)}`;
}

/** The user and scopes of a valid, unexpired token; null otherwise. */
export async function verifyPackageToken(h: Hearth, token: string): Promise<{ user: User; scopes: ScopeSet | null } | null> {
  const [body, sig] = token.slice(PREFIX.length).split('.');
  if (!body || !sig) return null;
  const want = Buffer.from(mac(h.secret, body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return null;
  let claims: { u?: number; e?: number; s?: string | null };
  try { claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')); } catch { return null; }
  if (!claims.u || !claims.e || claims.e < Date.now() / 1000) return null;
  const user = await getUserById(h.db, claims.u);
  if (!user) return null;
  assertMaySignIn(user);
  return { user, scopes: typeof claims.s === 'string' ? parseStoredScopes(claims.s) : null };
}
