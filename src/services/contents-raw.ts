import type { Config } from '../config/schema';
import { blobStream, fileAt } from '../git/blob';
import { lastCommitOf } from '../git/last-commit';
import type { GitStream } from '../git/stream';
import { entryAt } from '../git/tree';
import { definitionFor, parseEditorconfig, type EditorconfigDefinition } from '../lib/editorconfig';
import { NotFoundError } from '../lib/errors';
import { typeOfEntry, type ContentType } from './contents';
import { checkReadPath, checkTreePath, dirOfRepo, resolveRawTarget, resolveRefCommit } from './contents-paths';
import type { RepoAccess } from './repos';

// Raw file downloads and the EditorConfig lookup.

export type RawFile = {
  name: string;
  sha: string;
  size: number;
  type: ContentType;
  /** Committer date of the last commit touching the file (Last-Modified). */
  lastModified: Date | null;
  open: () => GitStream;
};

/** `raw/{filepath}` and `media/{filepath}`: a blob (file or symlink) of the inferred ref; 404 otherwise. */
export async function getRawFile(config: Config, access: RepoAccess, filepath: string, ref?: string): Promise<RawFile> {
  if (access.repo.is_empty) throw new NotFoundError();
  if (checkReadPath(filepath) === null) throw new NotFoundError();
  const dir = dirOfRepo(config, access);
  const target = await resolveRawTarget(dir, access.repo, filepath, ref);
  const path = checkTreePath(target.path);
  const entry = path ? await entryAt(dir, target.ref.commit, path) : null;
  if (!entry || entry.kind !== 'blob') throw new NotFoundError();
  const last = await lastCommitOf(dir, target.ref.commit, entry.path);
  return {
    name: entry.name, sha: entry.sha, size: entry.size, type: typeOfEntry(entry),
    lastModified: last ? new Date(last.committerDate) : null,
    open: () => blobStream(dir, entry.sha),
  };
}

/**
 * The EditorConfig properties that apply to `filepath`, from the `.editorconfig` at the root
 * of the ref (default branch); 404 without one. As Gitea, a file no section selects gets `{}`.
 */
export async function getEditorconfig(config: Config, access: RepoAccess, filepath: string, ref?: string): Promise<EditorconfigDefinition> {
  const path = checkReadPath(filepath);
  if (path === null || access.repo.is_empty) throw new NotFoundError();
  const dir = dirOfRepo(config, access);
  const rc = await resolveRefCommit(dir, access.repo, ref);
  const text = await fileAt(dir, rc.commit, '.editorconfig');
  if (!text) throw new NotFoundError('.editorconfig does not exist');
  return definitionFor(parseEditorconfig(text.toString('utf8')), path);
}
