import crypto from 'node:crypto';

// OpenSSH's SSHSIG signatures (PROTOCOL.sshsig), as `git commit -S` with gpg.format=ssh writes
// them: checked here with node's crypto instead of one `ssh-keygen -Y verify` per commit.

export type SshSignature = { publicKey: Buffer; namespace: string; hashAlgo: string; sigType: string; sig: Buffer };

class Reader {
  at = 0;
  constructor(private readonly buf: Buffer) {}
  u32(): number {
    if (this.at + 4 > this.buf.length) throw new Error('truncated');
    const v = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return v;
  }
  bytes(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new Error('truncated');
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }
  string(): Buffer { return this.bytes(this.u32()); }
}

const sshString = (b: Buffer | string) => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};

/** Parses an armored `SSH SIGNATURE`; null when it is not one. */
export function readSshSignature(armored: string): SshSignature | null {
  const m = /-----BEGIN SSH SIGNATURE-----([\s\S]*?)-----END SSH SIGNATURE-----/.exec(armored);
  if (!m) return null;
  try {
    const r = new Reader(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'));
    if (r.bytes(6).toString() !== 'SSHSIG' || r.u32() !== 1) return null;
    const publicKey = r.string();
    const namespace = r.string().toString();
    r.string();
    const hashAlgo = r.string().toString();
    const inner = new Reader(r.string());
    return { publicKey, namespace, hashAlgo, sigType: inner.string().toString(), sig: inner.string() };
  } catch {
    return null;
  }
}

const b64u = (b: Buffer) => b.toString('base64url');
const unsigned = (b: Buffer) => { let i = 0; while (i < b.length - 1 && b[i] === 0) i++; return b.subarray(i); };
const CURVES: Record<string, { crv: string; size: number; hash: string }> = {
  nistp256: { crv: 'P-256', size: 32, hash: 'sha256' },
  nistp384: { crv: 'P-384', size: 48, hash: 'sha384' },
  nistp521: { crv: 'P-521', size: 66, hash: 'sha512' },
};

/** The node key and digest for a public key blob and signature type, or null when unsupported. */
function keyOf(blob: Buffer, sigType: string, sig: Buffer): { key: crypto.KeyObject; hash: string | null; sig: Buffer; p1363?: boolean } | null {
  const r = new Reader(blob);
  const type = r.string().toString();
  if (type === 'ssh-ed25519') {
    return { key: crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64u(r.string()) }, format: 'jwk' }), hash: null, sig };
  }
  if (type === 'ssh-rsa') {
    const e = unsigned(r.string());
    const n = unsigned(r.string());
    const hash = sigType === 'rsa-sha2-512' ? 'sha512' : sigType === 'rsa-sha2-256' ? 'sha256' : null;
    if (!hash) return null;
    return { key: crypto.createPublicKey({ key: { kty: 'RSA', e: b64u(e), n: b64u(n) }, format: 'jwk' }), hash, sig };
  }
  const curve = CURVES[type.replace(/^ecdsa-sha2-/, '')];
  if (curve && type.startsWith('ecdsa-sha2-')) {
    r.string();
    const point = r.string();
    const x = point.subarray(1, 1 + curve.size);
    const y = point.subarray(1 + curve.size);
    const sr = new Reader(sig);
    const pad = (b: Buffer) => Buffer.concat([Buffer.alloc(Math.max(0, curve.size - unsigned(b).length)), unsigned(b)]);
    const raw = Buffer.concat([pad(sr.string()), pad(sr.string())]);
    return { key: crypto.createPublicKey({ key: { kty: 'EC', crv: curve.crv, x: b64u(x), y: b64u(y) }, format: 'jwk' }), hash: curve.hash, sig: raw, p1363: true };
  }
  return null;
}

/** Whether `s` signs `message` in `namespace` with its own embedded public key. */
export function verifySshSignature(s: SshSignature, message: Buffer, namespace = 'git'): boolean {
  if (s.namespace !== namespace || !['sha256', 'sha512'].includes(s.hashAlgo)) return false;
  const digest = crypto.createHash(s.hashAlgo).update(message).digest();
  const signed = Buffer.concat([Buffer.from('SSHSIG'), sshString(namespace), sshString(''), sshString(s.hashAlgo), sshString(digest)]);
  try {
    const k = keyOf(s.publicKey, s.sigType, s.sig);
    if (!k) return false;
    return crypto.verify(k.hash, signed, k.p1363 ? { key: k.key, dsaEncoding: 'ieee-p1363' } : k.key, k.sig);
  } catch {
    return false;
  }
}

/** `SHA256:` fingerprint of a public key blob, as ssh-keygen -l. */
export const sshFingerprint = (blob: Buffer) => `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
