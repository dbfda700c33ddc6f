import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git } from './exec';
import { streamGit, type GitStream } from './stream';

export type ArchiveFormat = 'zip' | 'tar.gz';

/**
 * `git archive` of a commit, streamed: the caller pipes it to the client, so nothing is
 * buffered whatever the size of the tree. `commit` must be a resolved object id.
 */
export function streamArchive(dir: string, format: ArchiveFormat, prefix: string, commit: string): GitStream {
  return streamGit(dir, ['archive', `--format=${format}`, `--prefix=${prefix}`, commit]);
}

export type RawDiffType = 'diff' | 'patch';

/**
 * A commit's diff or mail-formatted patch against its first parent (the whole tree for a root
 * commit), as Gitea's GetRawDiff renders them. Both ids must be resolved object ids.
 */
export function streamRawDiff(dir: string, type: RawDiffType, commit: string, parent: string | null): GitStream {
  if (type === 'diff') {
    return streamGit(dir, parent ? ['diff', '-M', parent, commit, '--'] : ['show', commit, '--']);
  }
  return streamGit(dir, parent
    ? ['format-patch', '--no-signature', '--stdout', `${commit}...${parent}`, '--']
    : ['format-patch', '--no-signature', '--stdout', '--root', commit, '--']);
}

/**
 * A git bundle of everything reachable from `commit`, streamed, as Gitea's CreateBundle: a
 * throw-away bare repository borrowing the objects names the commit as branch `bundle` and HEAD
 * (git bundles only refs), and `git bundle create -` writes it out. The directory goes with git.
 */
export async function streamBundle(dir: string, commit: string): Promise<GitStream> {
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hearth-bundle-'));
  const env = { GIT_OBJECT_DIRECTORY: path.resolve(dir, 'objects') };
  const remove = () => fs.promises.rm(tmp, { recursive: true, force: true });
  try {
    await git(['init', '--quiet', '--bare', tmp], { env });
    await git(['update-ref', 'refs/heads/bundle', commit], { gitDir: tmp, env });
    await git(['symbolic-ref', 'HEAD', 'refs/heads/bundle'], { gitDir: tmp, env });
  } catch (err) {
    await remove();
    throw err;
  }
  const s = streamGit(tmp, ['bundle', 'create', '--quiet', '-', 'bundle', 'HEAD'], env);
  return { ...s, done: s.done.finally(remove) };
}
