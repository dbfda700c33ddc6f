import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { renderMarkup } from '../markdown';
import { ACCESS } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import { unitModeOf, type RepoAccess } from '../repo/repos';
import { getWikiPage, getWikiPageAt, listWikiPages, type WikiPageView } from '../wiki/wiki';
import type { Hearth } from '../../hearth';

// What the wiki pages show, through the wiki services the API uses: who may read and write it
// (as the API's mustEnableWiki and reqWikiWriter), a page rendered with its sidebar and footer,
// and the page list.

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
