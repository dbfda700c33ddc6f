import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import { PayloadTooLargeError } from '../errors';
import type { BlobHashes } from './storage';

/** Hashes (md5, sha1, sha256, sha512) and counts what passes through, failing past maxSize. */
export class HashingCounter extends Transform {
  private readonly hashes = ['md5', 'sha1', 'sha256', 'sha512'].map((a) => crypto.createHash(a));
  size = 0;
  constructor(private readonly maxSize = -1, private readonly tooLarge: () => Error = () => new PayloadTooLargeError()) { super(); }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.size += chunk.length;
    if (this.maxSize >= 0 && this.size > this.maxSize) return done(this.tooLarge());
    for (const h of this.hashes) h.update(chunk);
    done(null, chunk);
  }
  digests(): BlobHashes {
    const [md5, sha1, sha256, sha512] = this.hashes.map((h) => h.digest('hex')) as [string, string, string, string];
    return { md5, sha1, sha256, sha512 };
  }
}
