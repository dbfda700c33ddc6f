import crypto from 'node:crypto';
import { readMpis, type PgpPublicKey, type PgpSignature } from './openpgp-packets';

// Verification of v4 OpenPGP signatures with node:crypto, for the algorithms GnuPG makes by
// default: RSA, ECDSA on the NIST curves, EdDSA (legacy Ed25519 and the RFC 9580 Ed25519/Ed448).
// Others (DSA, brainpool curves) answer null: "cannot tell".

const HASHES: Record<number, string> = { 2: 'sha1', 3: 'ripemd160', 8: 'sha256', 9: 'sha384', 10: 'sha512', 11: 'sha224', 12: 'sha3-256', 14: 'sha3-512' };

const OID = {
  p256: '2a8648ce3d030107', p384: '2b81040022', p521: '2b81040023', ed25519: '2b06010401da470f01',
} as const;
const NIST: Record<string, { crv: string; size: number }> = {
  [OID.p256]: { crv: 'P-256', size: 32 }, [OID.p384]: { crv: 'P-384', size: 48 }, [OID.p521]: { crv: 'P-521', size: 66 },
};

const b64u = (b: Buffer) => b.toString('base64url');
const jwk = (key: crypto.JsonWebKey) => crypto.createPublicKey({ key, format: 'jwk' });
const leftPad = (b: Buffer, size: number) => (b.length >= size ? b : Buffer.concat([Buffer.alloc(size - b.length), b]));

/** Curve OID (length-prefixed) then the rest of the material. */
function curveOf(material: Buffer): [string, Buffer] {
  const len = material[0] ?? 0;
  return [material.subarray(1, 1 + len).toString('hex'), material.subarray(1 + len)];
}

/** A verifier over the signed bytes, or null when the algorithm is not supported here. */
function verifier(key: PgpPublicKey, sig: PgpSignature): ((data: Buffer, hash: string) => boolean) | null {
  const m = key.material;
  if (key.algo === 1 || key.algo === 3) {
    const [[n, e]] = readMpis(m, 0, 2) as [[Buffer, Buffer], number];
    const [[s]] = readMpis(sig.value, 0, 1) as [[Buffer], number];
    const pub = jwk({ kty: 'RSA', n: b64u(n), e: b64u(e) });
    return (data, hash) => crypto.verify(hash, data, { key: pub, padding: crypto.constants.RSA_PKCS1_PADDING }, leftPad(s, n.length));
  }
  if (key.algo === 19) {
    const [oid, rest] = curveOf(m);
    const curve = NIST[oid];
    if (!curve) return null;
    const [[point]] = readMpis(rest, 0, 1) as [[Buffer], number];
    if (point[0] !== 4 || point.length !== 1 + 2 * curve.size) return null;
    const pub = jwk({ kty: 'EC', crv: curve.crv, x: b64u(point.subarray(1, 1 + curve.size)), y: b64u(point.subarray(1 + curve.size)) });
    const [[r, s]] = readMpis(sig.value, 0, 2) as [[Buffer, Buffer], number];
    const value = Buffer.concat([leftPad(r, curve.size), leftPad(s, curve.size)]);
    return (data, hash) => crypto.verify(hash, data, { key: pub, dsaEncoding: 'ieee-p1363' }, value);
  }
  // EdDSA signs the digest itself.
  const eddsa = (crv: string, x: Buffer, value: Buffer) => {
    const pub = jwk({ kty: 'OKP', crv, x: b64u(x) });
    return (data: Buffer, hash: string) => crypto.verify(null, crypto.createHash(hash).update(data).digest(), pub, value);
  };
  if (key.algo === 22) {
    const [oid, rest] = curveOf(m);
    if (oid !== OID.ed25519) return null;
    const [[point]] = readMpis(rest, 0, 1) as [[Buffer], number];
    if (point.length !== 33 || point[0] !== 0x40) return null;
    const [[r, s]] = readMpis(sig.value, 0, 2) as [[Buffer, Buffer], number];
    return eddsa('Ed25519', point.subarray(1), Buffer.concat([leftPad(r, 32), leftPad(s, 32)]));
  }
  if (key.algo === 27) return eddsa('Ed25519', m.subarray(0, 32), sig.value.subarray(0, 64));
  if (key.algo === 28) return eddsa('Ed448', m.subarray(0, 57), sig.value.subarray(0, 114));
  return null;
}

/**
 * Whether `sig` by `key` covers `signed` (the data before the signature's own hashed part):
 * true, false, or null when this algorithm or hash cannot be checked here.
 */
export function verifySignature(sig: PgpSignature, key: PgpPublicKey, signed: Buffer): boolean | null {
  const hash = HASHES[sig.hashAlgo];
  if (!hash || sig.algo !== key.algo) return hash ? false : null;
  const trailer = Buffer.alloc(6);
  trailer[0] = 4;
  trailer[1] = 0xff;
  trailer.writeUInt32BE(sig.hashedPart.length, 2);
  const data = Buffer.concat([signed, sig.hashedPart, trailer]);
  let digest: Buffer;
  try {
    digest = crypto.createHash(hash).update(data).digest();
  } catch {
    return null;
  }
  if (!digest.subarray(0, 2).equals(sig.left16)) return false;
  try {
    const check = verifier(key, sig);
    return check ? check(data, hash) : null;
  } catch {
    return false;
  }
}

const keyPrefix = (key: PgpPublicKey) => {
  const p = Buffer.alloc(3);
  p[0] = 0x99;
  p.writeUInt16BE(key.body.length, 1);
  return Buffer.concat([p, key.body]);
};

/** What a certification of a user id by the primary key signs. */
export function userIdSigned(primary: PgpPublicKey, uid: Buffer): Buffer {
  const p = Buffer.alloc(5);
  p[0] = 0xb4;
  p.writeUInt32BE(uid.length, 1);
  return Buffer.concat([keyPrefix(primary), p, uid]);
}

/** What a subkey binding (or its revocation) signs. */
export const subkeySigned = (primary: PgpPublicKey, sub: PgpPublicKey) => Buffer.concat([keyPrefix(primary), keyPrefix(sub)]);

/** What a direct-key signature or key revocation signs. */
export const keySigned = (primary: PgpPublicKey) => keyPrefix(primary);

/** A document signature's data: text signatures (type 1) sign CRLF line ends. */
export function documentSigned(sig: PgpSignature, data: Buffer): Buffer {
  return sig.type === 1 ? Buffer.from(data.toString('utf8').replace(/\r?\n/g, '\r\n')) : data;
}
