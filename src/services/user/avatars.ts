import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { BadRequestError, InvalidError } from '../../lib/errors';
import { getUserIdByAvatar } from '../../models/avatar';
import { getUserById, updateUser } from '../../models/user';

// Uploaded avatars: the image under <data_dir>/avatars/<user id>, its hash in user.avatar (the
// avatar URL is <root_url>avatars/<hash>, so a new upload gets a new URL).

const MAX_AVATAR_BYTES = 1024 * 1024; // Gitea's AVATAR_MAX_FILE_SIZE default
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

export const imageType = (data: Buffer): string | undefined => SIGNATURES.find((s) => s.test(data))?.type;

const avatarFile = (config: Config, userId: number) => path.join(config.server.data_dir, 'avatars', String(userId));

/** Decodes and checks an UpdateUserAvatarOption image (standard base64, as Go decodes it). */
function decodeImage(image: string): Buffer {
  const text = image.replace(/\s+/g, '');
  if (!BASE64.test(text)) throw new BadRequestError('illegal base64 data');
  const data = Buffer.from(text, 'base64');
  if (data.length > MAX_AVATAR_BYTES) throw new InvalidError(`[image]: avatar is larger than ${MAX_AVATAR_BYTES} bytes`, 'image');
  if (!imageType(data)) throw new InvalidError('[image]: not a PNG, JPEG, GIF or WebP image', 'image');
  return data;
}

/** Stores the image, then points the user at it (Gitea's HashAvatar naming). */
export async function uploadAvatar(db: DB, config: Config, user: User, image: string): Promise<User> {
  const data = decodeImage(image);
  const inner = `${user.id}-${crypto.createHash('md5').update(data).digest('hex')}`;
  const hash = crypto.createHash('md5').update(inner).digest('hex');
  const file = avatarFile(config, user.id);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, data);
  fs.renameSync(`${file}.tmp`, file);
  await updateUser(db, user.id, { avatar: hash });
  return (await getUserById(db, user.id))!;
}

export async function deleteAvatar(db: DB, config: Config, user: User): Promise<void> {
  await updateUser(db, user.id, { avatar: '' });
  removeAvatarFile(config, user);
}

export function removeAvatarFile(config: Config, user: User): void {
  fs.rmSync(avatarFile(config, user.id), { force: true });
}

/** The uploaded image an avatar URL names, if any. */
export async function findUploadedAvatar(db: DB, config: Config, hash: string): Promise<{ data: Buffer; type: string } | null> {
  if (!/^[0-9a-f]{32}$/.test(hash)) return null;
  const id = await getUserIdByAvatar(db, hash);
  if (id === undefined) return null;
  try {
    const data = fs.readFileSync(avatarFile(config, id));
    return { data, type: imageType(data) ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
