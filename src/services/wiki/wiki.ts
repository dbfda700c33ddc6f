import fs from 'node:fs';
import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { blobsBytes } from '../../git/blob';
import { updateRef, writeCommit, type FileChange } from '../../git/commit';
import { revParse, zeroId } from '../../git/repo';
import { entriesAt, listDirectory, type Entry } from '../../git/tree';
import { countFileCommits, fileCommits, type WikiCommit } from '../../git/wiki-log';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { withKeyLock } from '../../lib/keyed-lock';
import { emit } from '../events/bus';
import { signatures } from '../repo/contents-commit';
import type { RepoAccess } from '../repo/repos';
import { ensureWiki, wikiBranch, wikiDir } from './wiki-repo';
import { gitPathToWebPath, unescape, validateWebPath, webPathToGitPath, type WebPath } from '../../lib/wiki-path';
import { signWikiCommit } from '../signing/sign-rules';
import type { Hearth } from '../../hearth';

// Gitea's wiki API (routers/api/v1/repo/wiki.go, services/wiki): pages are the `.md` files at
// the root of the wiki repository's default branch; writes are commits made without a work
// tree, one at a time per wiki.

// Gitea's setting.Git.CommitsRangeSize: revisions per page.
const REVISIONS_PER_PAGE = 50;

type Wiki = { dir: string; branch: string; head: string };

async function openWiki(config: Config, access: RepoAccess): Promise<Wiki> {
  const dir = wikiDir(config, access.owner.name, access.repo.name);
  if (!fs.existsSync(dir)) throw new NotFoundError('wiki does not exist');
  const branch = await wikiBranch(config, dir);
  const head = await revParse(dir, `refs/heads/${branch}`);
  if (!head) throw new NotFoundError('wiki has no pages');
  return { dir, branch, head };
}

/** Gitea's findEntryForFile: the git path, else its unescaped spelling. */
async function findEntry(w: Wiki, gitPath: string): Promise<Entry | null> {
  const found = (await entriesAt(w.dir, w.head, [gitPath])).get(gitPath);
  if (found) return found;
  const plain = unescape(gitPath, true);
  if (plain === null || plain === gitPath) return null;
  return (await entriesAt(w.dir, w.head, [plain])).get(plain) ?? null;
}

/** The content (base64, "" over api.default_max_blob_size) and file of a page, or null. */
async function contentsByName(config: Config, w: Wiki, name: WebPath): Promise<{ content: string; file: string } | null> {
  const entry = await findEntry(w, webPathToGitPath(name));
  if (!entry || entry.kind !== 'blob') return null;
  if (entry.size > config.api.default_max_blob_size) return { content: '', file: entry.path };
  const blob = (await blobsBytes(w.dir, [entry.sha])).get(entry.sha) ?? Buffer.alloc(0);
  return { content: blob.toString('base64'), file: entry.path };
}

export type WikiPageMeta = { name: WebPath; last: WikiCommit | null };
export type WikiPageView = WikiPageMeta & { content: string; sidebar: string; footer: string; commitCount: number };

export async function getWikiPage(config: Config, access: RepoAccess, name: WebPath): Promise<WikiPageView> {
  const w = await openWiki(config, access);
  const page = await contentsByName(config, w, name);
  if (!page) throw new NotFoundError(`wiki page does not exist [name: ${name}]`);
  const [sidebar, footer, commitCount, last] = await Promise.all([
    contentsByName(config, w, '_Sidebar'), contentsByName(config, w, '_Footer'),
    countFileCommits(w.dir, w.head, page.file), fileCommits(w.dir, w.head, page.file),
  ]);
  return { name, last: last[0] ?? null, content: page.content, sidebar: sidebar?.content ?? '', footer: footer?.content ?? '', commitCount };
}

/** As Gitea: paged over all root entries (total: their count), non-pages skipped in the page. */
export async function listWikiPages(config: Config, access: RepoAccess, page: number, limit: number): Promise<{ total: number; pages: WikiPageMeta[] }> {
  const w = await openWiki(config, access);
  const tree = (await revParse(w.dir, `${w.head}^{tree}`))!;
  const entries = await listDirectory(w.dir, tree, '');
  const skip = (page - 1) * limit;
  const pages: WikiPageMeta[] = [];
  for (const [i, e] of entries.entries()) {
    if (i < skip || i >= skip + limit || e.kind !== 'blob' || e.mode !== '100644') continue;
    const name = gitPathToWebPath(e.name);
    if (name === null) continue;
    pages.push({ name, last: (await fileCommits(w.dir, w.head, e.path))[0] ?? null });
  }
  return { total: entries.length, pages };
}

