import crypto from 'node:crypto';

// What `hearth serv` and `hearth keys`, run by the system sshd on this machine, show the server's
// internal SSH endpoint: a value derived from the instance secret, which only the server's own
// user can read (Gitea's INTERNAL_TOKEN).

export const internalSshToken = (secret: string): string =>
  crypto.createHmac('sha256', secret).update('hearth-internal-ssh').digest('hex');

export function isInternalSshToken(secret: string, presented: string): boolean {
  const want = Buffer.from(internalSshToken(secret));
  const got = Buffer.from(presented);
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}
