// The output of `git diff --raw -p -z --full-index` (git/diff-view.ts) as files: each raw
// record (exact paths, modes, full blob ids) with its patch section cut into numbered lines,
// when git printed one (whitespace options drop files whose changes were only whitespace, and
// a cut-off diff lacks the last ones).

export type DiffLineKind = 'add' | 'del' | 'ctx' | 'hunk' | 'meta';
export type DiffLine = { kind: DiffLineKind; old?: number; new?: number; text: string; html?: string };
export type DiffStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'typechange';

export type DiffFile = {
  status: DiffStatus; oldPath: string; path: string;
  oldSha: string; newSha: string; oldMode: string; newMode: string;
  binary: boolean;
  /** The patch's lines; null when git printed none (whitespace only, or past the size cap). */
  lines: DiffLine[] | null;
  additions: number; deletions: number;
};

const STATUS: Record<string, DiffStatus> = { A: 'added', D: 'deleted', M: 'modified', R: 'renamed', C: 'copied', T: 'typechange' };
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const TOLD = /^(new file mode|deleted file mode|old mode|new mode|similarity index|Binary files|GIT binary patch)/;

type Raw = Omit<DiffFile, 'binary' | 'lines' | 'additions' | 'deletions'>;

/** The raw records at the start of the output, and where the patch begins. */
function readRaw(text: string): { raws: Raw[]; rest: number } {
  const raws: Raw[] = [];
  let at = 0;
  while (text[at] === ':') {
    const end = text.indexOf('\0', at);
    if (end < 0) break;
    const [oldMode, newMode, oldSha, newSha, status] = text.slice(at + 1, end).split(' ') as [string, string, string, string, string];
    const p1End = text.indexOf('\0', end + 1);
    const first = text.slice(end + 1, p1End);
    let path = first;
    at = p1End + 1;
    if (status.startsWith('R') || status.startsWith('C')) {
      const p2End = text.indexOf('\0', at);
      path = text.slice(at, p2End);
      at = p2End + 1;
    }
    raws.push({ status: STATUS[status[0]!] ?? 'modified', oldPath: first, path, oldSha, newSha, oldMode, newMode });
  }
  while (text[at] === '\0') at++;
  return { raws, rest: at };
}

type Section = { index: [string, string] | null; lines: string[] };

function sections(patch: string): Section[] {
  const out: Section[] = [];
  const rows = patch.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  for (const row of rows) {
    if (row.startsWith('diff --git ')) out.push({ index: null, lines: [] });
    else if (out.length) {
      const s = out[out.length - 1]!;
      const m = !s.index && /^index ([0-9a-f]+)\.\.([0-9a-f]+)/.exec(row);
      if (m) s.index = [m[1]!, m[2]!];
      s.lines.push(row);
    }
  }
  return out;
}

function parseLines(rows: string[]): Pick<DiffFile, 'lines' | 'binary' | 'additions' | 'deletions'> {
  const lines: DiffLine[] = [];
  let [old, now, additions, deletions] = [0, 0, 0, 0];
  let inHunks = false;
  let binary = false;
  for (const row of rows) {
    const hunk = HUNK.exec(row);
    if (hunk) {
      inHunks = true;
      [old, now] = [Number(hunk[1]), Number(hunk[2])];
      lines.push({ kind: 'hunk', text: row });
    } else if (!inHunks) {
      if (row.startsWith('Binary files') || row === 'GIT binary patch') binary = true;
      if (TOLD.test(row)) lines.push({ kind: 'meta', text: row });
    } else if (row.startsWith('+')) {
      additions++;
      lines.push({ kind: 'add', new: now++, text: row.slice(1) });
    } else if (row.startsWith('-')) {
      deletions++;
      lines.push({ kind: 'del', old: old++, text: row.slice(1) });
    } else if (row.startsWith('\\')) lines.push({ kind: 'meta', text: row });
    else lines.push({ kind: 'ctx', old: old++, new: now++, text: row.slice(1) });
  }
  return { lines, binary, additions, deletions };
}

/** A section belongs to a record when their blob ids agree (or, without ids, when the record changed no content). */
const belongs = (s: Section, r: Raw): boolean => (s.index
  ? r.oldSha.startsWith(s.index[0]) && r.newSha.startsWith(s.index[1])
  : r.oldSha === r.newSha || /^0+$/.test(r.oldSha) || /^0+$/.test(r.newSha));

/** Files in git's order, each with its patch lines when the output holds them. */
export function parseRawAndPatch(text: string): DiffFile[] {
  const { raws, rest } = readRaw(text);
  const secs = sections(text.slice(rest));
  const files: DiffFile[] = [];
  let j = 0;
  for (const r of raws) {
    const s = secs[j];
    if (s && belongs(s, r)) {
      j++;
      files.push({ ...r, ...parseLines(s.lines) });
    } else files.push({ ...r, binary: false, lines: null, additions: 0, deletions: 0 });
  }
  return files;
}
