import fs from 'node:fs';
import path from 'node:path';
import { git, gitBytes, type GitOptions } from './exec';
import type { Signature } from './commit';

/** Settings every hosted bare repository carries (as initBare sets them). */
async function configureHosted(dir: string): Promise<void> {
  await git(['config', 'uploadpack.allowFilter', 'true'], { gitDir: dir });
  await git(['config', 'uploadpack.allowAnySHA1InWant', 'true'], { gitDir: dir });
  await git(['config', 'receive.advertisePushOptions', 'true'], { gitDir: dir });
  // The server supplies hooks through core.hooksPath; sample hooks from git's template are noise.
  fs.rmSync(path.join(dir, 'hooks'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'hooks'));
}

/**
 * A bare copy of `src` at `dst` with every branch and tag (local clones hard-link the
 * immutable object files), HEAD on `defaultBranch`, and no remote pointing back at `src`.
 */
export async function cloneBare(src: string, dst: string, defaultBranch: string): Promise<void> {
  if (fs.existsSync(dst)) throw new Error(`repository directory already exists: ${dst}`);
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  await git(['clone', '--bare', '--quiet', '--', src, dst]);
  await git(['remote', 'remove', 'origin'], { gitDir: dst });
  await git(['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { gitDir: dst });
  await configureHosted(dst);
}

/**
 * Copies the tree of `rev` in `src` (only the tree's objects, no history) into `dst` and
 * commits it there as a new root commit; returns the commit id. Refs are not touched.
 */
export async function copyTreeAsRoot(src: string, dst: string, rev: string, input: { message: string; author: Signature }): Promise<string> {
  const from: GitOptions = { gitDir: src };
  const tree = (await git(['rev-parse', '--verify', '--end-of-options', `${rev}^{tree}`], from)).trim();
  const objects = await git(['rev-list', '--objects', tree], from);
  const pack = await gitBytes(['pack-objects', '--stdout', '-q'], { ...from, input: objects });
  await git(['index-pack', '--stdin'], { gitDir: dst, input: pack });
  const { name, email } = input.author;
  const env = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
  const message = input.message.endsWith('\n') ? input.message : `${input.message}\n`;
  return (await git(['commit-tree', tree, '-F', '-'], { gitDir: dst, env, input: message })).trim();
}
