import crypto from 'node:crypto';
import type { User } from '../../db/schema';
import type { Hearth } from '../../hearth';
import { parseScopes, type ScopeSet } from '../../lib/scopes';
import { getUserById } from '../../models/user';
import { assertMaySignIn } from '../user/auth';
import { NotFoundError } from '../../lib/errors';
import type { GitTarget } from '../git-transport/target';

// git-lfs-authenticate over SSH, as Gitea's: the LFS endpoint of the repository and a short-lived
// HS256 token (Authorization: Bearer) naming the repository, the operation and the user. The LFS
// routes take it for that repository only; a download token cannot upload.

/** Gitea's [server] LFS_HTTP_AUTH_EXPIRY default. */
const EXPIRES_IN = 24 * 60 * 60;

export type LfsClaims = { repoId: number; userId: number; op: 'upload' | 'download' };

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('lfs-ssh-token').digest();
const sign = (secret: string, data: string) => crypto.createHmac('sha256', keyOf(secret)).update(data).digest();

export function createLfsToken(secret: string, c: LfsClaims, now = Math.floor(Date.now() / 1000)): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ exp: now + EXPIRES_IN, nbf: now, RepoID: c.repoId, Op: c.op, UserID: c.userId }));
  return `${header}.${body}.${b64url(sign(secret, `${header}.${body}`))}`;
}

/** The claims of a valid, unexpired token; null for anything else (another kind of token). */
export function verifyLfsToken(secret: string, token: string): LfsClaims | null {
  const [header, body, sig] = token.split('.');
  if (!header || !body || !sig) return null;
  const want = sign(secret, `${header}.${body}`);
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !crypto.timingSafeEqual(got, want)) return null;
  try {
    const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    if (typeof c.exp !== 'number' || c.exp < now || (typeof c.nbf === 'number' && c.nbf > now + 60)) return null;
    if (c.Op !== 'upload' && c.Op !== 'download') return null;
    return { repoId: Number(c.RepoID), userId: Number(c.UserID), op: c.Op };
  } catch {
    return null;
  }
}

/** The answer to `git-lfs-authenticate owner/repo op`: where the LFS server is and how to sign in. */
export function lfsSshAuthenticate(h: Hearth, target: GitTarget, op: 'upload' | 'download') {
  if (!h.config.server.lfs_start_server || target.wiki || !target.pusher) throw new NotFoundError();
  const { owner, repo } = target.access;
  const token = createLfsToken(h.secret, { repoId: repo.id, userId: target.pusher.user.id, op });
  return {
    header: { Authorization: `Bearer ${token}` },
    href: `${h.config.server.root_url}${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}.git/info/lfs`,
    expires_in: EXPIRES_IN,
  };
}

/**
 * The caller an LFS token signs in: its user, with the repository scope of its operation, and
 * the one repository it opens. Null when the value is no valid LFS token.
 */
export async function lfsTokenCaller(h: Hearth, token: string): Promise<{ user: User; scopes: ScopeSet; repoId: number } | null> {
  const claims = verifyLfsToken(h.secret, token);
  const user = claims ? await getUserById(h.db, claims.userId) : undefined;
  if (!claims || !user) return null;
  assertMaySignIn(user);
  const scopes = parseScopes([claims.op === 'upload' ? 'write:repository' : 'read:repository']);
  if ('invalid' in scopes) return null;
  return { user, scopes, repoId: claims.repoId };
}
