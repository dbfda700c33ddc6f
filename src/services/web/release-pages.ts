import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { User } from '../../db/schema';
import { renderMarkup } from '../markdown';
import { getReleaseByTag, listReleases, type ReleaseView } from '../release/releases';
import type { RepoAccess } from '../repo/repos';

// `/{owner}/{repo}/releases` and `/releases/tag/{tag}`: the API's release reads (drafts only
// for those who may write releases) with the notes rendered. The rendered HTML is trusted:
// the markdown renderer escapes raw HTML in the notes.

export type ReleaseItem = ReleaseView & { notesHtml: string };

type Page = { offset: number; limit: number };

async function withNotes(db: DB, config: Config, access: RepoAccess, viewer: User | null, view: ReleaseView): Promise<ReleaseItem> {
  if (!view.release.note.trim()) return { ...view, notesHtml: '' };
  // The repository as context (names as they are: the renderer encodes them): `#N` and
  // relative links resolve in it, as on Gitea's page.
  const context = `${access.owner.name}/${access.repo.name}`;
  const notesHtml = await renderMarkup(db, config, viewer, { text: view.release.note, mode: 'gfm', context, filePath: '', wiki: false });
  return { ...view, notesHtml };
}

/** One page of the releases the viewer may see, newest first. */
export async function releasesPage(
  db: DB, config: Config, access: RepoAccess, viewer: User | null, page: Page,
): Promise<{ items: ReleaseItem[]; total: number }> {
  const { items, total } = await listReleases(db, access, viewer, page);
  const out: ReleaseItem[] = [];
  for (const v of items) out.push(await withNotes(db, config, access, viewer, v));
  return { items: out, total };
}

/** The release of a tag, 404 when there is none or it is a draft the viewer may not see. */
export async function releasePage(db: DB, config: Config, access: RepoAccess, viewer: User | null, tag: string): Promise<ReleaseItem> {
  return withNotes(db, config, access, viewer, await getReleaseByTag(db, access, viewer, tag));
}
