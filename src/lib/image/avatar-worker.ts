import { workerData } from 'node:worker_threads';
import { serveJobs } from '../serial-worker';
import { processAvatarImage, type AvatarLimits } from './avatar-image';
import { provideWebpCode } from './webp';

// The avatar decoder's thread (lib/image/avatar-decoder): bundled on its own (build.mjs) and run
// by a SerialWorker. libwebp's module comes with the worker's data: the thread cannot count on
// reading the executable's payload or the package's file.

provideWebpCode((workerData as { webp: Uint8Array }).webp);

serveJobs(({ data, limits }: { data: Uint8Array; limits: AvatarLimits }) => {
  const out = processAvatarImage(Buffer.from(data.buffer, data.byteOffset, data.length), limits);
  return { data: out.data, kind: out.kind };
});
