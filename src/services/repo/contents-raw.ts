import type { Config } from '../../config/schema';
import type { Readable } from 'node:stream';
import { blobBytes, blobStream, fileAt } from '../../git/blob';
import { storedObject } from '../lfs/objects';
import { parsePointer, POINTER_MAX_SIZE } from '../lfs/pointer';
import { lastCommitOf } from '../../git/last-commit';
import type { GitStream } from '../../git/stream';
import { entryAt } from '../../git/tree';
import { definitionFor, parseEditorconfig, type EditorconfigDefinition } from '../../lib/editorconfig';
import { NotFoundError } from '../../lib/errors';
import { typeOfEntry, type ContentType } from './contents';
import { checkReadPath, checkTreePath, dirOfRepo, resolveRawTarget, resolveRefCommit, type RefCommit } from './contents-paths';
import type { RepoAccess } from './repos';
import type { Hearth } from '../../hearth';

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
 * `media/{filepath}`: as raw, but a file holding the pointer of an LFS object the repository
 * holds is answered with the object's bytes (Gitea's ServeBlobOrLFS; ETag: the oid).
 */
export async function getMediaFile(h: Hearth, access: RepoAccess, filepath: string, ref?: string): Promise<RawFile> {
  return lfsOrBlob(h, access, await getRawFile(h.config, access, filepath, ref));
}

/** The web's media route: mediaFileAt a resolved ref. */
export async function mediaFileAt(h: Hearth, access: RepoAccess, ref: RefCommit, filepath: string): Promise<RawFile> {
  return lfsOrBlob(h, access, await rawFileAt(h.config, access, ref, filepath));
}

async function lfsOrBlob(h: Hearth, access: RepoAccess, file: RawFile): Promise<RawFile> {
  if (file.type !== 'file' || file.size > POINTER_MAX_SIZE || !h.config.server.lfs_start_server) return file;
  const pointer = parsePointer(await blobBytes(dirOfRepo(h.config, access), file.sha));
  const obj = pointer ? await storedObject(h, access.repo.id, pointer.oid) : null;
  if (!obj) return file;
  return { ...file, sha: obj.oid, size: obj.size, open: () => fileStream(obj.open()) };
}

/** A store file in the shape of a git stream, for sendBlob. */
function fileStream(stream: Readable): GitStream {
  const done = new Promise<{ code: number; stderr: string }>((resolve) => {
    stream.on('error', (err) => resolve({ code: 1, stderr: String(err) }));
    stream.on('close', () => resolve({ code: 0, stderr: '' }));
  });
  return { stdout: stream, kill: () => stream.destroy(), done };
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
