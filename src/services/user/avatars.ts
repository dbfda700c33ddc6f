import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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

const avatarDir = (config: Config, kind: AvatarKind) =>
  kind === 'user' ? path.join(config.server.data_dir, 'avatars') : path.join(config.server.data_dir, 'avatars', 'repo');

export const avatarPath = (config: Config, kind: AvatarKind, hash: string) => path.join(avatarDir(config, kind), hash);
const legacyUserAvatar = (config: Config, userId: number) => path.join(config.server.data_dir, 'avatars', String(userId));

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

/** Writes the file first (a row never names a missing file), atomically. */
export function writeAvatarFile(config: Config, kind: AvatarKind, hash: string, data: Buffer): void {
  const file = avatarPath(config, kind, hash);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, data);
  fs.renameSync(`${file}.tmp`, file);
}

export function removeAvatarHash(config: Config, kind: AvatarKind, hash: string): void {
  if (HASH.test(hash)) fs.rmSync(avatarPath(config, kind, hash), { force: true });
}

/** Stores the image, then points the user (or organization) at it. */
export async function uploadAvatar(h: Hearth, user: User, image: string): Promise<User> {
  const { original, stored } = await prepareAvatar(h.config, image);
  const hash = hashAvatar(user.id, original);
  if (hash !== user.avatar) {
    writeAvatarFile(h.config, 'user', hash, stored);
    await updateUser(h.db, user.id, { avatar: hash });
    removeAvatarFile(h.config, user);
  }
  return (await getUserById(h.db, user.id))!;
}

export async function deleteAvatar(h: Hearth, user: User): Promise<void> {
  await updateUser(h.db, user.id, { avatar: '' });
  removeAvatarFile(h.config, user);
}

/** The user's uploaded avatar file, whichever layout it was written in. */
export function removeAvatarFile(config: Config, user: User): void {
  if (user.avatar) removeAvatarHash(config, 'user', user.avatar);
  fs.rmSync(legacyUserAvatar(config, user.id), { force: true });
}

/** The uploaded image an avatar URL names, if any. */
export async function findUploadedAvatar(h: Hearth, kind: AvatarKind, hash: string): Promise<{ data: Buffer; type: string } | null> {
  if (!HASH.test(hash)) return null;
  const data = readIfExists(avatarPath(h.config, kind, hash))
    ?? (kind === 'user' ? await readLegacyAvatar(h, hash) : undefined);
  return data ? { data, type: imageType(data) ?? 'application/octet-stream' } : null;
}

async function readLegacyAvatar(h: Hearth, hash: string): Promise<Buffer | undefined> {
  const id = await getUserIdByAvatar(h.db, hash);
  return id === undefined ? undefined : readIfExists(legacyUserAvatar(h.config, id));
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
