import crypto from 'node:crypto';

// git clients send the same Basic credentials on every request of a clone or push, and a
// scrypt check costs tens of milliseconds. Successful checks are remembered briefly, keyed by
// a hash of (stored hash, password): a password change invalidates the entry by itself.
const TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 1000;
const salt = crypto.randomBytes(16);
const entries = new Map<string, number>();

const keyOf = (stored: string, password: string) =>
  crypto.createHash('sha256').update(salt).update(stored).update('\0').update(password).digest('base64');

export function wasVerified(stored: string, password: string): boolean {
  const key = keyOf(stored, password);
  const expires = entries.get(key);
  if (expires === undefined) return false;
  if (expires < Date.now()) {
    entries.delete(key);
    return false;
  }
  return true;
}

export function rememberVerified(stored: string, password: string): void {
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(keyOf(stored, password), Date.now() + TTL_MS);
}
