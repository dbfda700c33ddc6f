import path from 'node:path';
import { SerialWorker, WorkerJobError } from '../serial-worker';
import { AvatarImageError, checkAvatarHeader, type AvatarLimits } from './avatar-image';
import type { ImageKind } from './image-size';
import { webpCode } from './webp';

// Avatars are decoded and scaled off the event loop: in JavaScript a 4096-pixel PNG or JPEG
// (within the default limits) takes 1-1.5 s and up to ~300 MB, which on the main thread stalled
// every request of the server, and a few uploads at once could exhaust its memory.

const decoder = new SerialWorker<{ data: Uint8Array; limits: AvatarLimits }, { data: Uint8Array; kind: ImageKind }>({
  name: 'avatar-worker',
  entry: path.join(__dirname, 'avatar-worker.ts'),
  workerData: () => ({ webp: webpCode() }),
  // A hostile image ends the worker, not the server.
  resourceLimits: { maxOldGenerationSizeMb: 256 },
  timeoutMs: 30_000,
  idleMs: 10_000,
  maxWaiting: 16,
});

export class AvatarBusyError extends Error {}

/** processAvatarImage on the decoder thread; AvatarImageError for what is not an acceptable image. */
export async function processAvatarOffThread(data: Buffer, limits: AvatarLimits): Promise<{ data: Buffer; kind: ImageKind }> {
  checkAvatarHeader(data, limits); // a wrong type or size is refused without the thread
  try {
    const out = await decoder.run({ data, limits });
    return { data: Buffer.from(out.data.buffer, out.data.byteOffset, out.data.length), kind: out.kind };
  } catch (err) {
    if (!(err instanceof WorkerJobError)) throw err;
    if (err.reason === 'busy') throw new AvatarBusyError('too many avatar images are being processed; try again shortly');
    if (err.reason === 'failed' && err.errorName !== 'AvatarImageError') throw new Error(`avatar decoder: ${err.message}`);
    if (err.reason === 'failed') throw new AvatarImageError(err.message);
    throw new AvatarImageError(err.reason === 'timeout' ? 'image.Decode: the image takes too long to decode'
      : 'image.Decode: the image needs more memory to decode than allowed');
  }
}
