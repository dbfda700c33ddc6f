import { gitBytes } from './exec';

// A commit's signature and the payload it signs: the commit object without its `gpgsig` header
// (git's parse_signed_commit). Many commits are read by one `git cat-file --batch`.

export type SignedPayload = { signature: string; payload: string };

/** Splits a raw commit object; null when it carries no signature. */
export function splitSignedCommit(raw: string): SignedPayload | null {
  const end = raw.indexOf('\n\n');
  const headers = (end < 0 ? raw : raw.slice(0, end + 1)).split('\n');
  const body = end < 0 ? '' : raw.slice(end + 1);
  const kept: string[] = [];
  const sig: string[] = [];
  let inSig = false;
  for (const line of headers.slice(0, -1)) {
    if (inSig && line.startsWith(' ')) { sig.push(line.slice(1)); continue; }
    inSig = false;
    if (line.startsWith('gpgsig ') || line.startsWith('gpgsig-sha256 ')) {
      // Only the object format's own signature counts; the other one stays in the payload, as git.
      if (sig.length) { kept.push(line); continue; }
      inSig = true;
      sig.push(line.slice(line.indexOf(' ') + 1));
      continue;
    }
    kept.push(line);
  }
  if (!sig.length) return null;
  return { signature: `${sig.join('\n')}\n`, payload: `${kept.join('\n')}\n${body}` };
}

/** The signatures of `ids` (null: unsigned or not a commit), by id. */
export async function readCommitSignatures(dir: string, ids: string[]): Promise<Map<string, SignedPayload | null>> {
  const out = new Map<string, SignedPayload | null>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const raw = await gitBytes(['cat-file', '--batch'], { gitDir: dir, input: `${unique.join('\n')}\n` });
  let at = 0;
  for (const id of unique) {
    const nl = raw.indexOf(0x0a, at);
    if (nl < 0) break;
    const [, type, size] = raw.subarray(at, nl).toString('latin1').split(' ');
    if (!size) { out.set(id, null); at = nl + 1; continue; }
    const content = raw.subarray(nl + 1, nl + 1 + Number(size));
    out.set(id, type === 'commit' ? splitSignedCommit(content.toString('utf8')) : null);
    at = nl + 1 + Number(size) + 1;
  }
  return out;
}
