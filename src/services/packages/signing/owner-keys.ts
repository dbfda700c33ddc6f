import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { User } from '../../../db/schema';
import { openpgp } from '../../../lib/lazy-require';
import { seal, unseal } from '../../../lib/secret-box';
import { findSigningKey, insertSigningKeyIfMissing } from '../../../models/package-signing-key';
import type { Hearth } from '../../../hearth';

// The per-owner keys that sign package repository indexes, made on first use and kept sealed
// with the instance secret: an OpenPGP key (Release/InRelease for apt, repomd.xml for dnf, the
// pacman databases) and an RSA key (alpine's APKINDEX). RSA 3072 for OpenPGP: every verifier
// the clients use (gpgv, rpm, gpgme, sqv) accepts it.

const SEAL_PURPOSE = 'package-signing-key';
export type KeyKind = 'openpgp' | 'rsa';

export type PgpSigner = {
  /** The armored public key (what clients import). */
  publicKey: string;
  fingerprint: string;
  /** A cleartext-signed document (apt's InRelease). */
  signCleartext(text: string): Promise<string>;
  /** A detached signature of the bytes: armored text or binary packets. */
  signDetached(data: Uint8Array, format: 'armored' | 'binary'): Promise<string | Buffer>;
};

export type RsaSigner = { publicKeyPem: string; fingerprint: string; sign(data: Uint8Array, hash: 'sha1' | 'sha256'): Buffer };

async function makePgpKey(owner: User, label: string) {
  const pgp = openpgp();
  const { privateKey, publicKey } = await pgp.generateKey({
    type: 'rsa', rsaBits: 3072, userIDs: [{ name: `${owner.name} (${label})` }], format: 'armored',
  });
  const fingerprint = (await pgp.readKey({ armoredKey: publicKey })).getFingerprint().toUpperCase();
  return { publicKey, privateKey, fingerprint };
}

const generateKeyPair = promisify(crypto.generateKeyPair);

/** Off the event loop: a 4096-bit key takes a second or more. */
async function makeRsaKey() {
  const { publicKey, privateKey } = await generateKeyPair('rsa', { modulusLength: 4096 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return { publicKey: publicKeyPem, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), fingerprint: crypto.createHash('sha1').update(der).digest('hex') };
}

/** The owner's key row of a kind, made (and sealed) when missing. */
async function keyRow(h: Hearth, owner: User, kind: KeyKind, label: string) {
  const found = await findSigningKey(h.db, owner.id, kind);
  if (found) return found;
  const made = kind === 'openpgp' ? await makePgpKey(owner, label) : await makeRsaKey();
  await insertSigningKeyIfMissing(h.db, {
    ownerId: owner.id, kind, publicKey: made.publicKey, privateKeySealed: seal(h.secret, SEAL_PURPOSE, made.privateKey), fingerprint: made.fingerprint,
  });
  return (await findSigningKey(h.db, owner.id, kind))!;
}

/** The public half only (a key download), made on first use like the signers. */
export async function ownerPublicKey(h: Hearth, owner: User, kind: KeyKind, label = 'package registry'): Promise<{ key: string; fingerprint: string }> {
  const row = await keyRow(h, owner, kind, label);
  return { key: row.public_key, fingerprint: row.fingerprint };
}

export async function ownerPgpSigner(h: Hearth, owner: User, label = 'package registry'): Promise<PgpSigner> {
  const row = await keyRow(h, owner, 'openpgp', label);
  const pgp = openpgp();
  const signingKeys = await pgp.readPrivateKey({ armoredKey: unseal(h.secret, SEAL_PURPOSE, row.private_key_sealed) });
  return {
    publicKey: row.public_key,
    fingerprint: row.fingerprint,
    signCleartext: async (text) => pgp.sign({ message: await pgp.createCleartextMessage({ text }), signingKeys }),
    signDetached: async (data, format) => {
      const message = await pgp.createMessage({ binary: data });
      if (format === 'armored') return pgp.sign({ message, signingKeys, detached: true, format: 'armored' });
      return Buffer.from(await pgp.sign({ message, signingKeys, detached: true, format: 'binary' }));
    },
  };
}

export async function ownerRsaSigner(h: Hearth, owner: User): Promise<RsaSigner> {
  const row = await keyRow(h, owner, 'rsa', '');
  const key = crypto.createPrivateKey(unseal(h.secret, SEAL_PURPOSE, row.private_key_sealed));
  return {
    publicKeyPem: row.public_key,
    fingerprint: row.fingerprint,
    sign: (data, hash) => crypto.sign(hash, data, key),
  };
}
