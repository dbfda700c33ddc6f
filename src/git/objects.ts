import { git, gitRun } from './exec';

// Raw object access for the git data API: blobs, trees, annotated tags and refs.

export type ObjectInfo = { sha: string; type: string; size: number };

/** `git cat-file --batch-check` for one object name; null when it does not exist. */
export async function objectInfo(dir: string, name: string): Promise<ObjectInfo | null> {
  if (!name || /[\n\r\0]/.test(name)) return null;
  const out = (await git(['cat-file', '--batch-check'], { gitDir: dir, input: `${name}\n` })).trim();
  const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(out);
  return m ? { sha: m[1]!, type: m[2]!, size: Number(m[3]) } : null;
}

/** The raw content of an object of any type (a commit's or tree's as git stores it). */
export async function readObject(dir: string, sha: string, type: string): Promise<Buffer> {
  const r = await gitRun(['cat-file', type, sha], { gitDir: dir });
  if (r.code !== 0) throw new Error(`cat-file ${type} ${sha}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** The content of a blob by its id. */
export async function readBlob(dir: string, sha: string): Promise<Buffer> {
  const r = await gitRun(['cat-file', 'blob', sha], { gitDir: dir });
  if (r.code !== 0) throw new Error(`cat-file blob ${sha}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** The tree a revision names: a tree id, a commit or tag (peeled), a branch, or `rev:path`. */
export async function resolveTree(dir: string, rev: string): Promise<string | null> {
  if (!rev || rev.startsWith('-')) return null;
  // A peel suffix after `rev:path` would be read as part of the path: resolve the path first.
  const id = rev.includes(':') ? await verify(dir, rev) : rev;
  return id ? verify(dir, `${id}^{tree}`) : null;
}

async function verify(dir: string, rev: string): Promise<string | null> {
  const r = await gitRun(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() || null : null;
}

export type TreeEntry = { mode: string; type: string; sha: string; size: number; path: string };

/** Entries of a tree with sizes; recursive listings include the subtrees themselves (`-t`). */
export async function listTree(dir: string, tree: string, recursive: boolean): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-l', '-z', ...(recursive ? ['-r', '-t'] : []), '--end-of-options', tree];
  const out = await git(args, { gitDir: dir });
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, sha, size] = record.slice(0, tab).split(/\s+/) as [string, string, string, string];
    entries.push({ mode, type, sha, size: Number(size) || 0, path: record.slice(tab + 1) });
  }
  return entries;
}

export type RefEntry = { name: string; sha: string; type: string };

/** Every ref (`refs/...`) with the object it points at and that object's type, sorted by name. */
export async function listAllRefs(dir: string): Promise<RefEntry[]> {
  const out = await git(['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)'], { gitDir: dir });
  return out.split('\n').filter(Boolean).map((line) => {
    const [sha, type] = line.split(' ', 2) as [string, string];
    return { sha, type, name: line.slice(sha.length + type.length + 2) };
  });
}

export type AnnotatedTagObject = {
  sha: string; name: string; object: string; objectType: string; message: string;
  tagger: { name: string; email: string; unix: number; offset: string } | null;
};

/** Parses `git cat-file tag`: headers, a blank line, then the message. */
export async function readAnnotatedTag(dir: string, sha: string): Promise<AnnotatedTagObject | null> {
  const r = await gitRun(['cat-file', 'tag', sha], { gitDir: dir });
  if (r.code !== 0) return null;
  const text = r.stdout.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const headers = new Map<string, string>();
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0 && !headers.has(line.slice(0, sp))) headers.set(line.slice(0, sp), line.slice(sp + 1));
  }
  return {
    sha, name: headers.get('tag') ?? '', object: headers.get('object') ?? '', objectType: headers.get('type') ?? '',
    message: split < 0 ? '' : text.slice(split + 2), tagger: parseIdent(headers.get('tagger')),
  };
}

function parseIdent(v: string | undefined): AnnotatedTagObject['tagger'] {
  const m = v ? /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(v) : null;
  return m ? { name: m[1]!, email: m[2]!, unix: Number(m[3]), offset: m[4]! } : null;
}
