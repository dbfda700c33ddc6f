import {
  dearmor, framePacket, parsePublicKey, parseSignature, PgpError, readPackets, TAG,
  type Packet, type PgpPublicKey, type PgpSignature,
} from './openpgp-packets';
import { documentSigned, subkeySigned, userIdSigned, verifySignature } from './openpgp-verify';

// Public keys ("entities") of an armored key block, as openpgp.ReadArmoredKeyRing gives them to
// Gitea: the primary key, its self-certified user ids, its bound subkeys, its expiry.

export type PgpIdentity = { uid: string; email: string; revoked: boolean; selfSig: PgpSignature };
export type PgpSubkey = { key: PgpPublicKey; packet: Buffer };
export type PgpEntity = {
  primary: PgpPublicKey;
  /** The primary key re-framed as a packet (what Gitea stores as the key's content). */
  packet: Buffer;
  identities: PgpIdentity[];
  subkeys: PgpSubkey[];
  /** Unix seconds; 0 when the key does not expire. */
  expires: number;
};

/** The address of `Name (comment) <email>`; empty without angle brackets, as Go's parser. */
const emailOf = (uid: string) => /<([^<>]*)>\s*$/.exec(uid)?.[1]?.trim() ?? '';

const CERTIFICATIONS = new Set([0x10, 0x11, 0x12, 0x13]);

function addIdentity(e: PgpEntity, uid: Buffer, sigs: PgpSignature[]): void {
  let selfSig: PgpSignature | undefined;
  let revoked = false;
  for (const sig of sigs.filter((s) => s.issuer === e.primary.keyId)) {
    const ok = verifySignature(sig, e.primary, userIdSigned(e.primary, uid));
    if (CERTIFICATIONS.has(sig.type)) {
      if (ok === false) throw new PgpError('user ID self-signature invalid');
      if (!selfSig || (sig.created ?? 0) > (selfSig.created ?? 0)) selfSig = sig;
    } else if (sig.type === 0x30 && ok !== false) revoked = true;
  }
  // A user id nobody certified for this key is not the key's.
  if (!selfSig) return;
  const text = uid.toString('utf8');
  e.identities.push({ uid: text, email: emailOf(text), revoked, selfSig });
}

function addSubkey(e: PgpEntity, body: Buffer, sigs: PgpSignature[]): void {
  const key = parsePublicKey(body);
  const bindings = sigs.filter((s) => s.type === 0x18 && s.issuer === e.primary.keyId);
  const verdicts = bindings.map((s) => verifySignature(s, e.primary, subkeySigned(e.primary, key)));
  if (!bindings.length) return;
  if (!verdicts.some((v) => v !== false)) throw new PgpError('subkey signature invalid');
  e.subkeys.push({ key, packet: framePacket(TAG.publicSubkey, body) });
}

/** Gitea's getExpiryTime: the primary user id's self-signature, else the first one's. */
function expiryOf(e: PgpEntity): number {
  const sig = (e.identities.find((i) => i.selfSig.primaryUserId) ?? e.identities[0])?.selfSig;
  return sig?.keyLifetime ? e.primary.created + sig.keyLifetime : 0;
}

/** Reads one entity from packets[start] (a public key); returns it and where the next starts. */
function readEntity(packets: Packet[], start: number): [PgpEntity, number] {
  const primary = parsePublicKey(packets[start]!.body);
  const e: PgpEntity = { primary, packet: framePacket(TAG.publicKey, packets[start]!.body), identities: [], subkeys: [], expires: 0 };
  let i = start + 1;
  while (i < packets.length && packets[i]!.tag !== TAG.publicKey) {
    const p = packets[i++]!;
    const sigs: PgpSignature[] = [];
    while (i < packets.length && packets[i]!.tag === TAG.signature) {
      try { sigs.push(parseSignature(packets[i]!.body)); } catch { /* unknown signature versions are skipped */ }
      i++;
    }
    if (p.tag === TAG.userId) addIdentity(e, p.body, sigs);
    else if (p.tag === TAG.publicSubkey) addSubkey(e, p.body, sigs);
    else if (p.tag === TAG.secretKey || p.tag === TAG.secretSubkey) throw new PgpError('secret keys are not accepted');
  }
  if (!e.identities.length) throw new PgpError('entity without any identities');
  e.expires = expiryOf(e);
  return [e, i];
}

/** Entities sharing a primary key are merged (Gitea coalesces them too). */
function coalesce(list: PgpEntity[]): PgpEntity[] {
  const byId = new Map<string, PgpEntity>();
  for (const e of list) {
    const seen = byId.get(e.primary.keyId);
    if (!seen) { byId.set(e.primary.keyId, e); continue; }
    for (const s of e.subkeys) if (!seen.subkeys.some((k) => k.key.keyId === s.key.keyId)) seen.subkeys.push(s);
    for (const id of e.identities) if (!seen.identities.some((k) => k.uid === id.uid)) seen.identities.push(id);
  }
  return [...byId.values()];
}

/** The public keys of an armored block; badly formed ones are skipped unless none is left. */
export function readArmoredKeyRing(text: string): PgpEntity[] {
  const { kind, data } = dearmor(text);
  if (kind !== 'PGP PUBLIC KEY BLOCK') throw new PgpError(`expected public key block, got: ${kind}`);
  const packets = readPackets(data);
  const out: PgpEntity[] = [];
  let last: Error = new PgpError('no public key found');
  let i = packets.findIndex((p) => p.tag === TAG.publicKey);
  if (i < 0) throw last;
  while (i < packets.length) {
    try {
      const [entity, next] = readEntity(packets, i);
      out.push(entity);
      i = next;
    } catch (err) {
      if (!(err instanceof PgpError)) throw err;
      last = err;
      i = packets.findIndex((p, k) => k > i && p.tag === TAG.publicKey);
      if (i < 0) break;
    }
  }
  if (!out.length) throw last;
  return coalesce(out);
}

/** The signature packet of an armored detached signature. */
export function readArmoredSignature(text: string): PgpSignature {
  const { kind, data } = dearmor(text);
  if (kind !== 'PGP SIGNATURE') throw new PgpError(`expected signature block, got: ${kind}`);
  const packet = readPackets(data).find((p) => p.tag === TAG.signature);
  if (!packet) throw new PgpError('no signature found');
  return parseSignature(packet.body);
}

/** The key among `keys` (by issuer, else any) whose signature `sig` over `data` verifies. */
export function findSigner(keys: PgpPublicKey[], sig: PgpSignature, data: Buffer): PgpPublicKey | null {
  const signed = documentSigned(sig, data);
  const candidates = sig.issuer ? keys.filter((k) => k.keyId === sig.issuer) : keys;
  return candidates.find((k) => verifySignature(sig, k, signed) === true) ?? null;
}
