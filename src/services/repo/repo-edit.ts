import type { Config } from '../../config/schema';
import { oidsOfRepo } from '../../models/lfs';
import { removeOrphanObjects } from '../lfs/gc';
import type { DB } from '../../db/connect';
import type { Repository, RepositoryUpdate, User } from '../../db/schema';
import { git } from '../../git/exec';
import { isValidBranchName } from '../../git/refs';
import { removeRepoDir, repoDir, revParse } from '../../git/repo';
import { crashPoint } from '../../lib/crash-point';
import { InvalidError } from '../../lib/errors';
import { isValidExternalTrackerFormat, isValidExternalUrl } from '../../lib/external-url';
import { nowUnix } from '../../lib/time';
import {
  bumpCounter, deleteRedirect, deleteRedirectsTo, deleteRepoRow, detachForks, getRepoById, getRepoByOwnerAndName, setRedirect, updateRepo,
} from '../../models/repo';
import { bumpUserRepos } from '../../models/repo-owner';
import { deleteWebhooksOf } from '../../models/webhook';
import { forgetStarsOf } from '../../models/stars';
import { assertValidRepoName } from '../names';
import { settingsOf, type RepoSettings } from './repo-settings';
import { attachmentUuidsOfRepo, deleteAttachmentsOfRepo } from '../../models/attachment';
import { uncountRepoOnTeams } from '../../models/team';
import { updateMirror, type MirrorPatch } from '../../models/mirror';
import { nextUpdateAt, parseMirrorInterval } from '../mirror/pull-mirror-interval';
import { removeAttachmentFile } from '../issue/attachment-files';
import type { RepoAccess } from './repos';
import { emit } from '../events/bus';
import { recordAudit, repoTarget } from '../audit/record';
import { removeRepoAvatarFile } from './repo-avatar';
import { wikiDir } from '../wiki/wiki-repo';
import { clearIntent } from '../recovery/intent';
import { inTransactionWithMoves, repoAndWikiMoves } from './dir-moves';
import { syncRepoLicenses } from './licenses';
import type { Hearth } from '../../hearth';

export type RepoEdit = Partial<Omit<RepoSettings, 'mirror_interval'>> & {
  name?: string; description?: string; website?: string; private?: boolean; template?: boolean;
  archived?: boolean; default_branch?: string; mirror_interval?: string; enable_prune?: boolean;
};

const SETTING_KEYS = [
  'has_code', 'has_issues', 'has_wiki', 'has_pull_requests', 'has_projects', 'has_releases', 'has_packages',
  'has_actions', 'allow_merge_commits', 'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge',
  'allow_fast_forward_only_merge', 'allow_rebase_update', 'allow_manual_merge', 'autodetect_manual_merge',
  'default_allow_maintainer_edit', 'default_delete_branch_after_merge', 'default_merge_style',
  'ignore_whitespace_conflicts', 'projects_mode', 'internal_tracker', 'external_tracker', 'external_wiki',
] as const;

const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'];

/**
 * A pull mirror's mirror_interval and enable_prune (Gitea skips them on other repositories): the
 * interval as on migration ("0" stops scheduled syncs) and the next sync one interval from now.
 */
function mirrorPatchOf(config: Config, edit: RepoEdit): MirrorPatch | null {
  const m: MirrorPatch = {};
  if (edit.mirror_interval !== undefined) {
    if (!edit.mirror_interval.trim()) throw new InvalidError('[mirror_interval]: invalid duration ""', 'mirror_interval');
    m.interval_seconds = parseMirrorInterval(config, edit.mirror_interval);
    m.next_update_unix = nextUpdateAt(nowUnix(), m.interval_seconds);
  }
  if (edit.enable_prune !== undefined) m.enable_prune = edit.enable_prune ? 1 : 0;
  return Object.keys(m).length ? m : null;
}

