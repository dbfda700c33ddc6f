import fs from 'node:fs';
import path from 'node:path';
import { git, gitRun } from './exec';

export type ObjectFormat = 'sha1' | 'sha256';

/** `<root>/<owner>`: the directory holding all of an owner's repositories. */
export const ownerDir = (root: string, owner: string) => path.join(root, owner.toLowerCase());

/** `<root>/<owner>/<name>.git`, lower-cased as Gitea lays them out. */
export const repoDir = (root: string, owner: string, name: string) =>
  path.join(root, owner.toLowerCase(), `${name.toLowerCase()}.git`);

export async function initBare(dir: string, opts: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
  if (fs.existsSync(dir)) throw new Error(`repository directory already exists: ${dir}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await git(['init', '--bare', '--quiet', `--object-format=${opts.objectFormat}`, `--initial-branch=${opts.defaultBranch}`, dir]);
  // Allow partial clone filters and shallow fetches as Gitea does.
  await git(['config', 'uploadpack.allowFilter', 'true'], { gitDir: dir });
  await git(['config', 'uploadpack.allowAnySHA1InWant', 'true'], { gitDir: dir });
  await git(['config', 'receive.advertisePushOptions', 'true'], { gitDir: dir });
  fs.rmSync(path.join(dir, 'hooks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'hooks'));
}

export const repoExists = (dir: string) => fs.existsSync(dir);

/** Every <owner>/<name>.git directory under the repository root (wikis included). */
export function listRepoDirs(root: string): string[] {
  const subdirs = (d: string) => {
    try {
      return fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(d, e.name));
    } catch {
      return [];
    }
  };
  return subdirs(root).flatMap((owner) => subdirs(owner).filter((d) => d.endsWith('.git')));
}

export function removeRepoDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export function moveRepoDir(from: string, to: string): void {
  if (from === to) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.renameSync(from, to);
}

export type RefHead = { name: string; sha: string; unix: number; subject: string };

/** Branches (refs/heads) with their head commits. */
export async function listBranchHeads(dir: string): Promise<RefHead[]> {
  const out = await git(['for-each-ref', '--format=%(refname:strip=2)%00%(objectname)%00%(committerdate:unix)%00%(contents:subject)', 'refs/heads'], { gitDir: dir });
  return out.split('\n').filter(Boolean).map((line) => {
    const [name, sha, unix, subject] = line.split('\0');
    return { name: name!, sha: sha!, unix: Number(unix) || 0, subject: subject ?? '' };
  });
}

/** The object id a revision resolves to, or null. */
export async function revParse(dir: string, rev: string): Promise<string | null> {
  if (rev.startsWith('-') || rev.includes('\0')) return null;
  const r = await gitRun(['rev-parse', '--verify', '--quiet', '--end-of-options', rev], { gitDir: dir });
  return r.code === 0 ? r.stdout.toString().trim() : null;
}

/** Disk usage of the repository in bytes (objects and refs). */
export function repoSize(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) total += fs.statSync(p).size;
    }
  };
  try { walk(dir); } catch { /* removed meanwhile */ }
  return total;
}

export const zeroId = (format: ObjectFormat | string) => '0'.repeat(format === 'sha256' ? 64 : 40);
