import type { Config } from '../../config/schema';
import type { User } from '../../db/schema';
import { blobsBytes } from '../../git/blob';
import { lastCommitOf } from '../../git/last-commit';
import { readRefTips, type RefTips } from '../../git/ref-tips';
import { NotFoundError } from '../../lib/errors';
import { escapeHtml } from '../../lib/html';
import { cachedHighlight } from '../highlight';
import { renderStoredMarkup } from '../markdown';
import { readContentsAt, withLfs, type ContentItem } from '../repo/contents';
import { dirOfRepo } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';
import { highlightedWithin, plainLines } from './highlight-wait';
import { aboutOf, commitSummaries, type About, type CommitSummary } from './repo-about';
import { refSegment, resolveLegacyRef, resolveTypedRef, type WebRefKind, type WebTarget, type WebTargetWithRefs } from './refs';
import type { Hearth } from '../../hearth';

// What the code pages of a repository show: a directory (entries with their last commits and
// the README) or a file (highlighted lines, a rendered markdown file, an image, or a link for a
// binary or large one) at a ref, and the home page: the default branch's root with the about
// box. Rendering is the web routes' business; this reads git and the database, caching by
// blob and commit ids what they name for ever.

export type Readme = { name: string; path: string; html: string };
export type TreePage = {
  kind: 'tree'; target: WebTarget; tips: RefTips; entries: ContentItem[];
  /** Summaries of the last commits of the entries, and of the directory itself. */
  commits: Map<string, CommitSummary>; latest: CommitSummary | null; readme: Readme | null;
};
export type FileDisplay = 'text' | 'markdown' | 'image' | 'binary' | 'large' | 'lfs';
export type FilePage = {
  kind: 'file'; target: WebTarget; tips: RefTips; item: ContentItem; latest: CommitSummary | null;
  display: FileDisplay;
  /** Highlighted lines (display 'text', or 'markdown' shown as source). */
  lines: string[] | null;
  /** The rendered markdown (display 'markdown'). */
  rendered: string | null;
};
export type HomePage = (TreePage & { about: About }) | { kind: 'empty'; tips: RefTips };

const README = /^readme(\.(md|markdown|mdown|mkd|txt))?$/i;
export const MARKDOWN = /\.(md|markdown|mdown|mkd|livemd)$/i;
const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|avif)$/i;
/** Files shown in the page up to this size; larger ones are linked (Gitea's MaxDisplayFileSize is larger, its pages heavier). */
export const DISPLAY_MAX = 1024 * 1024;

const isText = (b: Buffer) => !b.subarray(0, 8000).includes(0);

/** Rendered markdown of a blob, kept by its id (and the context links resolve in). */
async function renderBlob(h: Hearth, access: RepoAccess, viewer: User | null, target: WebTarget, path: string, sha: string, text: string) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const context = `${access.owner.name}/${access.repo.name}/src/${refSegment(target.ref)}${dir ? `/${dir}` : ''}`;
  return renderStoredMarkup(h, viewer, { kind: `blob:${sha}`, id: 0, updatedUnix: 0 }, { text, mode: 'file', context, filePath: path, wiki: false });
}

async function readmeOf(h: Hearth, access: RepoAccess, viewer: User | null, target: WebTarget, entries: ContentItem[]): Promise<Readme | null> {
  const found = entries.filter((e) => e.type === 'file' && README.test(e.entry.name))
    .sort((a, b) => Number(MARKDOWN.test(b.entry.name)) - Number(MARKDOWN.test(a.entry.name)))[0];
  if (!found || found.entry.size > DISPLAY_MAX) return null;
  const bytes = (await blobsBytes(dirOfRepo(h.config, access), [found.entry.sha])).get(found.entry.sha);
  if (!bytes || !isText(bytes)) return null;
  const { path, name, sha } = found.entry;
  const text = bytes.toString('utf8');
  const html = MARKDOWN.test(name) ? await renderBlob(h, access, viewer, target, path, sha, text) : `<pre>${escapeHtml(text)}</pre>`;
  return { name, path, html };
}