/** The external tracker's and wiki's addresses, checked as Gitea checks them (422). */
function assertExternalUnits(config: Config, edit: RepoEdit): void {
  const root = config.server.root_url;
  const tracker = edit.external_tracker;
  if (tracker) {
    if (!isValidExternalUrl(tracker.external_tracker_url, root)) throw new InvalidError('External tracker URL not valid', 'external_tracker');
    if (tracker.external_tracker_format && !isValidExternalTrackerFormat(tracker.external_tracker_format, root)) {
      throw new InvalidError('External tracker URL format not valid', 'external_tracker');
    }
  }
  if (edit.external_wiki && !isValidExternalUrl(edit.external_wiki.external_wiki_url, root)) {
    throw new InvalidError('External wiki URL not valid', 'external_wiki');
  }
}

/** PATCH /repos/{owner}/{repo}: every EditRepoOption field; rename and default branch touch git too. */
export async function editRepository(h: Hearth, access: RepoAccess, doer: User, edit: RepoEdit): Promise<Repository> {
  const { repo, owner } = access;
  // As Gitea, an archived repository's settings stay editable: only its contents are frozen.
  if (edit.default_merge_style !== undefined && !MERGE_STYLES.includes(edit.default_merge_style)) {
    throw new InvalidError(`[default_merge_style]: invalid merge style`, 'default_merge_style');
  }
  if (edit.projects_mode !== undefined && !['repo', 'owner', 'all'].includes(edit.projects_mode)) {
    throw new InvalidError(`[projects_mode]: invalid projects mode`, 'projects_mode');
  }
  assertExternalUnits(h.config, edit);
  const dir = repoDir(h.config.repository.root, owner.name, repo.name);
  // As Gitea, a default branch that does not exist in a non-empty repository is ignored.
  const branchMissing = edit.default_branch !== undefined && edit.default_branch !== repo.default_branch
    && !repo.is_empty && !(await revParse(dir, `refs/heads/${edit.default_branch}`));
  if (edit.default_branch !== undefined && !branchMissing && !(await isValidBranchName(edit.default_branch))) {
    throw new InvalidError('[default_branch]: invalid branch name', 'default_branch');
  }
  const patch: RepositoryUpdate = { updated_unix: nowUnix() };
  if (edit.description !== undefined) patch.description = edit.description;
  if (edit.website !== undefined) patch.website = edit.website;
  if (edit.private !== undefined) patch.is_private = edit.private ? 1 : 0;
  if (edit.template !== undefined) patch.is_template = edit.template ? 1 : 0;
  if (edit.default_branch !== undefined && !branchMissing) patch.default_branch = edit.default_branch;
  if (edit.archived !== undefined && Boolean(edit.archived) !== Boolean(repo.is_archived)) {
    patch.is_archived = edit.archived ? 1 : 0;
    patch.archived_unix = edit.archived ? nowUnix() : 0;
  }
  const settings: Record<string, unknown> = { ...settingsOf(repo) };
  for (const key of SETTING_KEYS) if (edit[key] !== undefined) settings[key] = edit[key];
  patch.settings = JSON.stringify(settings);
  const mirrorPatch = repo.is_mirror ? mirrorPatchOf(h.config, edit) : null;

  const newName = edit.name !== undefined && edit.name !== repo.name ? edit.name : undefined;
  if (newName !== undefined) assertValidRepoName(newName);
  // The directory and the wiki move after the rows, in the transaction, under a 'repo.move' intent.
  const moves = newName !== undefined ? repoAndWikiMoves(h.config, owner.name, repo.name, owner.name, newName) : [];
  const staged = { kind: 'repo.move' as const, payload: { repoId: repo.id }, moves, crashAt: 'repo.rename.after-move' };
  const { value: updated } = await inTransactionWithMoves(h.db, staged, async (trx) => {
    if (newName !== undefined) {
      const taken = await getRepoByOwnerAndName(trx, owner.id, newName);
      if (taken && taken.id !== repo.id) throw new InvalidError(`repo name is already taken [name: ${newName}]`, 'name');
      patch.name = newName;
      patch.lower_name = newName.toLowerCase();
      if (repo.lower_name !== patch.lower_name) {
        await setRedirect(trx, owner.id, repo.lower_name, repo.id);
        await deleteRedirect(trx, owner.id, patch.lower_name);
      }
    }
    await updateRepo(trx, repo.id, patch);
    await auditRepoEdit(trx, repo, patch);
    if (mirrorPatch) await updateMirror(trx, repo.id, mirrorPatch);
    // Disk last: if it fails the transaction rolls back and nothing changed.
    if (patch.default_branch && patch.default_branch !== repo.default_branch) {
      await git(['symbolic-ref', 'HEAD', `refs/heads/${patch.default_branch}`], { gitDir: dir });
    }
    return (await getRepoById(trx, repo.id))!;
  });
  // As Gitea: the licenses are those of the new default branch.
  if (patch.default_branch && patch.default_branch !== repo.default_branch && !repo.is_empty) {
    updated.licenses = JSON.stringify(await syncRepoLicenses(h, updated));
  }
  if (newName !== undefined) await emit(h.db, 'repo.renamed', { repo: updated, doer, oldName: repo.name });
  return updated;
}

