import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, gitRun, GitError } from './exec';

export type Signature = { name: string; email: string; date?: Date };
export type FileChange =
  | { path: string; content: Buffer; mode?: '100644' | '100755' | '120000' }
  | { path: string; delete: true };

/** Signs a commit-tree: `-c` options before the command, the -S flag, extra environment (GNUPGHOME). */
export type GitSigner = { config: string[]; flag: string; env: Record<string, string> };

/** The commit-tree invocation, signed when a signer is given. */
export function commitTreeArgs(tree: string, parents: string[], signer?: GitSigner | null): string[] {
  const base = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return signer ? [...signer.config, ...base, signer.flag] : base;
}

export type CommitInput = {
  /** Commit to build on; null for a root commit. */
  parent: string | null;
  changes: FileChange[];
  message: string;
  author: Signature;
  committer: Signature;
  signer?: GitSigner | null;
};

const dateOf = (s: Signature) => (s.date ? `${Math.floor(s.date.getTime() / 1000)} +0000` : undefined);

/**
 * Writes a commit without a work tree: a temporary index seeded from the parent, blobs hashed
 * straight into the object store. Returns the commit id; refs are not touched.
 */
export async function writeCommit(dir: string, input: CommitInput): Promise<string> {
  const index = path.join(os.tmpdir(), `hearth-index-${crypto.randomUUID()}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git(input.parent ? ['read-tree', input.parent] : ['read-tree', '--empty'], { gitDir: dir, env });
    const cacheInfo: string[] = [];
    const removals: string[] = [];
    for (const change of input.changes) {
      if ('delete' in change) {
        removals.push(change.path);
        continue;
      }
      const sha = (await git(['hash-object', '-w', '--stdin'], { gitDir: dir, input: change.content })).trim();
      cacheInfo.push(`${change.mode ?? '100644'} ${sha}\t${change.path}`);
    }
    if (removals.length) {
      // `--force-remove` needs a work tree; mode 0 in --index-info removes the entry in a bare repository.
      const none = '0'.repeat(input.parent?.length ?? 40);
      const lines = removals.map((p) => `0 ${none}\t${p}`);
      await git(['update-index', '-z', '--index-info'], { gitDir: dir, env, input: `${lines.join('\0')}\0` });
    }
    if (cacheInfo.length) {
      await git(['update-index', '--add', '-z', '--index-info'], { gitDir: dir, env, input: `${cacheInfo.join('\0')}\0` });
    }
    const tree = (await git(['write-tree'], { gitDir: dir, env })).trim();
    const args = commitTreeArgs(tree, input.parent ? [input.parent] : [], input.signer);
    const sigEnv: Record<string, string> = {
      ...input.signer?.env,
      GIT_AUTHOR_NAME: input.author.name, GIT_AUTHOR_EMAIL: input.author.email,
      GIT_COMMITTER_NAME: input.committer.name, GIT_COMMITTER_EMAIL: input.committer.email,
    };
    const ad = dateOf(input.author);
    const cd = dateOf(input.committer);
    if (ad) sigEnv.GIT_AUTHOR_DATE = ad;
    if (cd) sigEnv.GIT_COMMITTER_DATE = cd;
    const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
    return (await git(args, { gitDir: dir, env: sigEnv, input: message })).trim();
  } finally {
    fs.rmSync(index, { force: true });
  }
}

/** Tree id of a commit. */
export async function treeOf(dir: string, commit: string): Promise<string> {
  return (await git(['rev-parse', `${commit}^{tree}`], { gitDir: dir })).trim();
}

/**
 * Moves a ref from `old` (null: must not exist) to `next` atomically; false when someone
 * else moved it first.
 */
export async function updateRef(dir: string, ref: string, next: string, old: string | null, zero: string): Promise<boolean> {
  const r = await gitRun(['update-ref', ref, next, old ?? zero], { gitDir: dir });
  if (r.code === 0) return true;
  if (/cannot lock ref|is at .* but expected|reference already exists/.test(r.stderr)) return false;
  throw new GitError(['update-ref'], r.code, r.stderr);
}

export async function deleteRef(dir: string, ref: string, old?: string): Promise<void> {
  await git(['update-ref', '-d', ref, ...(old ? [old] : [])], { gitDir: dir });
}
