// Gitea's avatar processing (modules/avatar processAvatarImage): the header is checked against
// the size limits first; a small upload is kept as sent (an animated GIF stays animated);
// otherwise the centred square is cut, scaled down to 512 pixels and stored as PNG, unless the
// original is smaller than that PNG.

import { cropSquare, decodeImage, encodePng, scale } from './decode';
import { imageInfo, type ImageKind } from './image-size';

/** DefaultAvatarSize (256) x RenderedSizeFactor (2). */
export const AVATAR_SIZE = 512;

export type AvatarLimits = { maxWidth: number; maxHeight: number; maxOriginSize: number };

export class AvatarImageError extends Error {
  // Kept across the decoder thread (lib/image/avatar-decoder), which sees only the name.
  override name = 'AvatarImageError';
}

export function processAvatarImage(data: Buffer, limits: AvatarLimits): { data: Buffer; kind: ImageKind } {
  const info = checkAvatarHeader(data, limits);
  if (limits.maxOriginSize > 0 && data.length < limits.maxOriginSize) {
    decodeChecked(info.kind, data); // kept as sent, but only if it really is an image
    return { data, kind: info.kind };
  }
  let img = cropSquare(decodeChecked(info.kind, data));
  if (img.width > AVATAR_SIZE) img = scale(img, AVATAR_SIZE, AVATAR_SIZE);
  const png = encodePng(img);
  return data.length <= png.length ? { data, kind: info.kind } : { data: png, kind: 'png' };
}

/** The type and the size limits, from the header alone: cheap enough for any thread. */
export function checkAvatarHeader(data: Buffer, limits: AvatarLimits): { kind: ImageKind } {
  const info = imageInfo(data);
  if (!info) throw new AvatarImageError('unsupported avatar image type: not a PNG, JPEG, GIF or WebP image');
  if (info.width > limits.maxWidth) throw new AvatarImageError(`image width is too large: ${info.width} > ${limits.maxWidth}`);
  if (info.height > limits.maxHeight) throw new AvatarImageError(`image height is too large: ${info.height} > ${limits.maxHeight}`);
  if (info.width === 0 || info.height === 0) throw new AvatarImageError('image has no pixels');
  return info;
}

function decodeChecked(kind: ImageKind, data: Buffer) {
  try {
    return decodeImage(kind, data);
  } catch (err) {
    throw new AvatarImageError(`image.Decode: ${(err as Error).message}`);
  }
}
