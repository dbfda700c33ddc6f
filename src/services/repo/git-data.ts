import type { Config } from '../../config/schema';
import { readCommits, resolveCommit, type DiffWanted } from '../../git/log';
import { readNote } from '../../git/notes';
import {
  listAllRefs, listTree, objectInfo, readAnnotatedTag, readObject, resolveTree,
  type AnnotatedTagObject, type RefEntry, type TreeEntry,
} from '../../git/objects';
import { BadRequestError, InvalidError, NotFoundError } from '../../lib/errors';
import { isValidRefPattern, repoDirOf, withUsers, type CommitsWithUsers } from './commits';
import type { RepoAccess } from './repos';
import { verifyCommits, type Verification } from '../signing/verify-commit';
import type { Hearth } from '../../hearth';

const OBJECT_ID = /^[0-9a-f]{4,64}$/i;

export type BlobView = { sha: string; size: number; /** null when over api.default_max_blob_size */ content: Buffer | null };

/** A blob by id; Gitea answers a missing or malformed id with 400. */
export async function getBlob(config: Config, access: RepoAccess, sha: string): Promise<BlobView> {
  const dir = repoDirOf(config, access);
  const info = OBJECT_ID.test(sha) ? await objectInfo(dir, sha) : null;
  // Gitea's GetBlob reads whatever object the id names (a commit's raw text too), not only blobs.
  if (!info) throw new BadRequestError(`object does not exist [id: ${sha}, rel_path: ]`);
  const small = info.size <= config.api.default_max_blob_size;
  return { sha: info.sha, size: info.size, content: small ? await readObject(dir, info.sha, info.type) : null };
}

export type TreeQuery = { recursive: boolean; page: number; perPage: number };
export type TreeView = { sha: string; entries: TreeEntry[]; total: number; page: number; truncated: boolean };

/** One page of a tree's entries; `sha` may be a tree, commit, tag, branch or `rev:path`. */
export async function getTree(config: Config, access: RepoAccess, sha: string, q: TreeQuery): Promise<TreeView> {
  const dir = repoDirOf(config, access);
  const tree = await resolveTree(dir, sha);
  if (!tree) throw new BadRequestError(`sha not found [${sha}]`);
  const all = await listTree(dir, tree, q.recursive);
  const max = config.api.default_git_trees_per_page;
  const perPage = q.perPage <= 0 || q.perPage > max ? max : q.perPage;
  const page = Math.max(1, q.page);
  const start = perPage * (page - 1);
  const end = Math.min(start + perPage, all.length);
  const entries = start < all.length ? all.slice(start, end) : [];
  return { sha: tree, entries, total: all.length, page, truncated: start < all.length && end < all.length };
}

/** Refs whose full name starts with `refs/<filter>` (string prefix, as Gitea); 404 when none. */
export async function listRefs(config: Config, access: RepoAccess, filter: string): Promise<RefEntry[]> {
  const prefix = filter ? `refs/${filter}` : '';
  const refs = (await listAllRefs(repoDirOf(config, access))).filter((r) => r.name.startsWith(prefix));
  if (!refs.length) throw new NotFoundError();
  return refs;
}

export type AnnotatedTagView = AnnotatedTagObject & { commit: string; verification: Verification };

/**
 * An annotated tag object by id, with the commit it finally points at; 400 for anything else.
 * Its `verification` is the commit's, as Gitea's ToAnnotatedTag answers it (not the tag's own
 * signature).
 */
export async function getAnnotatedTag(h: Hearth, access: RepoAccess, sha: string): Promise<AnnotatedTagView> {
  const dir = repoDirOf(h.config, access);
  const info = OBJECT_ID.test(sha) ? await objectInfo(dir, sha) : null;
  if (!info || info.type !== 'tag') throw new BadRequestError(`object does not exist [id: ${sha}, rel_path: ]`);
  const tag = await readAnnotatedTag(dir, info.sha);
  const commit = await resolveCommit(dir, info.sha);
  if (!tag || !commit) throw new BadRequestError(`tag ${sha} does not point at a commit`);
  const verification = (await verifyCommits(h, dir, [commit])).get(commit)!;
  return { ...tag, commit, verification };
}

export type NoteView = CommitsWithUsers & { message: string };

/** The git note of a commit, with the notes commit that last wrote it (Gitea's Note.commit). */
export async function getNote(h: Hearth, access: RepoAccess, sha: string, want: DiffWanted): Promise<NoteView> {
  if (!isValidRefPattern(sha)) throw new InvalidError(`no valid ref or sha: ${sha}`);
  const dir = repoDirOf(h.config, access);
  const id = await resolveCommit(dir, sha);
  if (!id) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`);
  const note = await readNote(dir, id);
  if (!note) throw new NotFoundError(sha);
  const commits = await readCommits(dir, [note.commit], want);
  return { ...(await withUsers(h.db, commits)), message: note.message.toString('utf8') };
}
