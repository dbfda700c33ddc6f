import crypto from 'node:crypto';

// Secrets at rest (webhook secrets and authorization headers, later Actions secrets and mirror
// credentials) are sealed with AES-256-GCM under a key derived from the instance secret (HKDF,
// one key per purpose), so the database alone does not give them away.

const VERSION = 'v1';

function keyOf(instanceSecret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(instanceSecret, 'utf8'), Buffer.alloc(0), `hearth:${purpose}`, 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` in base64url; the empty string stays empty (no secret). */
export function seal(instanceSecret: string, purpose: string, plain: string): string {
  if (!plain) return '';
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(instanceSecret, purpose), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The plain text of a sealed value; throws when it was sealed under another key or altered. */
export function unseal(instanceSecret: string, purpose: string, sealed: string): string {
  if (!sealed) return '';
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed value');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(instanceSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
