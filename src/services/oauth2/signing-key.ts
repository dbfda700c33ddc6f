import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import { seal, unseal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import { getSigningKeyRow, insertSigningKeyRow } from '../../models/oauth2-grant';

// The provider's RS256 key: made on first use (never at start-up), its private half sealed at
// rest with the instance key, kept in memory once read. Its `kid` is the RFC 7638 thumbprint of
// the public key, so clients caching /login/oauth/keys can tell keys apart.

const PURPOSE = 'oauth2-signing-key';

export type SigningKey = { kid: string; privateKey: crypto.KeyObject; publicKey: crypto.KeyObject };

const loaded = new WeakMap<DB, Promise<SigningKey>>();

function thumbprint(publicKey: crypto.KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  // The required members in lexicographic order, no spaces (RFC 7638 3.2).
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return crypto.createHash('sha256').update(canonical).digest('base64url');
}

function fromPem(kid: string, pem: string): SigningKey {
  const privateKey = crypto.createPrivateKey(pem);
  return { kid, privateKey, publicKey: crypto.createPublicKey(privateKey) };
}

async function loadOrCreate(db: DB, secret: string): Promise<SigningKey> {
  let row = await getSigningKeyRow(db);
  if (!row) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await insertSigningKeyRow(db, { kid: thumbprint(publicKey), sealed_private_key: seal(secret, PURPOSE, pem), created_unix: nowUnix() });
    row = (await getSigningKeyRow(db))!;
  }
  return fromPem(row.kid, unseal(secret, PURPOSE, row.sealed_private_key));
}

/** The server's signing key (one per database: tests run several servers in one process). */
export function signingKey(db: DB, secret: string): Promise<SigningKey> {
  let key = loaded.get(db);
  if (!key) {
    key = loadOrCreate(db, secret);
    // A failed read is tried again by the next request rather than remembered.
    key.catch(() => loaded.delete(db));
    loaded.set(db, key);
  }
  return key;
}

/** The public key as a JSON Web Key Set entry (/login/oauth/keys). */
export function publicJwk(key: SigningKey): Record<string, string> {
  const jwk = key.publicKey.export({ format: 'jwk' });
  return { kty: String(jwk.kty), n: String(jwk.n), e: String(jwk.e), alg: 'RS256', kid: key.kid, use: 'sig' };
}

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS (RS256) of the claims. */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const input = `${b64({ alg: 'RS256', kid: key.kid, typ: 'JWT' })}.${b64(claims)}`;
  return `${input}.${crypto.sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** The claims of a JWT this key signed (RS256 only: no `none`, no HMAC confusion), else null. */
export function verifyJwt(key: SigningKey, token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'RS256') return null;
    if (!crypto.verify('sha256', Buffer.from(`${head}.${body}`), key.publicKey, Buffer.from(sig, 'base64url'))) return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? claims as Record<string, unknown> : null;
  } catch {
    return null;
  }
}
