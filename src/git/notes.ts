import { git, gitRun } from './exec';

export const NOTES_REF = 'refs/notes/commits';

export type NoteFound = { message: Buffer; /** the notes commit that last changed this note (as Gitea reports it) */ commit: string };

/**
 * The note attached to `commit` under refs/notes/commits. Notes trees fan out by leading hex
 * pairs (`ab/cdef...`), so every split is tried in one cat-file call.
 */
export async function readNote(dir: string, commit: string): Promise<NoteFound | null> {
  const candidates: string[] = [];
  for (let n = 0; n * 2 < commit.length - 2; n++) {
    const parts: string[] = [];
    for (let k = 0; k < n; k++) parts.push(commit.slice(k * 2, k * 2 + 2));
    candidates.push([...parts, commit.slice(n * 2)].join('/'));
  }
  const input = candidates.map((p) => `${NOTES_REF}:${p}\n`).join('');
  const r = await gitRun(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { gitDir: dir, input });
  if (r.code !== 0) return null;
  const lines = r.stdout.toString().split('\n');
  const index = lines.findIndex((l) => / blob$/.test(l));
  if (index < 0) return null;
  const path = candidates[index]!;
  const blob = lines[index]!.split(' ')[0]!;
  const [message, last] = await Promise.all([
    gitRun(['cat-file', 'blob', blob], { gitDir: dir }),
    git(['log', '-1', '--format=%H', NOTES_REF, '--', path], { gitDir: dir }),
  ]);
  if (message.code !== 0 || !last.trim()) return null;
  return { message: message.stdout, commit: last.trim() };
}
