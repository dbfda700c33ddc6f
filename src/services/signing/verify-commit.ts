import type { Config } from '../../config/schema';
import type { GpgKey, User } from '../../db/schema';
import { readCommitSignatures, type SignedPayload } from '../../git/commit-signature';
import { findSigner, readArmoredKeyRing, readArmoredSignature } from '../../lib/openpgp-keyring';
import { parsePublicKey, readPackets, type PgpPublicKey, type PgpSignature } from '../../lib/openpgp-packets';
import { readSshSignature, sshFingerprint, verifySshSignature, type SshSignature } from '../../lib/ssh-signature';
import { usersByEmails } from '../../models/commit-users';
import { activatedEmailsOf, gpgKeysByKeyIds, gpgKeysOfOwners, sshKeysByFingerprints, usersByIdList } from '../../models/signing-keys';
import { publicSigningKey, signingIdentity } from './instance-key';
import type { Hearth } from '../../hearth';

// Gitea's ParseCommitWithSignature for a page of commits at once: one `git cat-file --batch` for
// the signatures, a few queries for the keys, and the signatures checked in-process (OpenPGP and
// SSHSIG) instead of one gpg or ssh-keygen per commit.

export type Verification = {
  verified: boolean; reason: string; signature: string; payload: string;
  signer: { name: string; email: string; username: string } | null;
};
type CommitRef = { sha: string; committer: { name: string; email: string } };

export const NOT_SIGNED: Verification = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
const NO_KEY = 'gpg.error.no_gpg_keys_found';
const BAD = 'gpg.error.probable_bad_signature';

type Parsed = { ref: CommitRef; signed: SignedPayload; pgp?: PgpSignature; ssh?: SshSignature };
type Context = {
  config: Config;
  committers: Map<string, User>;
  byKeyId: Map<string, GpgKey[]>;
  owned: Map<number, GpgKey[]>;
  activated: Map<number, Set<string>>;
  owners: Map<number, User>;
  instancePgp: PgpPublicKey[];
  instanceSsh: string;
  sshOwners: Map<string, number[]>;
};

const storedKey = (row: GpgKey): PgpPublicKey => parsePublicKey(readPackets(Buffer.from(row.content, 'base64'))[0]!.body);
const display = (u: User) => u.full_name || u.name;

function parse(ref: CommitRef, signed: SignedPayload): Parsed {
  if (signed.signature.startsWith('-----BEGIN SSH SIGNATURE-----')) return { ref, signed, ssh: readSshSignature(signed.signature) ?? undefined };
  try {
    return { ref, signed, pgp: readArmoredSignature(signed.signature) };
  } catch {
    return { ref, signed };
  }
}

/** The committer line of a raw commit (the signed payload). */
function committerOf(payload: string): { name: string; email: string } {
  const m = /^committer (.*?) <([^>]*)>/m.exec(payload.slice(0, payload.indexOf('\n\n') + 1 || undefined));
  return { name: m?.[1] ?? '', email: m?.[2] ?? '' };
}

/** Verifications of the commits `shas` in `dir`, by sha. */
export async function verifyCommits(h: Hearth, dir: string, shas: string[]): Promise<Map<string, Verification>> {
  const out = new Map<string, Verification>();
  const sigs = await readCommitSignatures(dir, shas);
  const parsed: Parsed[] = [];
  for (const sha of new Set(shas)) {
    const signed = sigs.get(sha);
    if (signed) parsed.push(parse({ sha, committer: committerOf(signed.payload) }, signed));
    else out.set(sha, NOT_SIGNED);
  }
  if (!parsed.length) return out;
  const ctx = await loadContext(h, parsed);
  for (const p of parsed) out.set(p.ref.sha, verifyOne(ctx, p));
  return out;
}

async function loadContext(h: Hearth, parsed: Parsed[]): Promise<Context> {
  const committers = await usersByEmails(h.db, parsed.map((p) => p.ref.committer.email));
  const issuers = [...new Set(parsed.map((p) => p.pgp?.issuer).filter((i): i is string => !!i))];
  const issued = await gpgKeysByKeyIds(h.db, issuers);
  const primaries = await gpgKeysByKeyIds(h.db, [...new Set(issued.map((k) => k.primary_key_id).filter(Boolean))]);
  const ownedRows = await gpgKeysOfOwners(h.db, [...new Set([...committers.values()].map((u) => u.id))]);
  const fingerprints = [...new Set(parsed.filter((p) => p.ssh).map((p) => sshFingerprint(p.ssh!.publicKey)))];
  const sshRows = await sshKeysByFingerprints(h.db, fingerprints);
  const ownerIds = [...issued, ...primaries, ...ownedRows].map((k) => k.owner_id);
  const ctx: Context = {
    config: h.config, committers, byKeyId: new Map(), owned: new Map(), sshOwners: new Map(),
    activated: await activatedEmailsOf(h.db, [...new Set([...ownerIds, ...[...committers.values()].map((u) => u.id)])]),
    owners: await usersByIdList(h.db, ownerIds), instancePgp: [], instanceSsh: '',
  };
  for (const k of [...issued, ...primaries]) ctx.byKeyId.set(k.key_id, [...(ctx.byKeyId.get(k.key_id) ?? []), k]);
  for (const k of ownedRows) ctx.owned.set(k.owner_id, [...(ctx.owned.get(k.owner_id) ?? []), k]);
  for (const k of sshRows) ctx.sshOwners.set(k.fingerprint, [...(ctx.sshOwners.get(k.fingerprint) ?? []), k.owner_id]);
  await loadInstanceKey(ctx);
  return ctx;
}

