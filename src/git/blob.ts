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

/** Several blobs in one `git cat-file --batch` call; unknown ids are left out. */
export async function blobsBytes(dir: string, shas: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(shas)];
  const out = new Map<string, Buffer>();
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
    if (type === 'blob') out.set(sha!, buf.subarray(pos, pos + n));
    pos += n + 1; // content, then a newline
  }
  return out;
}
