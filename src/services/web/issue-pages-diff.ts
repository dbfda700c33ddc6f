import { readCapped } from '../../git/stream';
import type { Download } from '../repo/archive';

// A unified diff (`git diff` output) read with a size cap and cut into files and lines for the
// pull request's files page. Reading stops at the cap so a huge pull cannot fill memory; the
// page then says the rest is in the raw .diff.

/** `html`: the line highlighted (escaped), when its side's blob was. */
export type DiffLine = { kind: 'add' | 'del' | 'ctx' | 'hunk' | 'meta'; old?: number; new?: number; text: string; html?: string };
export type FileDiff = { lines: DiffLine[] };
export type ReadDiff = { text: string; truncated: boolean };

/** Header lines that say something a reader wants (a mode, a rename, a binary file). */
const TOLD = /^(new file mode|deleted file mode|old mode|new mode|rename from|rename to|copy from|copy to|similarity index|Binary files|GIT binary patch)/;
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The download's text up to `cap` bytes, cut at the last whole line when over. */
export async function readDiff(d: Download, cap: number): Promise<ReadDiff> {
  return readCapped(await d.open(), cap, d.format);
}

function parseFile(lines: string[]): FileDiff {
  const out: DiffLine[] = [];
  let old = 0;
  let now = 0;
  let inHunks = false;
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      inHunks = true;
      old = Number(hunk[1]);
      now = Number(hunk[2]);
      out.push({ kind: 'hunk', text: line });
    } else if (!inHunks) {
      if (TOLD.test(line)) out.push({ kind: 'meta', text: line });
    } else if (line.startsWith('+')) out.push({ kind: 'add', new: now++, text: line.slice(1) });
    else if (line.startsWith('-')) out.push({ kind: 'del', old: old++, text: line.slice(1) });
    else if (line.startsWith('\\')) out.push({ kind: 'meta', text: line });
    else out.push({ kind: 'ctx', old: old++, new: now++, text: line.slice(1) });
  }
  return { lines: out };
}

/** One entry per `diff --git` header, in git's order (the order of `git diff --raw`). */
export function parseDiff(text: string): FileDiff[] {
  const files: string[][] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('diff --git ')) files.push([]);
    else files[files.length - 1]?.push(line);
  }
  return files.map(parseFile);
}

/** The path a file's diff is about: its new name, or its old one when deleted. */
function pathOfChunk(lines: string[]): string | undefined {
  for (const line of lines) {
    if (line.startsWith('@@')) break;
    const m = /^(?:\+\+\+ b\/|rename to |copy to )(.*)$/.exec(line);
    if (m) return m[1];
  }
  const minus = lines.find((l) => l.startsWith('--- a/'));
  if (minus) return minus.slice(6);
  // No ---/+++ lines (a mode change, a binary file): `diff --git a/P b/P`.
  const head = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[0] ?? '');
  return head && head[1] === head[2] ? head[2] : head?.[2];
}

/**
 * Each file's diff under its path: `git diff -w` leaves out files whose changes are only
 * whitespace, so the diffs cannot be paired with the file list by their order.
 */
export function parseDiffByPath(text: string): Map<string, FileDiff> {
  const chunks: string[][] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('diff --git ')) chunks.push([line]);
    else chunks[chunks.length - 1]?.push(line);
  }
  const out = new Map<string, FileDiff>();
  for (const chunk of chunks) {
    const path = pathOfChunk(chunk);
    if (path !== undefined) out.set(path, parseDiff(chunk.join('\n'))[0]!);
  }
  return out;
}
