import crypto from 'node:crypto';

// OpenSSH public keys as Gitea's CheckPublicKeyString reads them: the one-line authorized_keys
// form (`type base64 comment`) or an RFC 4716 (`---- BEGIN SSH2 PUBLIC KEY ----`) block.

export type SshPublicKey = {
  /** The wire type name, e.g. `ssh-ed25519`. */
  type: string;
  /** Normalised content stored and shown: `type base64 [comment]`. */
  content: string;
  /** `SHA256:` and the unpadded base64 SHA-256 of the key blob, as ssh-keygen -l. */
  fingerprint: string;
  /** Gitea's key family (rsa, dsa, ecdsa, ed25519, ecdsa-sk, ed25519-sk) and its size in bits. */
  family: string;
  bits: number;
};

/** Gitea's default [ssh.minimum_key_sizes]; a family not listed (dsa) is refused. */
export const MINIMUM_KEY_SIZES: Record<string, number> = {
  ed25519: 256, 'ed25519-sk': 256, ecdsa: 256, 'ecdsa-sk': 256, rsa: 3071,
};

export class SshKeyError extends Error {}

const CURVES: Record<string, { bits: number; crv: string; size: number }> = {
  nistp256: { bits: 256, crv: 'P-256', size: 32 },
  nistp384: { bits: 384, crv: 'P-384', size: 48 },
  nistp521: { bits: 521, crv: 'P-521', size: 66 },
};

/** Reads SSH wire strings (uint32 length + bytes) from a key blob. */
class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  string(): Buffer {
    if (this.at + 4 > this.buf.length) throw new SshKeyError('truncated key data');
    const len = this.buf.readUInt32BE(this.at);
    const end = this.at + 4 + len;
    if (end > this.buf.length) throw new SshKeyError('truncated key data');
    const out = this.buf.subarray(this.at + 4, end);
    this.at = end;
    return out;
  }
  end(): void {
    if (this.at !== this.buf.length) throw new SshKeyError('trailing data after the key');
  }
}

const bitLength = (mpint: Buffer): number => {
  let i = 0;
  while (i < mpint.length && mpint[i] === 0) i++;
  if (i === mpint.length) return 0;
  return (mpint.length - i - 1) * 8 + (32 - Math.clz32(mpint[i]!));
};

function ecPoint(curveName: string, point: Buffer, expected: string): number {
  const curve = CURVES[curveName];
  if (!curve || !expected.includes(`ecdsa-sha2-${curveName}`)) {
    throw new SshKeyError(`unsupported curve ${curveName}`);
  }
  if (point.length !== 1 + 2 * curve.size || point[0] !== 4) throw new SshKeyError('invalid curve point');
  const b64 = (b: Buffer) => b.toString('base64url');
  try {
    // Rejects points that are not on the curve.
    crypto.createPublicKey({
      key: { kty: 'EC', crv: curve.crv, x: b64(point.subarray(1, 1 + curve.size)), y: b64(point.subarray(1 + curve.size)) },
      format: 'jwk',
    });
  } catch {
    throw new SshKeyError('invalid curve point');
  }
  return curve.bits;
}

/** The key family and size from the blob; the inner type must be `type`. */
function inspectBlob(type: string, blob: Buffer): { family: string; bits: number } {
  const r = new Reader(blob);
  const inner = r.string().toString('latin1');
  if (inner !== type) throw new SshKeyError(`key type and content does not match: ${type} - ${inner}`);
  let out: { family: string; bits: number };
  if (type === 'ssh-rsa') {
    const e = r.string();
    const n = r.string();
    if (!bitLength(e) || !bitLength(n)) throw new SshKeyError('invalid RSA key');
    out = { family: 'rsa', bits: bitLength(n) };
  } else if (type === 'ssh-dss') {
    const p = r.string();
    r.string(); r.string(); r.string();
    out = { family: 'dsa', bits: bitLength(p) };
  } else if (type === 'ssh-ed25519' || type === 'sk-ssh-ed25519@openssh.com') {
    if (r.string().length !== 32) throw new SshKeyError('invalid ed25519 key');
    if (type !== 'ssh-ed25519') r.string();
    out = { family: type === 'ssh-ed25519' ? 'ed25519' : 'ed25519-sk', bits: 256 };
  } else if (/^ecdsa-sha2-nistp\d+$/.test(type) || type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    const bits = ecPoint(r.string().toString('latin1'), r.string(), type);
    if (type.startsWith('sk-')) r.string();
    out = { family: type.startsWith('sk-') ? 'ecdsa-sk' : 'ecdsa', bits };
  } else {
    throw new SshKeyError(`key type is not allowed: ${type}`);
  }
  r.end();
  return out;
}

/** RFC 4716: headers (`Key: value`, continued with `\`), then the base64 body. */
function parseSsh2(text: string): { b64: string; comment: string } {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const endAt = lines.findIndex((l) => l.startsWith('---- END SSH2 PUBLIC KEY'));
  if (endAt < 0) throw new SshKeyError('missing end of SSH2 key');
  let comment = '';
  let i = 1;
  for (; i < endAt && lines[i]!.includes(':'); i++) {
    let value = lines[i]!.slice(lines[i]!.indexOf(':') + 1).trim();
    const key = lines[i]!.slice(0, lines[i]!.indexOf(':')).trim().toLowerCase();
    while (value.endsWith('\\') && i + 1 < endAt) value = value.slice(0, -1) + lines[++i];
    if (key === 'comment') comment = value.replace(/^"(.*)"$/, '$1');
  }
  return { b64: lines.slice(i, endAt).join(''), comment };
}

function decodeBase64(b64: string): Buffer {
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new SshKeyError('invalid base64 key content');
  return Buffer.from(b64, 'base64');
}

/** Parses and checks a public key; throws SshKeyError with Gitea's wording on any problem. */
export function parseSshPublicKey(input: string, minimumSizes = MINIMUM_KEY_SIZES): SshPublicKey {
  const text = input.trim();
  if (!text) throw new SshKeyError('empty key');
  let type = '';
  let b64: string;
  let comment = '';
  if (text.startsWith('---- BEGIN SSH2 PUBLIC KEY ----')) {
    ({ b64, comment } = parseSsh2(text));
  } else {
    // As Gitea: a key wrapped over several lines is joined back.
    const parts = text.replace(/\r?\n/g, '').split(' ');
    if (parts.length === 1) b64 = parts[0]!;
    else [type, b64, comment] = [parts[0]!, parts[1]!, parts.slice(2).join(' ')];
  }
  const blob = decodeBase64(b64);
  const inner = new Reader(blob).string().toString('latin1');
  if (!type) type = inner;
  const { family, bits } = inspectBlob(type, blob);
  const min = minimumSizes[family];
  if (min === undefined) throw new SshKeyError(`key type is not allowed: ${family}`);
  if (bits < min) throw new SshKeyError(`key length is not enough: got ${bits}, needs ${min}`);
  const fingerprint = `SHA256:${crypto.createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { type, content: `${type} ${blob.toString('base64')} ${comment}`.trim(), fingerprint, family, bits };
}
