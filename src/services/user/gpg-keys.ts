import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { GpgKey, User } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { findSigner, readArmoredKeyRing, readArmoredSignature, type PgpEntity } from '../../lib/openpgp-keyring';
import { parsePublicKey, PgpError, readPackets, type PgpPublicKey, type PgpSignature } from '../../lib/openpgp-packets';
import { listEmailsOfUser } from '../../models/email';
import * as keys from '../../models/gpg-key';

// Users' GPG keys as Gitea records them: parsed from an armored block, kept when one of the
// key's user ids is an activated address of the owner, or when the owner signs the
// verification token with it (then the key is "verified").

export type GpgKeyView = { key: GpgKey; subkeys: GpgKey[]; emails: { email: string; verified: boolean }[] };
type Page = { offset: number; limit: number };

/** The token to sign for the minute window `back` minutes ago (0: now), per user. */
export function verificationToken(user: User, back = 0): string {
  const minute = Math.floor(Date.now() / 60000) - back;
  return crypto.createHash('sha256').update(`${minute * 60}:${user.created_unix}:${user.name}:${user.email}:${user.id}`).digest('hex');
}

const badSignature = (token: string) => new InvalidError(
  `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
);

/** Gitea tries the current and the previous token, each bare and with \n and \r\n appended. */
function signerOf(user: User, pubKeys: PgpPublicKey[], armoredSignature: string): PgpPublicKey | null {
  let sig: PgpSignature;
  try {
    sig = readArmoredSignature(armoredSignature);
  } catch {
    return null;
  }
  for (const token of [verificationToken(user), verificationToken(user, 1)]) {
    for (const data of [token, `${token}\n`, `${token}\r\n`]) {
      const signer = findSigner(pubKeys, sig, Buffer.from(data));
      if (signer) return signer;
    }
  }
  return null;
}

// Go's PublicKeyAlgorithm.CanSign / CanEncrypt, which Gitea records as the key's capabilities.
const canSign = (algo: number) => ![2, 16, 18, 25, 26].includes(algo);
const canEncrypt = (algo: number) => [1, 2, 16, 18, 25, 26].includes(algo);

function keyRow(owner: User, k: PgpPublicKey, packet: Buffer, primaryKeyId: string, expires: number): keys.NewGpgKey {
  return {
    owner_id: owner.id, key_id: k.keyId, primary_key_id: primaryKeyId, content: packet.toString('base64'), emails: '[]',
    can_sign: +canSign(k.algo), can_encrypt_comms: +canEncrypt(k.algo), can_encrypt_storage: +canEncrypt(k.algo),
    can_certify: +canSign(k.algo), verified: 0, created_unix: k.created, expired_unix: expires,
  };
}

async function storeEntity(db: DB, owner: User, e: PgpEntity, activated: Set<string>, verified: boolean): Promise<GpgKey> {
  if (await keys.keyIdUsed(db, e.primary.keyId)) throw new InvalidError('A key with the same id already exists');
  const emails = [...new Set(e.identities.filter((i) => !i.revoked).map((i) => i.email.trim().toLowerCase()))]
    .filter((m) => activated.has(m));
  if (!verified && !emails.length) {
    throw new NotFoundError(`None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${verificationToken(owner)}`);
  }
  const primary = await keys.insertGpgKey(db, {
    ...keyRow(owner, e.primary, e.packet, '', e.expires), emails: JSON.stringify(emails), verified: +verified,
  });
  for (const s of e.subkeys) await keys.insertGpgKey(db, keyRow(owner, s.key, s.packet, e.primary.keyId, e.expires));
  return primary;
}

const activatedOf = async (db: DB, owner: User) =>
  new Set((await listEmailsOfUser(db, owner.id)).filter((m) => m.is_activated).map((m) => m.lower_email));

/** POST /user/gpg_keys: every key of the block (only the signing one with a signature); the first is returned. */
export async function addGpgKey(db: DB, owner: User, armored: string, signature?: string): Promise<GpgKeyView> {
  let entities: PgpEntity[];
  try {
    entities = readArmoredKeyRing(armored);
  } catch (err) {
    if (err instanceof PgpError) throw new InvalidError(`failed to parse gpg key ${err.message}`, 'armored_public_key');
    throw err;
  }
  if (signature) {
    const signer = signerOf(owner, entities.flatMap((e) => [e.primary, ...e.subkeys.map((s) => s.key)]), signature);
    if (!signer) throw badSignature(verificationToken(owner));
    entities = entities.filter((e) => e.primary === signer || e.subkeys.some((s) => s.key === signer));
  }
  const activated = await activatedOf(db, owner);
  const first = await db.transaction().execute(async (trx) => {
    const stored: GpgKey[] = [];
    for (const e of entities) stored.push(await storeEntity(trx, owner, e, activated, !!signature));
    return stored[0]!;
  });
  return (await views(db, owner, [first]))[0]!;
}

async function views(db: DB, owner: User, list: GpgKey[]): Promise<GpgKeyView[]> {
  const subs = await keys.subkeysOf(db, list.map((k) => k.key_id));
  const activated = await activatedOf(db, owner);
  return list.map((key) => ({
    key,
    subkeys: subs.filter((s) => s.primary_key_id === key.key_id),
    emails: (JSON.parse(key.emails) as string[]).map((email) => ({ email, verified: activated.has(email.toLowerCase()) })),
  }));
}

export async function listGpgKeys(db: DB, owner: User, page: Page): Promise<{ keys: GpgKeyView[]; total: number }> {
  const found = await keys.listPrimaryGpgKeys(db, owner.id, page.offset, page.limit);
  return { keys: await views(db, owner, found.keys), total: found.total };
}

/** One of the caller's own keys, or 404. */
export async function getGpgKey(db: DB, owner: User, id: number): Promise<GpgKeyView> {
  const key = await keys.getPrimaryGpgKey(db, owner.id, id);
  if (!key) throw new NotFoundError();
  return (await views(db, owner, [key]))[0]!;
}

export async function deleteGpgKey(db: DB, owner: User, id: number): Promise<void> {
  const key = await keys.getPrimaryGpgKey(db, owner.id, id);
  if (!key) throw new NotFoundError();
  await db.transaction().execute((trx) => keys.deleteGpgKeyTree(trx, key.key_id));
}

const storedKey = (row: GpgKey): PgpPublicKey => parsePublicKey(readPackets(Buffer.from(row.content, 'base64'))[0]!.body);

/** POST /user/gpg_key_verify: the owner proves the key by signing the token with it or a subkey. */
export async function verifyGpgKey(db: DB, owner: User, keyId: string, signature: string): Promise<GpgKeyView> {
  // A key id with its leading zeros dropped (as Gitea) or a whole fingerprint names the same key.
  const id = keyId.trim().toUpperCase().slice(-16).replace(/^0+/, '');
  const row = id ? await keys.getGpgKeyByKeyId(db, owner.id, id.padStart(16, '0')) : undefined;
  if (!row) throw new NotFoundError();
  const family = [row, ...(await keys.subkeysOf(db, [row.key_id]))];
  if (!signerOf(owner, family.map(storedKey), signature)) throw badSignature(verificationToken(owner));
  await keys.markGpgKeyVerified(db, row.id);
  const primary = await keys.getGpgKeyByKeyId(db, owner.id, row.primary_key_id || row.key_id);
  return (await views(db, owner, [primary ?? row]))[0]!;
}
