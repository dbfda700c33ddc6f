import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, gitRun } from './exec';
import { commitTreeArgs, type GitSigner, type Signature } from './commit';

export type ApplyResult = { ok: true; tree: string } | { ok: false; error: string };

/**
 * Applies a unified diff to the tree of `parent` in a temporary index (no work tree, as
 * Gitea's `git apply --cached`) and writes the resulting tree. git itself refuses paths that
 * leave the tree or enter `.git`.
 */
export async function applyPatchToTree(dir: string, parent: string, patch: string): Promise<ApplyResult> {
  const index = path.join(os.tmpdir(), `hearth-apply-${crypto.randomUUID()}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git(['read-tree', parent], { gitDir: dir, env });
    const r = await gitRun(
      ['apply', '--cached', '--recount', '--ignore-whitespace', '--whitespace=fix', '--binary', '-'],
      { gitDir: dir, env, input: patch },
    );
    if (r.code !== 0) return { ok: false, error: r.stderr.trim().split('\n')[0] ?? 'patch failed' };
    return { ok: true, tree: (await git(['write-tree'], { gitDir: dir, env })).trim() };
  } finally {
    fs.rmSync(index, { force: true });
  }
}

const dateOf = (s: Signature) => (s.date ? `${Math.floor(s.date.getTime() / 1000)} +0000` : undefined);

/** `git commit-tree` of an already written tree; refs are not touched. */
export async function commitTree(
  dir: string, input: { tree: string; parent: string | null; message: string; author: Signature; committer: Signature; signer?: GitSigner | null },
): Promise<string> {
  const env: Record<string, string> = {
    ...input.signer?.env,
    GIT_AUTHOR_NAME: input.author.name, GIT_AUTHOR_EMAIL: input.author.email,
    GIT_COMMITTER_NAME: input.committer.name, GIT_COMMITTER_EMAIL: input.committer.email,
  };
  const ad = dateOf(input.author);
  const cd = dateOf(input.committer);
  if (ad) env.GIT_AUTHOR_DATE = ad;
  if (cd) env.GIT_COMMITTER_DATE = cd;
  const args = commitTreeArgs(input.tree, input.parent ? [input.parent] : [], input.signer);
  const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
  return (await git(args, { gitDir: dir, env, input: message })).trim();
}
