import type { Config } from '../../config/schema';
import { blobsBytes } from '../../git/blob';
import { lastCommitOf, lastCommitsInListing, lastCommitsOfPaths, type LastCommit } from '../../git/last-commit';
import { entriesAt, entryAt, listDirectory, submoduleUrls, type Entry } from '../../git/tree';
import { commitInfos } from '../../git/refs';
import { NotFoundError } from '../../lib/errors';
import { checkReadPath, checkTreePath, dirOfRepo, resolveRefCommit, type RefCommit } from './contents-paths';
import type { RepoAccess } from './repos';
import { parsePointer, POINTER_MAX_SIZE, type Pointer } from '../lfs/pointer';
import { hasLfsObjects, storedOids } from '../lfs/objects';
import type { Hearth } from '../../hearth';

// Reading entries of a tree for the contents API: files, directories, symlinks, submodules.

export type ContentType = 'file' | 'dir' | 'symlink' | 'submodule';

export type ContentItem = {
  entry: Entry;
  type: ContentType;
  /** The file bytes (sent base64); null when over api.default_max_blob_size; undefined when not asked for. */
  content?: Buffer | null;
  target?: string;
  submoduleUrl?: string | null;
  last?: LastCommit | null;
  /** Set by withLfs: the file is the pointer of an LFS object the repository holds. */
  lfs?: Pointer;
};

export type ContentsView = { ref: RefCommit; file: ContentItem } | { ref: RefCommit; dir: ContentItem[] };

export function typeOfEntry(e: Entry): ContentType {
  if (e.kind === 'tree') return 'dir';
  if (e.kind === 'commit') return 'submodule';
  return e.mode === '120000' ? 'symlink' : 'file';
}

type Fill = { content: boolean; maxBlob: number };

// Last commits of a listing never change for a given commit: keep the recent ones, so a
// directory whose history is long to walk is walked once per commit, not once per request.
const LISTING_CACHE_MAX = 64;
const listingCache = new Map<string, Map<string, LastCommit>>();

async function listingLastCommits(dir: string, commit: string, scope: string, paths: Promise<string[]>): Promise<Map<string, LastCommit>> {
  const key = `${dir}\0${commit}\0${scope}`;
  const hit = listingCache.get(key);
  if (hit) {
    listingCache.delete(key);
    listingCache.set(key, hit);
    return hit;
  }
  const found = await lastCommitsInListing(dir, commit, scope, paths);
  listingCache.set(key, found);
  if (listingCache.size > LISTING_CACHE_MAX) listingCache.delete(listingCache.keys().next().value!);
  return found;
}

/** Adds content, symlink targets and submodule URLs to entries, reading blobs in one batch. */
async function describe(dir: string, commit: string, entries: Entry[], fill: Fill): Promise<ContentItem[]> {
  const items = entries.map((entry): ContentItem => ({ entry, type: typeOfEntry(entry) }));
  const wantBlob = (i: ContentItem) => i.type === 'symlink' || (fill.content && i.type === 'file' && i.entry.size <= fill.maxBlob);
  const blobs = await blobsBytes(dir, items.filter(wantBlob).map((i) => i.entry.sha));
  const modules = items.some((i) => i.type === 'submodule') ? await submoduleUrls(dir, commit) : new Map<string, string>();
  for (const i of items) {
    if (i.type === 'file' && fill.content) i.content = i.entry.size <= fill.maxBlob ? (blobs.get(i.entry.sha) ?? Buffer.alloc(0)) : null;
    if (i.type === 'symlink') i.target = (blobs.get(i.entry.sha) ?? Buffer.alloc(0)).subarray(0, 1024).toString('utf8');
    if (i.type === 'submodule') i.submoduleUrl = modules.get(i.entry.path) ?? null;
  }
  return items;
}

/**
 * Marks the files that are pointers of LFS objects the repository holds (Gitea's lfs_oid).
 * Only repositories with LFS objects have their small files read: listings elsewhere pay nothing.
 */
export async function withLfs(h: Hearth | undefined, access: RepoAccess, items: (ContentItem | null)[]): Promise<void> {
  const small = items.filter((i): i is ContentItem => i?.type === 'file' && i.entry.size <= POINTER_MAX_SIZE);
  if (!h || !small.length || !(await hasLfsObjects(h.db, access.repo.id))) return;
  const unread = small.filter((i) => !i.content).map((i) => i.entry.sha);
  const bytes = unread.length ? await blobsBytes(dirOfRepo(h.config, access), unread) : new Map<string, Buffer>();
  const pointers = new Map<ContentItem, Pointer>();
  for (const i of small) {
    const p = parsePointer(i.content ?? bytes.get(i.entry.sha) ?? Buffer.alloc(0));
    if (p) pointers.set(i, p);
  }
  const stored = await storedOids(h, access.repo.id, [...pointers.values()].map((p) => p.oid));
  for (const [i, p] of pointers) if (stored.has(p.oid)) i.lfs = p;
}

