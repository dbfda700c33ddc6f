import { PassThrough, type Readable } from 'node:stream';

/**
 * A stream available at once for bytes that arrive later (an object store's answer): the
 * callers that hand out a Readable synchronously keep doing so. An open that fails becomes the
 * stream's error.
 */
export function deferredStream(source: Promise<Readable>): Readable {
  const out = new PassThrough();
  source.then((s) => {
    s.on('error', (err) => out.destroy(err));
    out.on('close', () => s.destroy());
    s.pipe(out);
  }, (err: Error) => out.destroy(err));
  return out;
}