async function loadInstanceKey(ctx: Context): Promise<void> {
  const pub = await publicSigningKey(ctx.config).catch(() => ({ content: '', format: '' as const }));
  if (pub.format === 'openpgp' && pub.content) {
    try {
      ctx.instancePgp = readArmoredKeyRing(pub.content).flatMap((e) => [e.primary, ...e.subkeys.map((s) => s.key)]);
    } catch { /* an unreadable instance key verifies nothing */ }
  } else if (pub.format === 'ssh' && pub.content) {
    const blob = pub.content.trim().split(/\s+/)[1];
    if (blob) ctx.instanceSsh = sshFingerprint(Buffer.from(blob, 'base64'));
  }
}

function verifyOne(ctx: Context, p: Parsed): Verification {
  const base = { signature: p.signed.signature, payload: p.signed.payload, signer: null };
  if (p.ssh) return { ...base, ...verifySsh(ctx, p, p.ssh) };
  if (!p.pgp) return { ...base, verified: false, reason: 'gpg.error.extract_sign' };
  return { ...base, ...verifyPgp(ctx, p, p.pgp) };
}

type Outcome = Pick<Verification, 'verified' | 'reason'> & { signer?: Verification['signer'] };
const ok = (reason: string, signer: Verification['signer']): Outcome => ({ verified: true, reason, signer });

/** The family of a key row: itself, its primary and the primary's subkeys. */
function familyOf(ctx: Context, key: GpgKey): GpgKey[] {
  const primaryId = key.primary_key_id || key.key_id;
  const rows = [...(ctx.owned.get(key.owner_id) ?? []), ...(ctx.byKeyId.get(primaryId) ?? []), key];
  return rows.filter((k, i) => (k.key_id === primaryId || k.primary_key_id === primaryId) && rows.findIndex((o) => o.id === k.id) === i);
}

/** Gitea's checkKeyEmails with no email asked for: any activated address the key may sign for. */
function keyEmail(ctx: Context, family: GpgKey[]): string | null {
  for (const k of family) {
    const activated = ctx.activated.get(k.owner_id) ?? new Set();
    const listed = (JSON.parse(k.emails) as string[]).find((e) => activated.has(e.toLowerCase()));
    if (listed) return listed;
  }
  const verified = family.find((k) => k.verified);
  if (verified) return [...(ctx.activated.get(verified.owner_id) ?? [])][0] ?? ctx.owners.get(verified.owner_id)?.email ?? null;
  return null;
}

function signedBy(keys: GpgKey[], sig: PgpSignature, payload: Buffer): GpgKey | null {
  const parsed = keys.filter((k) => k.can_sign || !k.primary_key_id).map((k) => ({ k, pub: storedKey(k) }));
  const found = findSigner(parsed.map((x) => x.pub), sig, payload);
  return found ? parsed.find((x) => x.pub === found)!.k : null;
}

function verifyPgp(ctx: Context, p: Parsed, sig: PgpSignature): Outcome {
  const payload = Buffer.from(p.signed.payload);
  let fallback = NO_KEY;
  for (const key of (sig.issuer ? ctx.byKeyId.get(sig.issuer) : undefined) ?? []) {
    fallback = BAD;
    const family = familyOf(ctx, key);
    const email = keyEmail(ctx, family);
    const owner = ctx.owners.get(key.owner_id);
    if (email === null || !owner) continue;
    const k = signedBy(family, sig, payload);
    if (k) return ok(`${owner.name} / ${k.key_id}`, { name: display(owner), email, username: owner.name });
  }
  const committer = ctx.committers.get(p.ref.committer.email.toLowerCase());
  if (committer) {
    const mail = p.ref.committer.email.toLowerCase();
    const committerActivated = ctx.activated.get(committer.id)?.has(mail) ?? false;
    for (const key of (ctx.owned.get(committer.id) ?? []).filter((k) => !k.primary_key_id)) {
      const listed = (JSON.parse(key.emails) as string[]).some((e) => e.toLowerCase() === mail);
      if (!((key.verified && committerActivated) || (listed && committerActivated))) continue;
      const k = signedBy(familyOf(ctx, key), sig, payload);
      if (k) return ok(`${committer.name} / ${k.key_id}`, { name: display(committer), email: p.ref.committer.email, username: committer.name });
    }
  }
  if (ctx.instancePgp.length) {
    const found = findSigner(ctx.instancePgp, sig, payload);
    const id = signingIdentity(ctx.config);
    if (found) return ok(`${id.name} / ${found.keyId}`, { name: id.name, email: id.email, username: id.name });
    if (sig.issuer && ctx.instancePgp.some((k) => k.keyId === sig.issuer)) fallback = BAD;
  }
  return { verified: false, reason: fallback };
}

/** Gitea's ParseCommitWithSSHSignature: the committer's own keys, then the instance key. */
function verifySsh(ctx: Context, p: Parsed, sig: SshSignature): Outcome {
  const fingerprint = sshFingerprint(sig.publicKey);
  const payload = Buffer.from(p.signed.payload);
  const committer = ctx.committers.get(p.ref.committer.email.toLowerCase());
  if (committer && (ctx.sshOwners.get(fingerprint) ?? []).includes(committer.id)) {
    if (!verifySshSignature(sig, payload)) return { verified: false, reason: BAD };
    return ok(`${committer.name} / ${fingerprint}`, { name: display(committer), email: p.ref.committer.email, username: committer.name });
  }
  if (ctx.instanceSsh && ctx.instanceSsh === fingerprint) {
    const id = signingIdentity(ctx.config);
    if (!verifySshSignature(sig, payload)) return { verified: false, reason: BAD };
    return ok(`${id.name} / ${fingerprint}`, { name: id.name, email: id.email, username: id.name });
  }
  return { verified: false, reason: NO_KEY };
}
