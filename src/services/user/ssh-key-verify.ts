import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { readSshSignature, verifySshSignature } from '../../lib/ssh-signature';
import { getPublicKey, markPublicKeyVerified } from '../../models/public-key';
import { verificationToken } from './gpg-keys';

// Verifying an SSH key as Gitea does: the owner signs the verification token (the same one GPG
// keys use) with `ssh-keygen -Y sign -n gitea`; the signature must be the key's own over the
// current or previous minute's token (as sent by `echo -n`, or with a newline or CRLF).

export const SSH_VERIFY_NAMESPACE = 'gitea';

export async function verifySshKey(db: DB, owner: User, id: number, armored: string): Promise<void> {
  const key = await getPublicKey(db, id);
  if (!key || key.key_type === 'deploy' || key.owner_id !== owner.id) throw new NotFoundError();
  const sig = readSshSignature(armored);
  const blob = Buffer.from(key.content.split(/\s+/)[1] ?? '', 'base64');
  const bad = new InvalidError(`The provided SSH key, signature or token do not match or token is out of date. Sign the token: ${verificationToken(owner)}`, 'signature');
  if (!sig || !sig.publicKey.equals(blob)) throw bad;
  const tokens = [verificationToken(owner), verificationToken(owner, 1)];
  const signed = tokens.some((t) => ['', '\n', '\r\n'].some((end) => verifySshSignature(sig, Buffer.from(t + end), SSH_VERIFY_NAMESPACE)));
  if (!signed) throw bad;
  await markPublicKeyVerified(db, key.id);
}