/** The audit rows of an edit: a rename and a change of visibility. */
async function auditRepoEdit(trx: DB, repo: Repository, patch: RepositoryUpdate): Promise<void> {
  if (patch.name !== undefined && patch.name !== repo.name) {
    const renamed = { ...repo, name: patch.name };
    await recordAudit(trx, { op: 'repo.rename', target: repoTarget(renamed), repo: renamed, extra: { old_name: repo.name, new_name: patch.name } });
  }
  if (patch.is_private !== undefined && patch.is_private !== repo.is_private) {
    await recordAudit(trx, { op: 'repo.visibility', target: repoTarget(repo), repo, extra: { private: !!patch.is_private } });
  }
}

/** Deletes the row (and everything hanging off it), the bare repository and its wiki. */
export async function deleteRepository(h: Hearth, access: RepoAccess, doer?: User): Promise<void> {
  const { repo, owner } = access;
  // Repository and wiki move aside before the commit (a new repository of the same name never
  // finds them), and are removed after it; the 'repo.delete' intent lasts until that is done.
  const asides = [repoDir(h.config.repository.root, owner.name, repo.name), wikiDir(h.config, owner.name, repo.name)]
    .map((from) => ({ from, to: `${from}.deleting` }));
  // Left by a crash before intents existed: in the way of the move aside (ENOTEMPTY) for good.
  for (const a of asides) removeRepoDir(a.to);
  const payload = {
    repoId: repo.id, avatar: repo.avatar,
    attachments: await attachmentUuidsOfRepo(h.db, repo.id), lfsOids: await oidsOfRepo(h.db, repo.id),
  };
  const staged = { kind: 'repo.delete' as const, payload, moves: asides, crashAt: 'repo.delete.after-move', keepIntent: true };
  const { value: files, intent } = await inTransactionWithMoves(h.db, staged, (trx) => deleteRepoRows(trx, repo, owner));
  crashPoint('repo.delete.after-commit');
  for (const a of asides) removeRepoDir(a.to);
  // Attachment files go once the rows are gone for good.
  for (const uuid of files) await removeAttachmentFile(h, uuid);
  // LFS meta objects went with the row (ON DELETE CASCADE); bytes no other repository uses go too.
  await removeOrphanObjects(h.db, h.blobs, payload.lfsOids);
  await removeRepoAvatarFile(h, repo);
  if (intent !== null) await clearIntent(h.db, intent);
  if (doer) await emit(h.db, 'repo.deleted', { repo, doer, owner });
}

/** The rows of a deleted repository; the UUIDs of its attachments, whose files go after the commit. */
async function deleteRepoRows(trx: DB, repo: Repository, owner: User): Promise<string[]> {
  await detachForks(trx, repo.id);
  if (repo.fork_id) await bumpCounter(trx, repo.fork_id, 'num_forks', -1);
  await bumpUserRepos(trx, owner.id, -1);
  await deleteRedirectsTo(trx, repo.id);
  await forgetStarsOf(trx, repo.id);
  await uncountRepoOnTeams(trx, repo.id);
  const files = await deleteAttachmentsOfRepo(trx, repo.id);
  await deleteWebhooksOf(trx, { repoId: repo.id });
  await deleteRepoRow(trx, repo.id);
  await recordAudit(trx, { op: 'repo.delete', target: repoTarget(repo), repo });
  return files;
}
