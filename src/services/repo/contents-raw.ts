import type { Config } from '../../config/schema';
import { blobStream, fileAt } from '../../git/blob';
import { lastCommitOf } from '../../git/last-commit';
import type { GitStream } from '../../git/stream';
import { entryAt } from '../../git/tree';
import { definitionFor, parseEditorconfig, type EditorconfigDefinition } from '../../lib/editorconfig';
import { NotFoundError } from '../../lib/errors';
import { typeOfEntry, type ContentType } from './contents';
import { checkReadPath, checkTreePath, dirOfRepo, resolveRawTarget, resolveRefCommit, type RefCommit } from './contents-paths';
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
  const target = await resolveRawTarget(dirOfRepo(config, access), access.repo, filepath, ref);
  return rawFileAt(config, access, target.ref, target.path);
}

/** The blob at `path` of a resolved ref (web raw and media routes); 404 for a directory or nothing. */
export async function rawFileAt(config: Config, access: RepoAccess, ref: RefCommit, filepath: string): Promise<RawFile> {
  const dir = dirOfRepo(config, access);
  const path = checkTreePath(filepath);
  const entry = path ? await entryAt(dir, ref.commit, path) : null;
  if (!entry || entry.kind !== 'blob') throw new NotFoundError();
  const last = await lastCommitOf(dir, ref.commit, entry.path);
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
