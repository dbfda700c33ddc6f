import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { streamRawDiff } from '../../git/archive';
import { fileAt } from '../../git/blob';
import { resolveCommit } from '../../git/log';
import { readCapped } from '../../git/stream';
import { NotFoundError } from '../../lib/errors';
import { html } from '../../lib/html';
import { compareCommits, getCommit, listCommits, type CommitList, type CommitsWithUsers } from '../repo/commits';
import { getContents, type ContentItem } from '../repo/contents';
import { dirOfRepo, type RefCommit } from '../repo/contents-paths';
import { renderMarkup } from '../markdown';
import type { RepoAccess } from '../repo/repos';
import { refSegment, resolveLegacyRef, resolveTypedRef, type WebRefKind, type WebTarget } from './refs';

// What the code pages of a repository show: a directory or a file at a ref, the home page (the
// default branch's root with its README), a commit with its diff, a page of history, and a
// comparison. Rendering is the web routes' business; this reads git and the database.

export type Readme = { name: string; html: string };
export type TreePage = { kind: 'tree'; target: WebTarget; entries: ContentItem[]; readme: Readme | null };
export type FilePage = {
  kind: 'file'; target: WebTarget; item: ContentItem;
  /** The text of a small UTF-8 file; null for binaries and large files (linked raw instead). */
  text: string | null;
  /** Markdown files rendered, as Gitea shows them. */
  rendered: string | null;
  image: boolean;
};

const README = /^readme(\.(md|markdown|mdown|mkd|txt))?$/i;
const MARKDOWN = /\.(md|markdown|mdown|mkd|livemd)$/i;
const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico)$/i;

/** The ref argument getContents resolves to exactly this ref, whatever other refs are named. */
const refArg = (ref: RefCommit) => (ref.kind === 'branch' ? `refs/heads/${ref.name}` : ref.kind === 'tag' ? `refs/tags/${ref.name}` : ref.commit);

async function renderFile(db: DB, config: Config, access: RepoAccess, viewer: User | null, target: WebTarget, path: string, text: string) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const context = `${access.owner.name}/${access.repo.name}/src/${refSegment(target.ref)}${dir ? `/${dir}` : ''}`;
  return renderMarkup(db, config, viewer, { text, mode: 'file', context, filePath: path, wiki: false });
}

async function readmeOf(db: DB, config: Config, access: RepoAccess, viewer: User | null, target: WebTarget, entries: ContentItem[]): Promise<Readme | null> {
  const found = entries.filter((e) => e.type === 'file' && README.test(e.entry.name))
    .sort((a, b) => Number(MARKDOWN.test(b.entry.name)) - Number(MARKDOWN.test(a.entry.name)))[0];
  if (!found || found.entry.size > config.api.default_max_blob_size) return null;
  const bytes = await fileAt(dirOfRepo(config, access), target.ref.commit, found.entry.path);
  if (!bytes) return null;
  const text = bytes.toString('utf8');
  const rendered = MARKDOWN.test(found.entry.name)
    ? await renderFile(db, config, access, viewer, target, found.entry.path, text)
    : html`<pre>${text}</pre>`.value;
  return { name: found.entry.name, html: rendered };
}

async function pageAt(db: DB, config: Config, access: RepoAccess, viewer: User | null, target: WebTarget): Promise<TreePage | FilePage> {
  const view = await getContents(config, access, target.path, refArg(target.ref));
  if ('empty' in view) throw new NotFoundError();
  if ('dir' in view) {
    const entries = [...view.dir].sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || (a.entry.name < b.entry.name ? -1 : 1));
    return { kind: 'tree', target, entries, readme: await readmeOf(db, config, access, viewer, target, entries) };
  }
  const item = view.file;
  const bytes = item.content ?? null;
  const isText = !!bytes && !bytes.subarray(0, 8000).includes(0);
  const text = isText ? bytes.toString('utf8') : null;
  const rendered = text !== null && MARKDOWN.test(item.entry.name)
    ? await renderFile(db, config, access, viewer, target, item.entry.path, text) : null;
  return { kind: 'file', target, item, text, rendered, image: IMAGE.test(item.entry.name) };
}

