import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { dialectOf, lockRow } from '../../db/dialect';
import type { Release, User } from '../../db/schema';
import { countCommits } from '../../git/log';
import { getTag as readTag, isValidTagName, refTarget } from '../../git/refs';
import { repoDir } from '../../git/repo';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { deleteReleaseRow, getReleaseRow, getReleaseRowByTag, insertReleaseRow, updateReleaseRow } from '../../models/release';
import { deleteAssetsOfRelease } from '../../models/release-asset';
import { removeAttachmentFile } from '../issue/attachment-files';
import { releaseView, syncReleaseCounter, type ReleaseView } from './releases';
import type { RepoAccess } from '../repo/repos';
import { createTag, deleteTag } from '../repo/tags';
import { assertMayControlTag } from '../repo/tag-protection';
import { emit } from '../events/bus';
import type { Hearth } from '../../hearth';

// Creating, editing and deleting releases (Gitea's services/release): publishing a release
// creates its tag (lightweight, or annotated with tag_message) from the target when missing; a
// draft creates no tag. Deleting a release keeps its tag, as Gitea's API does.

export type CreateReleaseInput = {
  tag_name: string; target?: string; title?: string; note?: string; draft?: boolean; prerelease?: boolean; tag_message?: string;
};
export type EditReleaseInput = Partial<Omit<CreateReleaseInput, 'tag_message'>>;

const dirOf = (config: Config, a: RepoAccess) => repoDir(config.repository.root, a.owner.name, a.repo.name);

type Published = { sha1: string; num_commits: number; created: boolean };

/** The tag of a published release: the existing one, else created from `target`. */
async function ensureTag(
  h: Hearth, access: RepoAccess, doer: User, tag: string, target: string, message?: string,
): Promise<Published> {
  const dir = dirOf(h.config, access);
  let info = await readTag(dir, tag);
  let created = false;
  if (!info) {
    info = await createTag(h, access, doer, { name: tag, target, message });
    created = true;
  }
  return { sha1: info.commit, num_commits: await countCommits(dir, { revs: [info.commit] }), created };
}

async function assertTagName(tag: string): Promise<void> {
  if (!(await isValidTagName(tag))) throw new InvalidError('[tag_name]: invalid tag name', 'tag_name');
}

/** Row writes and the counter in one transaction; a concurrent release of the tag is a 409. */
async function writeRows<T>(db: DB, repoId: number, tag: string, work: (trx: DB) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      await lockRow(trx, 'repository', repoId);
      const out = await work(trx);
      await syncReleaseCounter(trx, repoId);
      return out;
    });
  } catch (err) {
    if (dialectOf(db).isUniqueViolation(err)) throw new ConflictError(`release tag already exist [tag_name: ${tag}]`);
    throw err;
  }
}

export async function createRelease(h: Hearth, access: RepoAccess, doer: User, input: CreateReleaseInput): Promise<ReleaseView> {
  const { repo } = access;
  if (repo.is_empty) throw new InvalidError('repo is empty');
  await assertTagName(input.tag_name);
  const existing = await getReleaseRowByTag(h.db, repo.id, input.tag_name);
  // A tag-only row (its release was deleted) becomes a release again, as in Gitea.
  if (existing && !existing.is_tag) throw new ConflictError(`release tag already exist [tag_name: ${input.tag_name}]`);
  const tag = existing?.tag_name ?? input.tag_name;
  const target = input.target || existing?.target || repo.default_branch;
  const now = nowUnix();
  const pub = input.draft ? null : await ensureTag(h, access, doer, tag, target, input.tag_message);
  const fields = {
    publisher_id: doer.id, tag_name: tag, lower_tag_name: tag.toLowerCase(), target,
    title: input.title ?? '', note: input.note ?? '', is_draft: input.draft ? 1 : 0, is_prerelease: input.prerelease ? 1 : 0,
    is_tag: 0, sha1: pub?.sha1 ?? existing?.sha1 ?? '', num_commits: pub?.num_commits ?? existing?.num_commits ?? 0,
    // Gitea dates a draft by its last save and a release by the creation of its tag.
    created_unix: !existing || !pub || pub.created ? now : existing.created_unix, updated_unix: now,
  };
  const row = await writeRows(h.db, repo.id, tag, async (trx) => {
    if (!existing) return insertReleaseRow(trx, { repo_id: repo.id, ...fields });
    await updateReleaseRow(trx, existing.id, fields);
    return (await getReleaseRow(trx, repo.id, existing.id))!;
  });
  if (!row.is_draft) await emit(h.db, 'release.published', { repo, doer, release: row });
  return releaseView(h.db, row);
}

