import type { User } from '../../db/schema';
import { renderStoredBatch, renderStoredMarkup, type MarkupRequest, type StoredText } from '../markdown';
import { getReleaseByTag, listReleases, type ReleaseView } from '../release/releases';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// `/{owner}/{repo}/releases` and `/releases/tag/{tag}`: the API's release reads (drafts only
// for those who may write releases) with the notes rendered. The rendered HTML is trusted:
// the markdown renderer escapes raw HTML in the notes.

export type ReleaseItem = ReleaseView & { notesHtml: string };

type Page = { offset: number; limit: number };

// The notes as the cache knows them (services/markdown.ts): a page of releases renders its
// notes once, then reads them from the cache until one is edited (the key holds the text's digest).
const stored = (view: ReleaseView): StoredText => ({ kind: 'release', id: view.release.id, updatedUnix: view.release.updated_unix });

// The repository as context (names as they are: the renderer encodes them): `#N` and relative
// links resolve in it, as on Gitea's page.
const notesRequest = (access: RepoAccess): Omit<MarkupRequest, 'text'> =>
  ({ mode: 'gfm', context: `${access.owner.name}/${access.repo.name}`, filePath: '', wiki: false });

async function withNotes(h: Hearth, access: RepoAccess, viewer: User | null, view: ReleaseView): Promise<ReleaseItem> {
  if (!view.release.note.trim()) return { ...view, notesHtml: '' };
  const notesHtml = await renderStoredMarkup(h, viewer, stored(view), { ...notesRequest(access), text: view.release.note });
  return { ...view, notesHtml };
}

/** One page of the releases the viewer may see, newest first. */
export async function releasesPage(
  h: Hearth, access: RepoAccess, viewer: User | null, page: Page,
): Promise<{ items: ReleaseItem[]; total: number }> {
  const { items, total } = await listReleases(h.db, access, viewer, page);
  // One look-up of the mentioned users for the whole page, each text from the cache when it can be.
  const notes = await renderStoredBatch(h, viewer, items.map((v) => ({ stored: stored(v), text: v.release.note })), notesRequest(access));
  return { items: items.map((v, i) => ({ ...v, notesHtml: notes[i]! })), total };
}

/** The release of a tag, 404 when there is none or it is a draft the viewer may not see. */
export async function releasePage(h: Hearth, access: RepoAccess, viewer: User | null, tag: string): Promise<ReleaseItem> {
  return withNotes(h, access, viewer, await getReleaseByTag(h.db, access, viewer, tag));
}
