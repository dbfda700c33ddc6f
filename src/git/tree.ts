import { cachedAtCommit } from './at-commit-cache';
import { git, gitRun } from './exec';

// Tree entries of a commit by path, read with `git ls-tree` (no work tree, no object cache).

export type EntryKind = 'blob' | 'tree' | 'commit';
export type Entry = {
  /** Full path from the repository root ('' for the root tree). */
  path: string;
  name: string;
  mode: string;
  kind: EntryKind;
  sha: string;
  /** Blob size in bytes; 0 for trees and submodules. */
  size: number;
};

// Paths given to ls-tree are matched literally: `*` or `:(glob)` in a file name stay plain text.
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

function parseEntries(out: Buffer, prefix: string): Entry[] {
  const entries: Entry[] = [];
  for (const record of out.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, kind, sha, size] = record.slice(0, tab).split(/\s+/) as [string, EntryKind, string, string];
    const path = prefix + record.slice(tab + 1);
    entries.push({ path, name: baseName(path), mode, kind, sha, size: Number(size) || 0 });
  }
  return entries;
}

/**
 * The entries at `paths` in `commit`; missing paths are absent from the map. Types come from
 * one `cat-file --batch-check` (ls-tree would list a directory's children instead of the
 * directory when a path below it is also asked for); the rest from one ls-tree of the
 * non-directories alone.
 */
export async function entriesAt(dir: string, commit: string, paths: string[]): Promise<Map<string, Entry>> {
  const wanted = [...new Set(paths.filter((p) => p && !p.includes('\n')))];
  const found = new Map<string, Entry>();
  if (!wanted.length) return found;
  const input = wanted.map((p) => `${commit}:${p}\n`).join('');
  const lines = (await git(['cat-file', '--batch-check'], { gitDir: dir, input })).split('\n');
  // ls-tree for what batch-check cannot tell: blob modes, and submodules (their commit is
  // not in this repository, so batch-check calls them missing).
  const listed: string[] = [];
  for (const [i, path] of wanted.entries()) {
    const [sha, kind, size] = (lines[i] ?? '').split(' ') as [string, string, string];
    if (kind === 'tree') found.set(path, { path, name: baseName(path), mode: '040000', kind, sha, size: 0 });
    else if (kind === 'blob') found.set(path, { path, name: baseName(path), mode: '100644', kind, sha, size: Number(size) || 0 });
    if (kind !== 'tree') listed.push(path);
  }
  if (!listed.length) return found;
  const r = await gitRun(['ls-tree', '-z', '--full-tree', commit, '--', ...listed], { gitDir: dir, env: LITERAL });
  for (const e of parseEntries(r.stdout, '')) {
    const known = found.get(e.path);
    if (known) known.mode = e.mode;
    else if (e.kind === 'commit') found.set(e.path, e);
  }
  return found;
}

/** The entry at `path` ('' is the root tree), or null; kept when read at a full commit id. */
export const entryAt = cachedAtCommit(4096, readEntry);

async function readEntry(dir: string, commit: string, path: string): Promise<Entry | null> {
  if (!path) {
    const tree = (await git(['rev-parse', `${commit}^{tree}`], { gitDir: dir })).trim();
    return { path: '', name: '', mode: '040000', kind: 'tree', sha: tree, size: 0 };
  }
  return (await entriesAt(dir, commit, [path])).get(path) ?? null;
}

/** The entries directly inside the tree `tree`, whose own path is `dirPath`. */
export async function listDirectory(dir: string, tree: string, dirPath: string): Promise<Entry[]> {
  const out = (await gitRun(['ls-tree', '-l', '-z', tree], { gitDir: dir }));
  if (out.code !== 0) return [];
  return parseEntries(out.stdout, dirPath ? `${dirPath}/` : '');
}

/** Submodule paths to their URLs, from the commit's `.gitmodules` (empty when it has none). */
export async function submoduleUrls(dir: string, commit: string): Promise<Map<string, string>> {
  const r = await gitRun(['config', '-z', '--blob', `${commit}:.gitmodules`, '--get-regexp', '^submodule\\..*\\.(path|url)$'], { gitDir: dir });
  const byName = new Map<string, { path?: string; url?: string }>();
  if (r.code !== 0) return new Map();
  for (const record of r.stdout.toString('utf8').split('\0')) {
    const nl = record.indexOf('\n');
    if (nl < 0) continue;
    const key = record.slice(0, nl);
    const m = /^submodule\.(.*)\.(path|url)$/.exec(key);
    if (!m) continue;
    const item = byName.get(m[1]!) ?? {};
    item[m[2] as 'path' | 'url'] = record.slice(nl + 1);
    byName.set(m[1]!, item);
  }
  const urls = new Map<string, string>();
  for (const s of byName.values()) if (s.path && s.url) urls.set(s.path, s.url);
  return urls;
}