async function treeAt(h: Hearth, access: RepoAccess, viewer: User | null, t: WebTargetWithRefs, items: ContentItem[]): Promise<TreePage> {
  const dir = dirOfRepo(h.config, access);
  const entries = [...items].sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || (a.entry.name < b.entry.name ? -1 : 1));
  // The directory's own last commit: the ref's commit for the root, else the last one touching it.
  const own = t.path ? (await lastCommitOf(dir, t.ref.commit, t.path))?.sha : t.ref.commit;
  const shas = entries.flatMap((e) => (e.last ? [e.last.sha] : []));
  const [commits, readme] = await Promise.all([
    commitSummaries(dir, own ? [...shas, own] : shas),
    readmeOf(h, access, viewer, t, entries),
  ]);
  return { kind: 'tree', target: t, tips: t.tips, entries, commits, latest: own ? commits.get(own) ?? null : null, readme };
}

async function textLines(dir: string, item: ContentItem): Promise<string[] | null> {
  const { sha, name } = item.entry;
  const hit = cachedHighlight(sha, name);
  if (hit) return hit;
  const bytes = (await blobsBytes(dir, [sha])).get(sha);
  if (!bytes || !isText(bytes)) return null;
  const text = bytes.toString('utf8');
  return (await highlightedWithin(sha, name, text)) ?? plainLines(text);
}

async function fileAt(h: Hearth, access: RepoAccess, viewer: User | null, t: WebTargetWithRefs, item: ContentItem, source: boolean): Promise<FilePage> {
  const dir = dirOfRepo(h.config, access);
  const latest = item.last ? (await commitSummaries(dir, [item.last.sha])).get(item.last.sha) ?? null : null;
  const page: FilePage = { kind: 'file', target: t, tips: t.tips, item, latest, display: 'binary', lines: null, rendered: null };
  await withLfs(h, access, [item]);
  if (item.lfs) return { ...page, display: 'lfs' };
  if (IMAGE.test(item.entry.name)) return { ...page, display: 'image' };
  if (item.type !== 'file' || item.entry.size > DISPLAY_MAX) return { ...page, display: item.type === 'file' ? 'large' : 'binary' };
  if (MARKDOWN.test(item.entry.name) && !source) {
    const bytes = (await blobsBytes(dir, [item.entry.sha])).get(item.entry.sha);
    if (bytes && isText(bytes)) {
      const rendered = await renderBlob(h, access, viewer, t, item.entry.path, item.entry.sha, bytes.toString('utf8'));
      return { ...page, display: 'markdown', rendered };
    }
  }
  const lines = await textLines(dir, item);
  return lines ? { ...page, display: MARKDOWN.test(item.entry.name) ? 'markdown' : 'text', lines } : page;
}

async function pageAt(h: Hearth, access: RepoAccess, viewer: User | null, t: WebTargetWithRefs, source: boolean): Promise<TreePage | FilePage> {
  const view = await readContentsAt(h.config, access, t.path, t.ref, false);
  if ('dir' in view) return treeAt(h, access, viewer, t, view.dir);
  return fileAt(h, access, viewer, t, view.file, source);
}

/** `src/{kind}/{ref}/{path}`: a directory listing or a file (`source`: markdown as text). */
export async function srcPage(h: Hearth, access: RepoAccess, viewer: User | null, kind: WebRefKind, rest: string, source = false) {
  if (access.repo.is_empty) throw new NotFoundError();
  return pageAt(h, access, viewer, await resolveTypedRef(h.config, access, kind, rest), source);
}

/** The home page: the default branch's root, README and about box; `empty` before the first push. */
export async function homePage(h: Hearth, access: RepoAccess, viewer: User | null, readsReleases: boolean): Promise<HomePage> {
  const dir = dirOfRepo(h.config, access);
  const branch = access.repo.default_branch;
  const tips = await readRefTips(dir);
  const commit = access.repo.is_empty ? undefined : tips.branches.get(branch);
  if (!commit) return { kind: 'empty', tips };
  const target: WebTargetWithRefs = { ref: { input: branch, kind: 'branch', name: branch, commit }, path: '', tips };
  const [tree, about] = await Promise.all([
    pageAt(h, access, viewer, target, false) as Promise<TreePage>,
    aboutOf(h.db, access, dir, commit, readsReleases),
  ]);
  return { ...tree, about };
}

/** Gitea's older `src/{ref}/{path}` redirects to the typed form: the `{kind}/{ref}/{path}` to go to. */
export async function legacySrcTarget(config: Config, access: RepoAccess, rest: string): Promise<string> {
  const target = await resolveLegacyRef(config, access, rest);
  return `${refSegment(target.ref)}${target.path ? `/${target.path}` : ''}`;
}
