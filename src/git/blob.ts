import { Lru } from '../lib/lru';
import { ownedCopy } from '../lib/owned-copy';
import { gitBytes } from './exec';
import { streamGit, type GitStream } from './stream';

/** A blob's bytes by id (callers check the size first: this buffers it whole). */
export function blobBytes(dir: string, sha: string): Promise<Buffer> {
  return gitBytes(['cat-file', 'blob', sha], { gitDir: dir });
}

/** A blob as a stream, for raw downloads of any size. */
export function blobStream(dir: string, sha: string): GitStream {
  return streamGit(dir, ['cat-file', 'blob', sha]);
}

/** The bytes of the file at `path` in `commit`, or null when there is no such blob. */
export async function fileAt(dir: string, commit: string, path: string): Promise<Buffer | null> {
  try {
    return await gitBytes(['cat-file', 'blob', `${commit}:${path}`], { gitDir: dir });
  } catch {
    return null;
  }
}

// A blob id names its bytes for ever: small blobs read once are kept (the contents API reads
// the same README again and again), 16 MiB in all.
const SMALL_BLOB = 64 * 1024;
const blobs = new Lru<string, Buffer>(4096, (b) => b.length, 16 * 1024 * 1024);

/** Several blobs in one `git cat-file --batch` call; unknown ids are left out. */
export async function blobsBytes(dir: string, shas: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const unique = [...new Set(shas)].filter((sha) => {
    const hit = blobs.get(`${dir}\0${sha}`);
    if (hit) out.set(sha, hit);
    return !hit;
  });
  if (!unique.length) return out;
  const buf = await gitBytes(['cat-file', '--batch'], { gitDir: dir, input: `${unique.join('\n')}\n` });
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const [sha, type, size] = buf.subarray(pos, nl).toString('utf8').split(' ');
    pos = nl + 1;
    if (type === 'missing' || size === undefined) continue;
    const n = Number(size);
    if (type === 'blob') {
      // A copy: a view would keep the whole batch's buffer alive in the cache.
      const bytes = n <= SMALL_BLOB ? ownedCopy(buf.subarray(pos, pos + n)) : buf.subarray(pos, pos + n);
      if (n <= SMALL_BLOB) blobs.set(`${dir}\0${sha}`, bytes);
      out.set(sha!, bytes);
    }
    pos += n + 1; // content, then a newline
  }
  return out;
}
