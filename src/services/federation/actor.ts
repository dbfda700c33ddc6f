import crypto from 'node:crypto';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { seal, unseal } from '../../lib/secret-box';
import { serverVersion } from '../../lib/version';
import { countNodeInfoUsage, getUserKeypair, insertUserKeypair } from '../../models/federation';
import { getUserById, USER_TYPE_INDIVIDUAL } from '../../models/user';
import type { Hearth } from '../../hearth';

// Gitea's federation surface (routers/api/v1/activitypub, misc/nodeinfo): each user is an
// ActivityPub Person with an RSA key made on first use; nodeinfo 2.1 describes the instance.

const KEY_PURPOSE = 'activitypub-user-key';
export const ACTIVITY_JSON = 'application/activity+json';

export function actorUrl(config: Config, userId: number): string {
  return `${config.server.root_url}api/v1/activitypub/user-id/${userId}`;
}

/** The user's key pair, generated (RSA 2048, as Gitea) and stored sealed the first time. */
export async function userKeypair(h: Hearth, userId: number): Promise<{ publicPem: string; privatePem: string }> {
  let row = await getUserKeypair(h.db, userId);
  if (!row) {
    const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await insertUserKeypair(h.db, {
      user_id: userId, public_pem: publicPem, private_sealed: seal(h.secret, KEY_PURPOSE, privatePem), created_unix: Math.floor(Date.now() / 1000),
    });
    row = (await getUserKeypair(h.db, userId))!;
  }
  return { publicPem: row.public_pem, privatePem: unseal(h.secret, KEY_PURPOSE, row.private_sealed) };
}

/** A local individual user by id; organizations and unknown ids are 404, as Gitea's context user lookup. */
export async function federatedUser(db: DB, userId: number): Promise<User> {
  const user = Number.isSafeInteger(userId) && userId > 0 ? await getUserById(db, userId) : undefined;
  if (!user || user.type !== USER_TYPE_INDIVIDUAL) throw new NotFoundError('user does not exist');
  return user;
}

export async function personOf(h: Hearth, user: User, avatarUrl: string) {
  const link = actorUrl(h.config, user.id);
  const { publicPem } = await userKeypair(h, user.id);
  return {
    '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
    id: link,
    type: 'Person',
    name: user.full_name,
    preferredUsername: user.name,
    url: `${h.config.server.root_url}${encodeURIComponent(user.name)}`,
    icon: { type: 'Image', mediaType: 'image/png', url: avatarUrl },
    inbox: `${link}/inbox`,
    outbox: `${link}/outbox`,
    publicKey: { id: `${link}#main-key`, owner: link, publicKeyPem: publicPem },
  };
}

export async function nodeInfo(h: Hearth) {
  const now = Math.floor(Date.now() / 1000);
  const day = 86_400;
  const usage = h.config.federation.share_user_statistics
    ? await countNodeInfoUsage(h.db, now - 30 * day, now - 182 * day)
    : undefined;
  return {
    version: '2.1',
    // "gitea", as the API it serves: clients tell forges apart by this name.
    software: { name: 'gitea', version: serverVersion(), repository: 'https://github.com/go-gitea/gitea.git', homepage: 'https://gitea.io/' },
    protocols: ['activitypub'],
    services: { inbound: [], outbound: ['rss2.0'] },
    // Gitea's ShowRegistrationButton: open when sign-up is.
    openRegistrations: !h.config.service.disable_registration,
    usage: usage
      ? { users: { total: usage.users, activeHalfyear: usage.activeHalfyear, activeMonth: usage.activeMonth }, localPosts: usage.issues, localComments: usage.comments }
      : { users: {} },
    metadata: {},
  };
}
