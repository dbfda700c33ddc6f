import crypto from 'node:crypto';
import { promisify } from 'node:util';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { getUserSetting, setUserSetting } from '../../../models/user-setting';

// The key pair a user signs knife's requests with (Gitea's chef.public_pem user setting): made
// on request, the public half kept, the private half handed to the user once and never stored.

export const CHEF_PUBLIC_PEM = 'chef.public_pem';
const generate = promisify(crypto.generateKeyPair);

/** Makes a new key pair for the user (replacing any earlier one) and returns the private key (PEM). */
export async function regenerateChefKey(db: DB, user: User): Promise<string> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 4096, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  await setUserSetting(db, user.id, CHEF_PUBLIC_PEM, publicKey);
  return privateKey;
}

/** The user's registered public key (PEM), or null. */
export const chefPublicKey = (db: DB, userId: number) => getUserSetting(db, userId, CHEF_PUBLIC_PEM);
