import crypto from 'node:crypto';
import { utils, type AuthContext } from 'ssh2';
import type { Hearth } from '../hearth';
import { identityByFingerprint } from '../services/git-transport/key-identity';
import type { KeyIdentity } from '../services/git-transport/target';
import { countSshAuthFailure } from '../services/metrics/registry';
import { signInLimiter } from '../services/user/signin-limit';

// Public key sign-in. A publickey request without a signature is only a question ("would this
// key do?"): it is answered and binds nothing. The identity is bound when a signature verifies,
// and it is the identity of the key that signed (CVE-2024-45337: taking the user from an earlier
// offered key let anyone holding a victim's public key sign in as them with their own key).

const KEY_ALGOS = new Set(['ssh-ed25519', 'ssh-rsa', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521']);

export type AuthState = { address: string; failures: number; identity: KeyIdentity | null };

export const fingerprintOf = (blob: Buffer) => `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;

/** A failed try: logged at warn with the address (fail2ban can match the line) and counted. */
function onFailedKeySignIn(h: Hearth, address: string, detail: Record<string, unknown>): void {
  h.log.warn({ ip: address, ...detail }, 'failed SSH key sign-in');
  countSshAuthFailure();
}

/**
 * The sign-in limiter the web form and Basic auth share, per address: an address that used up
 * its failures is refused before any key is looked at. Clients offer every key of their agent
 * in turn, so a connection counts as one failure, when it ends without signing in.
 */
export function limitSshSignIns(h: Hearth, state: AuthState, onClose: (listener: () => void) => void): boolean {
  const limiter = signInLimiter(h.db);
  onClose(() => { if (!state.identity && state.failures > 0) limiter.recordFailure(state.address, ''); });
  try {
    limiter.assertAddressAllowed(state.address);
    return true;
  } catch {
    h.log.warn({ ip: state.address }, 'SSH sign-in refused: too many failed sign-ins from this address');
    return false;
  }
}

/** Answers one authentication request; returns false once the connection used up its tries. */
export async function authenticate(h: Hearth, state: AuthState, ctx: AuthContext): Promise<boolean> {
  const fail = (reason: string, fingerprint?: string) => {
    state.failures++;
    onFailedKeySignIn(h, state.address, { reason, fingerprint, user: ctx.username, attempt: state.failures });
    ctx.reject(['publickey']);
    return state.failures < h.config.server.ssh_max_auth_tries;
  };
  if (ctx.method !== 'publickey') {
    if (ctx.method === 'none') { ctx.reject(['publickey']); return true; }
    return fail(`method ${ctx.method} not offered`);
  }
  if (ctx.username !== h.config.server.ssh_user) return fail('unknown user name');
  const { algo, data } = ctx.key;
  if (!KEY_ALGOS.has(algo)) return fail(`key type ${algo} not accepted`);
  // SHA-1 RSA signatures (`ssh-rsa`) are refused, as OpenSSH's sshd does: rsa-sha2-256/512 only.
  if (algo === 'ssh-rsa' && !ctx.hashAlgo) return fail('ssh-rsa (SHA-1) signatures are refused');
  const fingerprint = fingerprintOf(data);
  const who = await identityByFingerprint(h.db, fingerprint);
  if (!who) return fail('unknown key', fingerprint);
  if (!ctx.signature || !ctx.blob) {
    ctx.accept();
    return true;
  }
  const key = utils.parseKey(data);
  if (key instanceof Error || Array.isArray(key) || !key.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) {
    return fail('bad signature', fingerprint);
  }
  state.identity = who;
  ctx.accept();
  return true;
}
