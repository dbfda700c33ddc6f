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
