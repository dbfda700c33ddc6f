import { Transform, type TransformCallback } from 'node:stream';
import { BadRequestError } from '../../lib/errors';

// The content of the first part of a multipart body, streamed. NuGet 2.x ends its one file part
// with a bare LF before the closing boundary, which strict parsers (busboy) refuse; Gitea's Go
// reader takes it, and so does this: the part's headers are skipped, and the delimiter with the
// line break before it, CRLF or LF, is cut from the end.

const HEADERS_MAX = 16 << 10;

export function firstPartContent(boundary: string): Transform {
  const delimiter = Buffer.from(`--${boundary}`);
  const hold = delimiter.length + 256;
  let head: Buffer | null = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      if (head) {
        head = Buffer.concat([head, chunk]);
        const start = head.indexOf(delimiter);
        const end = start < 0 ? -1 : head.indexOf('\r\n\r\n', start);
        if (end < 0) {
          if (head.length > HEADERS_MAX) return done(new BadRequestError('malformed multipart body'));
          return done();
        }
        chunk = head.subarray(end + 4);
        head = null;
      }
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > hold) {
        this.push(tail.subarray(0, tail.length - hold));
        tail = tail.subarray(tail.length - hold);
      }
      done();
    },
    flush(done: TransformCallback) {
      const at = head ? -1 : tail.lastIndexOf(delimiter);
      if (at < 0) return done(new BadRequestError('malformed multipart body'));
      let end = at;
      if (tail[end - 1] === 0x0a) end--;
      if (tail[end - 1] === 0x0d) end--;
      this.push(tail.subarray(0, end));
      done();
    },
  });
}

/** The boundary of a multipart/form-data request, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const m = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]!) : null;
}
