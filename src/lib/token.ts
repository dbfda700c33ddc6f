import crypto from 'node:crypto';

/** A new access token: 40 hex characters, as Gitea's. */
export function newToken(): string {
  return crypto.randomBytes(20).toString('hex');
}

/** Tokens are random, so a plain SHA-256 is enough to store and look them up. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return /^[0-9a-f]{40}$/i.test(value);
}
