import crypto from 'node:crypto';
import path from 'node:path';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, UnauthorizedError } from '../../../lib/errors';
import { getUserByName } from '../../../models/user';
import { chefPublicKey } from './keys';

// Chef's signed requests (docs.chef.io server API "required headers", mixlib-authentication's
// signing protocol 1.0 to 1.3), verified as Gitea's chef.Auth: X-Ops-Userid names the user,
// X-Ops-Authorization-1..N carry the base64 signature of a canonical request, made with the
// private half of the key the user registered. Gitea checks the signature and the time, not
// the body against X-Ops-Content-Hash, and so does this.

const MAX_SKEW_MS = 10 * 60 * 1000;
export type SignedRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined> };

const header = (r: SignedRequest, name: string) => { const v = r.headers[name.toLowerCase()]; return Array.isArray(v) ? v[0] ?? '' : v ?? ''; };
const b64sha1 = (s: string) => crypto.createHash('sha1').update(s).digest('base64');

function signVersion(r: SignedRequest): string {
  const sign = header(r, 'X-Ops-Sign');
  if (!sign) throw new BadRequestError('X-Ops-Sign header missing');
  const version = /version=(\d+\.\d+)/.exec(sign)?.[1];
  if (!version || !['1.0', '1.1', '1.2', '1.3'].includes(version)) throw new BadRequestError('unsupported X-Ops-Sign version');
  const algorithm = /algorithm=(\w+)/.exec(sign)?.[1];
  if (algorithm && algorithm !== 'sha1' && !(algorithm === 'sha256' && version === '1.3')) throw new BadRequestError('unsupported algorithm');
  return version;
}

/** The signature: X-Ops-Authorization-1..N joined in order, base64-decoded. */
function signature(r: SignedRequest): Buffer {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(r.headers)) {
    const m = /^x-ops-authorization-(\d+)$/i.exec(k);
    if (m) parts[Number(m[1]) - 1] = Array.isArray(v) ? v[0] ?? '' : v ?? '';
  }
  if (!parts.length || parts.some((p) => p === undefined)) throw new UnauthorizedError('invalid X-Ops-Authorization headers');
  return Buffer.from(parts.join(''), 'base64');
}

/** The canonical request the client signed, for the protocol version. */
export function canonicalRequest(r: SignedRequest, version: string): string {
  const user = header(r, 'X-Ops-Userid');
  const p = path.posix.normalize(r.path);
  const clean = p.length > 1 ? p.replace(/\/$/, '') : p;
  if (version === '1.3') {
    return [`Method:${r.method}`, `Path:${clean}`, `X-Ops-Content-Hash:${header(r, 'X-Ops-Content-Hash')}`, `X-Ops-Sign:version=${version}`,
      `X-Ops-Timestamp:${header(r, 'X-Ops-Timestamp')}`, `X-Ops-UserId:${user}`, `X-Ops-Server-API-Version:${header(r, 'X-Ops-Server-Api-Version')}`].join('\n');
  }
  return [`Method:${r.method}`, `Hashed Path:${b64sha1(clean)}`, `X-Ops-Content-Hash:${header(r, 'X-Ops-Content-Hash')}`,
    `X-Ops-Timestamp:${header(r, 'X-Ops-Timestamp')}`, `X-Ops-UserId:${version === '1.0' ? user : b64sha1(user)}`].join('\n');
}

function verify(version: string, data: string, sig: Buffer, key: crypto.KeyObject): boolean {
  try {
    if (version === '1.3' || version === '1.2') return crypto.verify(version === '1.3' ? 'sha256' : 'sha1', Buffer.from(data), key, sig);
    // 1.0 and 1.1: the canonical request itself, "encrypted" with the private key (PKCS#1 type 1).
    return crypto.publicDecrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, sig).equals(Buffer.from(data));
  } catch {
    return false;
  }
}

/** The user a signed request comes from; null when it carries no X-Ops-Userid; 401 when the signature fails. */
export async function chefRequestUser(db: DB, r: SignedRequest): Promise<User | null> {
  const name = header(r, 'X-Ops-Userid');
  if (!name) return null;
  const user = await getUserByName(db, name);
  const pem = user && (await chefPublicKey(db, user.id));
  if (!user || !pem) throw new UnauthorizedError('unknown user or no registered Chef key');
  const ts = Date.parse(header(r, 'X-Ops-Timestamp'));
  if (Number.isNaN(ts)) throw new BadRequestError('X-Ops-Timestamp header missing or invalid');
  if (Math.abs(Date.now() - ts) > MAX_SKEW_MS) throw new UnauthorizedError('the request time is too far from the server time');
  const version = signVersion(r);
  if (!verify(version, canonicalRequest(r, version), signature(r), crypto.createPublicKey(pem))) throw new UnauthorizedError('could not verify the signature');
  return user;
}
