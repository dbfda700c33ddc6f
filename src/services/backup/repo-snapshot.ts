import fs from 'node:fs';
import path from 'node:path';
import { git } from '../../git/exec';

// A repository is dumped as files, not as a bundle: objects are immutable once in place, so
// after the refs are recorded (for-each-ref), copying the object store gives every object those
// refs need, and the copy gets exactly the recorded refs, written as packed-refs. A push that
// lands meanwhile can add objects (harmless, unreachable) but never moves a ref of the copy, and
// its quarantine (objects/incoming-*) and half-written packs (tmp_*, a .pack without its .idx)
// are left out. Packs are opened when listed so a concurrent `git gc` that deletes them cannot
// take them away; a loose object gc removed meanwhile is covered by the packs gc wrote, added at
// the end. Restoring is then unpacking files, with no index-pack: much faster than a bundle.

export type RepoRef = { owner: string; name: string };

export type RepoSnapshot = {
  /** Path of the repository in the archive: repositories/<owner>/<name>.git */
  prefix: string;
  dir: string;
  head: string;
  packedRefs: string;
  refCount: number;
};

/** Records HEAD and every ref of the repository at this moment. */
export async function recordRefs(root: string, repo: RepoRef): Promise<RepoSnapshot | null> {
  const rel = path.join(repo.owner.toLowerCase(), `${repo.name.toLowerCase()}.git`);
  const dir = path.join(root, rel);
  if (!fs.existsSync(path.join(dir, 'HEAD'))) return null;
  const head = fs.readFileSync(path.join(dir, 'HEAD'), 'utf8');
  const out = await git(['for-each-ref', '--format=%(objectname) %(refname)'], { gitDir: dir });
  const lines = out.split('\n').filter(Boolean);
  return {
    prefix: `repositories/${rel.split(path.sep).join('/')}`,
    dir,
    head,
    packedRefs: `# pack-refs with: sorted\n${lines.sort((a, b) => cmp(a.slice(a.indexOf(' ')), b.slice(b.indexOf(' ')))).map((l) => `${l}\n`).join('')}`,
    refCount: lines.length,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export type RepoFile = { rel: string; abs: string; size: number; mode: number; mtime: number; fd?: number };

// Top-level files a bare repository needs besides objects; refs/, logs/, hooks/ and transient
// files (FETCH_HEAD, *.lock, gc.pid) are not copied: refs come from the record, hooks from hearth.
const TOP_FILES = ['config', 'description', 'shallow'];

const skipObject = (name: string) => name.startsWith('incoming-') || name.startsWith('tmp_') || name.endsWith('.lock') || name.startsWith('.tmp');

/**
 * Lists the files to copy; with `openPacks`, opens every pack file, so a concurrent gc cannot
 * remove them before they are read (the caller closes them: closeRepoFiles).
 */
export function listRepoFiles(snap: RepoSnapshot, openPacks: boolean): RepoFile[] {
  const files: RepoFile[] = [];
  const add = (rel: string, open = false) => {
    const abs = path.join(snap.dir, rel);
    let fd: number | undefined;
    try {
      fd = open ? fs.openSync(abs, 'r') : undefined;
      const st = fd !== undefined ? fs.fstatSync(fd) : fs.statSync(abs);
      if (st.isFile()) files.push({ rel, abs, size: st.size, mode: st.mode & 0o777, mtime: st.mtimeMs / 1000, fd });
      else if (fd !== undefined) fs.closeSync(fd);
    } catch { /* gone meanwhile: a loose object gc packed, or a transient file */ }
  };
  for (const f of TOP_FILES) add(f);
  const info = path.join(snap.dir, 'info');
  if (fs.existsSync(info)) for (const f of fs.readdirSync(info)) if (!skipObject(f)) add(`info/${f}`);
  const objects = path.join(snap.dir, 'objects');
  for (const sub of safeReaddir(objects)) {
    // info/ holds caches (commit-graph) git rebuilds; only alternates matter.
    if (skipObject(sub) || sub === 'pack' || sub === 'info') continue;
    const d = path.join(objects, sub);
    if (!fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const f of safeReaddir(d)) if (!skipObject(f)) add(`objects/${sub}/${f}`);
  }
  add('objects/info/alternates');
  for (const f of listPacks(snap.dir, new Set())) add(`objects/pack/${f}`, openPacks);
  return files;
}

export function closeRepoFiles(files: { fd?: number }[]): void {
  for (const f of files) if (f.fd !== undefined) try { fs.closeSync(f.fd); } catch { /* closed */ }
}

/** Pack files whose .idx exists (a pack is complete once its index is in place), not in `known`. */
export function listPacks(dir: string, known: Set<string>): string[] {
  const names = safeReaddir(path.join(dir, 'objects', 'pack')).filter((f) => !skipObject(f));
  const complete = new Set(names.filter((f) => f.endsWith('.idx')).map((f) => f.slice(0, -4)));
  return names.filter((f) => complete.has(f.replace(/\.[^.]+$/, '')) && !known.has(f));
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Empty directories a bare repository must have (git refuses a directory without refs/). */
export const REPO_DIRS = ['refs/heads', 'refs/tags', 'hooks', 'objects/info', 'objects/pack'];