/** `src/{kind}/{ref}/{path}`: a directory listing or a file. */
export async function srcPage(db: DB, config: Config, access: RepoAccess, viewer: User | null, kind: WebRefKind, rest: string) {
  if (access.repo.is_empty) throw new NotFoundError();
  return pageAt(db, config, access, viewer, await resolveTypedRef(config, access, kind, rest));
}

/** The home page: the default branch's root and README; `empty` before the first push. */
export async function homePage(db: DB, config: Config, access: RepoAccess, viewer: User | null): Promise<TreePage | { kind: 'empty' }> {
  const dir = dirOfRepo(config, access);
  const branch = access.repo.default_branch;
  const commit = access.repo.is_empty ? null : await resolveCommit(dir, `refs/heads/${branch}`);
  if (!commit) return { kind: 'empty' };
  const target: WebTarget = { ref: { input: branch, kind: 'branch', name: branch, commit }, path: '' };
  return pageAt(db, config, access, viewer, target) as Promise<TreePage>;
}

/** Gitea's older `src/{ref}/{path}` redirects to the typed form: the `{kind}/{ref}/{path}` to go to. */
export async function legacySrcTarget(config: Config, access: RepoAccess, rest: string): Promise<string> {
  const target = await resolveLegacyRef(config, access, rest);
  return `${refSegment(target.ref)}${target.path ? `/${target.path}` : ''}`;
}

const MAX_DIFF = 512 * 1024;

/** A diff's text, cut at MAX_DIFF bytes (at a whole line) so a huge commit cannot fill the page or memory. */
const diffText = (dir: string, commit: string, parent: string | null) => readCapped(streamRawDiff(dir, 'diff', commit, parent), MAX_DIFF, 'diff');

export type CommitPage = CommitsWithUsers & { diff: { text: string; truncated: boolean } };

/** `commit/{sha}`: the commit, its files and its diff against the first parent. */
export async function commitPage(db: DB, config: Config, access: RepoAccess, sha: string): Promise<CommitPage> {
  if (access.repo.is_empty) throw new NotFoundError();
  const found = await getCommit(db, config, access, sha, { files: true, stat: true });
  const c = found.commits[0]!;
  return { ...found, diff: await diffText(dirOfRepo(config, access), c.sha, c.parents[0] ?? null) };
}

export const COMMITS_PAGE_SIZE = 30;

/** `commits/{kind}/{ref}[/{path}]`: one page of the history of a ref, or of a path in it. */
export async function commitsPage(db: DB, config: Config, access: RepoAccess, kind: WebRefKind, rest: string, page: number): Promise<{ target: WebTarget; list: CommitList }> {
  if (access.repo.is_empty) throw new NotFoundError();
  const target = await resolveTypedRef(config, access, kind, rest);
  const list = await listCommits(db, config, access, { sha: target.ref.commit, path: target.path || undefined, page, limit: COMMITS_PAGE_SIZE, files: false, stat: false });
  return { target, list };
}

/** `compare/{base}...{head}`: the commits on head that base lacks, and the diff between them. */
export async function comparePage(db: DB, config: Config, access: RepoAccess, basehead: string): Promise<CommitsWithUsers & { diff: { text: string; truncated: boolean } }> {
  if (access.repo.is_empty) throw new NotFoundError();
  const found = await compareCommits(db, config, access, basehead, { files: false, stat: false });
  const dir = dirOfRepo(config, access);
  // From the oldest new commit's parent to the head: what head adds, as Gitea's base...head.
  const oldest = found.commits[found.commits.length - 1];
  const diff = oldest ? await diffText(dir, found.commits[0]!.sha, oldest.parents[0] ?? null) : { text: '', truncated: false };
  return { ...found, diff };
}
