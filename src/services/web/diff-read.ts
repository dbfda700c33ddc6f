import { blobsBytes } from '../../git/blob';
import { blobSizes, streamRawAndPatch, type Whitespace } from '../../git/diff-view';
import { readCapped } from '../../git/stream';
import { cachedHighlight } from '../highlight';
import { highlightedWithin } from './highlight-wait';
import { parseRawAndPatch, type DiffFile } from './diff-model';

// The diff of a commit or a comparison as the pages show it: files with numbered lines, each
// side highlighted from its whole blob (so a line inside a comment is coloured as one, and the
// result is cached by blob id), large files collapsed behind a link that loads them alone.

/** Bytes of diff text read at most: a huge commit lists its files and shows what fits. */
const MAX_DIFF = 1024 * 1024;
/** Files past this many, and files of more diff lines than COLLAPSE_LINES, come collapsed. */
export const MAX_SHOWN_FILES = 100;
export const COLLAPSE_LINES = 400;
/** Blobs above this size are shown plain (highlighting them would hold up the page). */
const HIGHLIGHT_MAX = 512 * 1024;

export type ShownDiff = {
  files: DiffFile[];
  /** Files shown collapsed (their lines are not in the page). */
  collapsed: Set<DiffFile>;
  /** The diff text was cut: files past the cut have no lines. */
  truncated: boolean;
};

export type DiffOptions = { whitespace: Whitespace; paths?: string[]; expand?: boolean };

const ZERO = /^0+$/;

/**
 * Each side's lines as highlighted HTML, from the blobs of the files shown (also the pull
 * request's files page). Sides already in the highlighter's cache cost no git at all: only the
 * others' sizes and bytes are read.
 */
export async function highlightFiles(dir: string, files: Pick<DiffFile, 'oldSha' | 'newSha' | 'oldPath' | 'path' | 'binary' | 'lines'>[]): Promise<void> {
  const text = files.filter((f) => f.lines && !f.binary);
  const missing = new Set(text.flatMap((f) => [[f.oldSha, f.oldPath], [f.newSha, f.path]] as const)
    .filter(([sha, path]) => !ZERO.test(sha) && !cachedHighlight(sha, path)).map(([sha]) => sha));
  if (!text.length) return;
  const sizes = missing.size ? await blobSizes(dir, [...missing]) : new Map<string, number>();
  const bytes = sizes.size ? await blobsBytes(dir, [...sizes].filter(([, n]) => n <= HIGHLIGHT_MAX).map(([sha]) => sha)) : new Map<string, Buffer>();
  const lines = async (sha: string, path: string): Promise<string[] | null> => {
    if (ZERO.test(sha)) return null;
    const hit = cachedHighlight(sha, path);
    if (hit) return hit;
    const b = bytes.get(sha);
    if (!b || b.subarray(0, 8000).includes(0)) return null;
    return highlightedWithin(sha, path, b.toString('utf8'));
  };
  // Both sides of every file at once: the page waits for the slowest only HIGHLIGHT_WAIT_MS.
  const sides = await Promise.all(text.map((f) => Promise.all([lines(f.oldSha, f.oldPath), lines(f.newSha, f.path)])));
  for (const [i, f] of text.entries()) {
    const [old, now] = sides[i]!;
    for (const l of f.lines!) {
      if (l.kind === 'del' && old) l.html = old[l.old! - 1];
      else if ((l.kind === 'add' || l.kind === 'ctx') && now) l.html = now[l.new! - 1];
    }
  }
}

/** The diff from `from` (null: nothing, for a root commit) to `to`, ready for the page. */
export async function readWebDiff(dir: string, from: string | null, to: string, opts: DiffOptions): Promise<ShownDiff> {
  const { text, truncated } = await readCapped(streamRawAndPatch(dir, from, to, opts.whitespace, opts.paths), MAX_DIFF, 'diff');
  const files = parseRawAndPatch(text);
  const collapsed = new Set<DiffFile>();
  if (!opts.expand) {
    files.forEach((f, i) => {
      if (f.lines && (i >= MAX_SHOWN_FILES || f.lines.length > COLLAPSE_LINES)) collapsed.add(f);
    });
  }
  await highlightFiles(dir, files.filter((f) => !collapsed.has(f)));
  return { files, collapsed, truncated };
}
