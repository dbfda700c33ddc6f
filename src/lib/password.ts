import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions,
) => Promise<Buffer>;

export const PASSWORD_ALGO = 'scrypt';
// N=2^15, r=8: ~32 MiB and tens of milliseconds per check, run off the event loop.
const PARAMS = { N: 1 << 15, r: 8, p: 1 };
const KEYLEN = 32;
const maxmem = 64 * 1024 * 1024;

/** Returns `N$r$p$salt$hash`, stored with passwd_hash_algo = 'scrypt'. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { ...PARAMS, maxmem });
  return [PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string, algo: string): Promise<boolean> {
  if (algo !== PASSWORD_ALGO || !stored) return false;
  const [n, r, p, salt, hash] = stored.split('$');
  if (!n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem,
  });
  return crypto.timingSafeEqual(key, expected);
}

/** A random password that satisfies any reasonable policy. */
export function randomPassword(length = 20): string {
  const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