/** `{id}` for writers: tag-only rows are not releases (404). */
async function releaseRow(db: DB, access: RepoAccess, id: number): Promise<Release> {
  const row = Number.isSafeInteger(id) && id > 0 ? await getReleaseRow(db, access.repo.id, id) : undefined;
  if (!row || row.is_tag) throw new NotFoundError();
  return row;
}

/** EditReleaseOption: empty strings keep the current values, as Gitea. */
export async function editRelease(
  h: Hearth, access: RepoAccess, doer: User, id: number, input: EditReleaseInput,
): Promise<ReleaseView> {
  const rel = await releaseRow(h.db, access, id);
  const tag = input.tag_name || rel.tag_name;
  let replaced: Release | undefined;
  if (tag !== rel.tag_name) {
    await assertTagName(tag);
    replaced = await getReleaseRowByTag(h.db, access.repo.id, tag);
    if (replaced?.id === rel.id) replaced = undefined;
    else if (replaced && !replaced.is_tag) throw new ConflictError(`release tag already exist [tag_name: ${tag}]`);
  }
  const target = input.target || rel.target;
  const isDraft = input.draft ?? rel.is_draft === 1;
  const now = nowUnix();
  const pub = isDraft ? null : await ensureTag(h, access, doer, tag, target);
  const patch = {
    tag_name: tag, lower_tag_name: tag.toLowerCase(), target, title: input.title || rel.title, note: input.note || rel.note,
    is_draft: isDraft ? 1 : 0, is_prerelease: (input.prerelease ?? rel.is_prerelease === 1) ? 1 : 0,
    sha1: pub?.sha1 ?? rel.sha1, num_commits: pub?.num_commits ?? rel.num_commits,
    created_unix: !pub || pub.created ? now : rel.created_unix, updated_unix: now,
  };
  const row = await writeRows(h.db, access.repo.id, tag, async (trx) => {
    // The tag-only row of the new tag name is folded into this release.
    if (replaced) await deleteReleaseRow(trx, replaced.id);
    await updateReleaseRow(trx, rel.id, patch);
    return (await getReleaseRow(trx, access.repo.id, rel.id))!;
  });
  // Publishing a draft is the release's publication (Gitea's UpdateRelease notifies NewRelease then).
  if (!row.is_draft) await emit(h.db, rel.is_draft ? 'release.published' : 'release.updated', { repo: access.repo, doer, release: row });
  return releaseView(h.db, row);
}

/**
 * Deletes a release and its assets; the tag stays (the row becomes tag-only, so the tag can be
 * released again). A draft whose tag was never created leaves nothing behind.
 */
export async function deleteRelease(h: Hearth, access: RepoAccess, rel: Release, doer?: User): Promise<void> {
  const tagExists = !!(await refTarget(dirOf(h.config, access), `refs/tags/${rel.tag_name}`));
  const uuids = await writeRows(h.db, access.repo.id, rel.tag_name, async (trx) => {
    const removed = await deleteAssetsOfRelease(trx, rel.id);
    if (tagExists) await updateReleaseRow(trx, rel.id, { is_tag: 1, updated_unix: nowUnix() });
    else await deleteReleaseRow(trx, rel.id);
    return removed;
  });
  for (const uuid of uuids) await removeAttachmentFile(h, uuid);
  // A draft was never published: nobody was told of it (Gitea notifies deletions of releases only).
  if (doer && !rel.is_draft) await emit(h.db, 'release.deleted', { repo: access.repo, doer, release: rel });
}

export async function deleteReleaseById(h: Hearth, access: RepoAccess, id: number, doer?: User): Promise<void> {
  await deleteRelease(h, access, await releaseRow(h.db, access, id), doer);
}

export async function deleteReleaseByTag(h: Hearth, access: RepoAccess, tag: string, doer?: User): Promise<void> {
  const row = tag ? await getReleaseRowByTag(h.db, access.repo.id, tag) : undefined;
  if (!row || row.is_tag) throw new NotFoundError();
  await deleteRelease(h, access, row, doer);
}

/** Gitea's delete with "delete the tag too": the release and its assets, then its tag (when there is one). */
export async function deleteReleaseAndTag(h: Hearth, access: RepoAccess, id: number, doer: User): Promise<void> {
  const rel = await releaseRow(h.db, access, id);
  const tagged = !!(await refTarget(dirOf(h.config, access), `refs/tags/${rel.tag_name}`));
  // A protected tag refuses before anything is deleted: never a release gone and its tag kept half-way.
  if (tagged) await assertMayControlTag(h.db, access, doer, rel.tag_name, 'delete');
  await deleteRelease(h, access, rel, doer);
  if (tagged) await deleteTag(h, access, doer, rel.tag_name);
}