/** getContents with LFS objects marked (the API's answers). */
export async function getContentsWithLfs(h: Hearth, access: RepoAccess, filepath: string, ref?: string, fileContent = true) {
  const view = await getContents(h.config, access, filepath, ref, fileContent);
  if ('file' in view) await withLfs(h, access, [view.file]);
  if ('dir' in view) await withLfs(h, access, view.dir);
  return view;
}

/**
 * GET contents: a file (with content) or a directory listing (without), each entry with the
 * last commit that touched it; the root of an empty repository is an empty listing.
 */
export async function getContents(
  config: Config, access: RepoAccess, filepath: string, ref?: string, fileContent = true,
): Promise<ContentsView | { empty: true }> {
  const path = checkReadPath(filepath);
  if (path === null) throw new NotFoundError(`path contains a malformed path component [path: ${filepath}]`);
  if (access.repo.is_empty && !path && !ref) return { empty: true };
  const rc = await resolveRefCommit(dirOfRepo(config, access), access.repo, ref);
  return readContentsAt(config, access, path, rc, fileContent);
}

/** As getContents, at a ref already resolved (pages resolve it with the rest of their URL). */
export async function readContentsAt(config: Config, access: RepoAccess, path: string, rc: RefCommit, fileContent = true): Promise<ContentsView> {
  const dir = dirOfRepo(config, access);
  const entry = await entryAt(dir, rc.commit, path);
  if (!entry) throw new NotFoundError(`object does not exist [id: , rel_path: ${path}]`);
  const maxBlob = config.api.default_max_blob_size;
  if (entry.kind !== 'tree') {
    const [file] = await describe(dir, rc.commit, [entry], { content: fileContent, maxBlob });
    file!.last = await lastCommitOf(dir, rc.commit, path);
    return { ref: rc, file: file! };
  }
  // The history walk runs while the tree is listed.
  const listing = listDirectory(dir, entry.sha, path);
  const lastP = listingLastCommits(dir, rc.commit, path, listing.then((es) => es.map((e) => e.path)));
  const [entries, last] = await Promise.all([listing, lastP]);
  const items = await describe(dir, rc.commit, entries, { content: false, maxBlob });
  for (const i of items) i.last = last.get(i.entry.path) ?? null;
  return { ref: rc, dir: items };
}

/**
 * Several paths at one commit (file-contents, and the answer to writes): null for paths that
 * do not exist or are invalid; stops after api.default_paging_num entries or once the content
 * would pass api.default_max_response_size, as Gitea's GetContentsListFromTreePaths.
 */
export async function contentsAt(config: Config, dir: string, rc: RefCommit, paths: string[]): Promise<(ContentItem | null)[]> {
  const valid = paths.slice(0, config.api.default_paging_num).map((p) => checkTreePath(p));
  const found = await entriesAt(dir, rc.commit, valid.filter((p): p is string => p !== null));
  const items = await describe(dir, rc.commit, [...found.values()], { content: true, maxBlob: config.api.default_max_blob_size });
  const byPath = new Map(items.map((i) => [i.entry.path, i]));
  const last = await lastCommitsOfPaths(dir, rc.commit, [...byPath.keys()]);
  const out: (ContentItem | null)[] = [];
  let size = 0;
  for (const p of valid) {
    const item = p === null ? null : (byPath.get(p) ?? null);
    if (item) item.last = last.get(item.entry.path) ?? null;
    size += item?.content ? Math.ceil(item.content.length / 3) * 4 : 0;
    if (size > config.api.default_max_response_size) break;
    out.push(item);
  }
  return out;
}

export async function getFileContents(config: Config, access: RepoAccess, paths: string[], ref?: string, h?: Hearth) {
  const dir = dirOfRepo(config, access);
  const rc = await resolveRefCommit(dir, access.repo, ref);
  const items = await contentsAt(config, dir, rc, paths);
  await withLfs(h, access, items);
  return { ref: rc, items };
}

/** Full messages of the last commits of a listing (contents-ext with includes=commit_message). */
export async function lastCommitMessages(config: Config, access: RepoAccess, items: ContentItem[]): Promise<Map<string, string>> {
  const shas = items.map((i) => i.last?.sha).filter((s): s is string => !!s);
  const infos = await commitInfos(dirOfRepo(config, access), shas);
  return new Map([...infos].map(([sha, info]) => [sha, info.message]));
}
