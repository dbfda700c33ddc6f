import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import fs from 'node:fs';
import { streamRawDiff, type RawDiffType } from '../../git/archive';
import { readCommits, resolveCommit, type LogCommit } from '../../git/log';
import { NotFoundError } from '../../lib/errors';
import { renderMarkup } from '../markdown';
import { ACCESS } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import type { Download } from '../repo/archive';
import { unitModeOf, type RepoAccess } from '../repo/repos';
import { wikiDir } from '../wiki/wiki-repo';
import { readWebDiff, type DiffOptions, type ShownDiff } from './diff-read';
import { getWikiPage, getWikiPageAt, listWikiPages, type WikiPageView } from '../wiki/wiki';
import type { Hearth } from '../../hearth';

// What the wiki pages show, through the wiki services the API uses: who may read and write it
// (as the API's mustEnableWiki and reqWikiWriter), a page rendered with its sidebar and footer,
// the page list, and one commit of the wiki with what it changed (the history's diff links).

/** None (404: off, external, or not granted), read, or write (the writers' forms; an archived repository takes none). */
export async function wikiMode(db: DB, access: RepoAccess, viewer: User | null): Promise<'none' | 'read' | 'write'> {
  const s = settingsOf(access.repo);
  if (!s.has_wiki || s.external_wiki) return 'none';
  const mode = await unitModeOf(db, access, viewer, 'repo.wiki');
  if (mode >= ACCESS.write && viewer && !access.repo.is_archived) return 'write';
  return mode >= ACCESS.read ? 'read' : 'none';
}

const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

export type RenderedWikiPage = { page: WikiPageView; source: string; html: string; sidebar: string; footer: string };

async function render(h: Hearth, viewer: User | null, access: RepoAccess, source: string): Promise<string> {
  if (!source) return '';
  const context = `${access.owner.name}/${access.repo.name}/wiki`;
  return renderMarkup(h, viewer, { text: source, mode: 'wiki', context, filePath: '', wiki: false });
}

/** The page, or at `revision` the page as it was then, rendered with the current sidebar and footer. */
export async function renderedWikiPage(
  h: Hearth, access: RepoAccess, viewer: User | null, name: string, revision = '',
): Promise<RenderedWikiPage> {
  const page = await getWikiPage(h.config, access, name);
  const source = text(revision ? (await getWikiPageAt(h.config, access, name, revision)).content : page.content);
  const [body, sidebar, footer] = await Promise.all([
    render(h, viewer, access, source), render(h, viewer, access, text(page.sidebar)), render(h, viewer, access, text(page.footer)),
  ]);
  return { page, source, html: body, sidebar, footer };
}

/** Every page of the wiki (the list page shows them all); empty when the wiki has none yet. */
export async function allWikiPages(config: Config, access: RepoAccess) {
  try {
    return (await listWikiPages(config, access, 1, 10_000)).pages;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}

/** The wiki repository's commit named by `sha` (hex only, as Gitea's route), and its first parent. */
async function wikiCommit(config: Config, access: RepoAccess, sha: string): Promise<{ dir: string; commit: string; parent: string | null }> {
  const dir = wikiDir(config, access.owner.name, access.repo.name);
  const commit = /^[0-9a-f]{7,64}$/.test(sha) && fs.existsSync(dir) ? await resolveCommit(dir, sha) : null;
  if (!commit) throw new NotFoundError('revision not found');
  return { dir, commit, parent: await resolveCommit(dir, `${commit}^1`) };
}

export type WikiCommitPage = { commit: LogCommit; diff: ShownDiff };

/** `/wiki/commit/{sha}`: a revision of the wiki and its diff against its parent (all of it for the first). */
export async function wikiCommitPage(config: Config, access: RepoAccess, sha: string, opts: DiffOptions): Promise<WikiCommitPage> {
  const { dir, commit, parent } = await wikiCommit(config, access, sha);
  const [c] = await readCommits(dir, [commit], { files: false, stat: false });
  if (!c) throw new NotFoundError('revision not found');
  return { commit: c, diff: await readWebDiff(dir, parent, commit, opts) };
}

/** `/wiki/commit/{sha}.diff|.patch`: the revision's raw diff or patch, streamed. */
export async function openWikiCommitDiff(config: Config, access: RepoAccess, sha: string, type: RawDiffType): Promise<Download> {
  const { dir, commit, parent } = await wikiCommit(config, access, sha);
  return { filename: `${commit}.${type}`, contentType: 'text/plain; charset=utf-8', commit, format: type, open: () => streamRawDiff(dir, type, commit, parent) };
}
