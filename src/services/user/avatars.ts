import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { AvatarImageError } from '../../lib/image/avatar-image';
import { AvatarBusyError, processAvatarOffThread } from '../../lib/image/avatar-decoder';
import { imageKind } from '../../lib/image/image-size';
import { BadRequestError, InvalidError, UnavailableError } from '../../lib/errors';
import { getUserIdByAvatar } from '../../models/avatar';
import { getUserById, updateUser } from '../../models/user';
import type { Hearth } from '../../hearth';

// Uploaded avatars, as Gitea stores them: checked and shrunk (lib/image/avatar-image), then kept
// under <data_dir>/avatars/ named by their hash (md5 of "<owner id>-<md5 of the upload>", Gitea's
// HashAvatar), which the owner's row holds; the avatar URL names the hash, so a new upload gets
// a new URL. Repository avatars sit in avatars/repo/. Before hashes named the files, a user's
// avatar was avatars/<user id>: still read, and removed on the next change.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HASH = /^[0-9a-f]{32}$/;

export type AvatarKind = 'user' | 'repo';

// Keys in the blob storage ([storage]): on local disk, the same paths under the data directory.
const avatarKey = (kind: AvatarKind, hash: string) => (kind === 'user' ? `avatars/${hash}` : `avatars/repo/${hash}`);
const legacyUserAvatarKey = (userId: number) => `avatars/${userId}`;

export const imageType = (data: Buffer): string | undefined => {
  const kind = imageKind(data);
  return kind && `image/${kind}`;
};

/**
 * Decodes an Update*AvatarOption image (standard base64, as Go decodes it), checks it and
 * prepares what is stored: 400 for bad base64 as Gitea, 422 for what is not an acceptable image.
 */
export async function prepareAvatar(config: Config, image: string): Promise<{ original: Buffer; stored: Buffer }> {
  const text = image.replace(/\s+/g, '');
  if (!BASE64.test(text)) throw new BadRequestError('illegal base64 data');
  const original = Buffer.from(text, 'base64');
  const max = config.picture.avatar_max_file_size;
  if (original.length > max) throw new InvalidError(`[image]: avatar is larger than ${max} bytes`, 'image');
  try {
    const limits = { maxWidth: config.picture.avatar_max_width, maxHeight: config.picture.avatar_max_height, maxOriginSize: config.picture.avatar_max_origin_size };
    return { original, stored: (await processAvatarOffThread(original, limits)).data };
  } catch (err) {
    if (err instanceof AvatarImageError) throw new InvalidError(`[image]: ${err.message}`, 'image');
    if (err instanceof AvatarBusyError) throw new UnavailableError(err.message);
    throw err;
  }
}

export const hashAvatar = (ownerId: number, original: Buffer): string => {
  const inner = `${ownerId}-${crypto.createHash('md5').update(original).digest('hex')}`;
  return crypto.createHash('md5').update(inner).digest('hex');
};

/** Writes the file first (a row never names a missing file), atomically (the store spools, then renames or uploads). */
export async function writeAvatarFile(h: Hearth, kind: AvatarKind, hash: string, data: Buffer): Promise<void> {
  await h.blobs.put(avatarKey(kind, hash), Readable.from([data]));
}

export async function removeAvatarHash(h: Hearth, kind: AvatarKind, hash: string): Promise<void> {
  if (HASH.test(hash)) await h.blobs.remove(avatarKey(kind, hash));
}

/** Stores the image, then points the user (or organization) at it. */
export async function uploadAvatar(h: Hearth, user: User, image: string): Promise<User> {
  const { original, stored } = await prepareAvatar(h.config, image);
  const hash = hashAvatar(user.id, original);
  if (hash !== user.avatar) {
    await writeAvatarFile(h, 'user', hash, stored);
    await updateUser(h.db, user.id, { avatar: hash });
    await removeAvatarFile(h, user);
  }
  return (await getUserById(h.db, user.id))!;
}

export async function deleteAvatar(h: Hearth, user: User): Promise<void> {
  await updateUser(h.db, user.id, { avatar: '' });
  await removeAvatarFile(h, user);
}

/** The user's uploaded avatar file, whichever layout it was written in. */
export async function removeAvatarFile(h: Hearth, user: User): Promise<void> {
  if (user.avatar) await removeAvatarHash(h, 'user', user.avatar);
  await h.blobs.remove(legacyUserAvatarKey(user.id));
}

/** The uploaded image an avatar URL names, if any. */
export async function findUploadedAvatar(h: Hearth, kind: AvatarKind, hash: string): Promise<{ data: Buffer; type: string } | null> {
  if (!HASH.test(hash)) return null;
  const data = (await readIfExists(h, avatarKey(kind, hash)))
    ?? (kind === 'user' ? await readLegacyAvatar(h, hash) : undefined);
  return data ? { data, type: imageType(data) ?? 'application/octet-stream' } : null;
}

async function readLegacyAvatar(h: Hearth, hash: string): Promise<Buffer | undefined> {
  const id = await getUserIdByAvatar(h.db, hash);
  return id === undefined ? undefined : readIfExists(h, legacyUserAvatarKey(id));
}

/** An avatar is small (limited by avatar_max_file_size): read whole. */
async function readIfExists(h: Hearth, key: string): Promise<Buffer | undefined> {
  try {
    const out: Buffer[] = [];
    for await (const c of await h.blobs.open(key)) out.push(c as Buffer);
    return Buffer.concat(out);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
