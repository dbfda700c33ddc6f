// Git LFS pointer files (git-lfs' spec/v1), as Gitea's modules/lfs/pointer.go reads them.

export type Pointer = { oid: string; size: number };

/** Pointer files are small: a blob larger than this is never one (Gitea's blobSizeCutoff). */
export const POINTER_MAX_SIZE = 1024;

const PREFIX = 'version https://git-lfs.github.com/spec/v1\n';
const OID = /^[0-9a-f]{64}$/;

/** A valid object address: a lowercase hex sha256 and a size that is a whole number. */
export const isValidPointer = (p: { oid?: unknown; size?: unknown }): p is Pointer =>
  typeof p.oid === 'string' && OID.test(p.oid) && typeof p.size === 'number' && Number.isSafeInteger(p.size) && p.size >= 0;

/** The pointer a blob holds, or null when it is not one. */
export function parsePointer(bytes: Buffer): Pointer | null {
  if (bytes.length > POINTER_MAX_SIZE) return null;
  const text = bytes.toString('utf8');
  if (!text.startsWith(PREFIX)) return null;
  let oid = '';
  let size = -1;
  for (const line of text.slice(PREFIX.length).split('\n')) {
    if (line.startsWith('oid sha256:')) oid = line.slice('oid sha256:'.length);
    else if (line.startsWith('size ')) size = /^\d+$/.test(line.slice(5)) ? Number(line.slice(5)) : -1;
  }
  const p = { oid, size };
  return isValidPointer(p) ? p : null;
}

/** The text of a pointer file for an object. */
export const pointerText = (p: Pointer): string => `${PREFIX}oid sha256:${p.oid}\nsize ${p.size}\n`;