export async function listWikiRevisions(config: Config, access: RepoAccess, name: WebPath, page: number): Promise<{ count: number; commits: WikiCommit[] }> {
  const w = await openWiki(config, access);
  const found = await contentsByName(config, w, name || 'Home');
  if (!found) throw new NotFoundError(`wiki page does not exist [name: ${name}]`);
  const [count, commits] = await Promise.all([
    countFileCommits(w.dir, w.head, found.file),
    fileCommits(w.dir, w.head, found.file, (page - 1) * REVISIONS_PER_PAGE, REVISIONS_PER_PAGE),
  ]);
  return { count, commits };
}

/** Gitea's prepareGitPath: the unescaped `{name}.md` if it exists, else the escaped git path. */
async function gitPathOf(dir: string, head: string | null, name: WebPath): Promise<{ exists: boolean; path: string }> {
  const unescaped = `${name}.md`;
  const gitPath = webPathToGitPath(name);
  if (!head) return { exists: false, path: gitPath };
  const found = await entriesAt(dir, head, [unescaped, gitPath]);
  if (found.has(unescaped)) return { exists: true, path: unescaped };
  return { exists: found.has(gitPath), path: gitPath };
}

type Change = { doer: User; message: string; build: (dir: string, head: string | null) => Promise<FileChange[]> };

/** One commit on the wiki's branch, the wiki created first if need be. */
async function commitToWiki(h: Hearth, access: RepoAccess, c: Change): Promise<void> {
  await withKeyLock(`wiki:${access.repo.id}`, async () => {
    const dir = await ensureWiki(h.config, access.owner.name, access.repo);
    const branch = await wikiBranch(h.config, dir);
    const head = await revParse(dir, `refs/heads/${branch}`);
    const changes = await c.build(dir, head);
    const { author, committer } = signatures(h.config, c.doer, {});
    const signer = await signWikiCommit(h, c.doer, dir, head);
    const commit = await writeCommit(dir, { parent: head, changes, message: c.message, author, committer, signer });
    if (!(await updateRef(dir, `refs/heads/${branch}`, commit, head, zeroId(access.repo.object_format_name)))) {
      throw new ConflictError('the wiki was updated meanwhile, try again');
    }
  });
}

export type WikiWrite = { oldName?: WebPath; name: WebPath; content: Buffer; message: string; isNew: boolean };

/** Gitea's updateWikiPage: add (refused if the page exists) or edit (renaming if the name changed). */
export async function writeWikiPage(h: Hearth, access: RepoAccess, doer: User, w: WikiWrite): Promise<void> {
  validateWebPath(w.name);
  await commitToWiki(h, access, {
    doer, message: w.message,
    build: async (dir, head) => {
      const target = await gitPathOf(dir, head, w.name);
      if (w.isNew && target.exists) throw new BadRequestError(`wiki page already exists [title: ${target.path}]`);
      const changes: FileChange[] = [];
      if (!w.isNew && w.oldName !== undefined && w.oldName !== w.name) {
        const old = await gitPathOf(dir, head, w.oldName);
        if (old.exists) changes.push({ path: old.path, delete: true });
      }
      changes.push({ path: target.path, content: w.content });
      return changes;
    },
  });
  await emit(h.db, 'wiki.page', { repo: access.repo, doer, action: w.isNew ? 'created' : 'edited', page: w.name, comment: w.message });
}

export async function deleteWikiPage(h: Hearth, access: RepoAccess, doer: User, name: WebPath): Promise<void> {
  if (!fs.existsSync(wikiDir(h.config, access.owner.name, access.repo.name))) throw new NotFoundError('wiki does not exist');
  await commitToWiki(h, access, {
    doer, message: `Delete page '${name}'`,
    build: async (dir, head) => {
      const target = await gitPathOf(dir, head, name);
      if (!target.exists) throw new NotFoundError(`wiki page does not exist [name: ${name}]`);
      return [{ path: target.path, delete: true }];
    },
  });
  await emit(h.db, 'wiki.page', { repo: access.repo, doer, action: 'deleted', page: name, comment: '' });
}

/** A page as it was at one commit of the wiki (the history's links); 404 when it was not there. */
export async function getWikiPageAt(config: Config, access: RepoAccess, name: WebPath, sha: string): Promise<{ content: string; commit: WikiCommit }> {
  const w = await openWiki(config, access);
  const at = /^[0-9a-f]{7,64}$/.test(sha) ? await revParse(w.dir, `${sha}^{commit}`) : null;
  if (!at) throw new NotFoundError('revision not found');
  const page = await contentsByName(config, { ...w, head: at }, name);
  const [commit] = page ? await fileCommits(w.dir, at, page.file, 0, 1) : [];
  if (!page || !commit) throw new NotFoundError(`wiki page does not exist [name: ${name}]`);
  return { content: page.content, commit };
}
