// The `diff_hunk` of a review line comment (Gitea's CutDiffAroundLine): the file's diff
// headers and the last few lines of the hunk up to the commented line, under a recomputed
// `@@` header. Only one-file diffs.

type Entry = { text: string; old: number; new: number };

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** `line` on the new side, or on the old side when `old`; '' when the diff does not show it. */
export function cutDiffAroundLine(patch: string, line: number, old: boolean, context = 4): string {
  if (line <= 0 || context <= 0) return '';
  const headers: string[] = [];
  let hunk: Entry[] | null = null;
  let oldNo = 0;
  let newNo = 0;
  for (const text of patch.split('\n')) {
    const h = HUNK.exec(text);
    if (h) {
      hunk = [];
      oldNo = Number(h[1]);
      newNo = Number(h[3]);
      continue;
    }
    if (!hunk) {
      if (text.startsWith('diff --git ') || text.startsWith('--- ') || text.startsWith('+++ ')) headers.push(text);
      continue;
    }
    const kind = text[0];
    if (kind !== ' ' && kind !== '+' && kind !== '-') continue;
    hunk.push({ text, old: oldNo, new: newNo });
    const hit = old ? kind !== '+' && oldNo === line : kind !== '-' && newNo === line;
    if (hit) return render(headers, hunk.slice(-context));
    if (kind !== '+') oldNo++;
    if (kind !== '-') newNo++;
  }
  return '';
}

function render(headers: string[], kept: Entry[]): string {
  const first = kept[0]!;
  const oldCount = kept.filter((e) => e.text[0] !== '+').length;
  const newCount = kept.filter((e) => e.text[0] !== '-').length;
  return [...headers, `@@ -${first.old},${oldCount} +${first.new},${newCount} @@`, ...kept.map((e) => e.text)].join('\n');
}

/** The text of a cut hunk's lines on one side (context and that side's changes), in order. */
export function hunkSideLines(hunk: string, old: boolean): string[] {
  const rows = hunk.split('\n');
  const at = rows.findIndex((r) => HUNK.test(r));
  if (at < 0) return [];
  const side = old ? '-' : '+';
  return rows.slice(at + 1).filter((r) => r[0] === ' ' || r[0] === side).map((r) => r.slice(1));
}
