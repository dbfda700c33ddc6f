import type { DB } from '../../db/connect';
import { removeRepoDir, repoDir, repoExists } from '../../git/repo';
import { getRepoById, getRepoByOwnerAndName } from '../../models/repo';
import { getUserById, getUserByName } from '../../models/user';
import { emit } from '../events/bus';
import { syncRepoLicenses } from '../repo/licenses';
import type { CreateFilesIntent, CreateSyncIntent, RepoCreateIntent } from '../repo/repo-create-intent';
import { syncRepoFromGit } from '../repo/repo-sync';
import type { Hearth } from '../../hearth';

// A repository creation (create, fork, generate) a crash interrupted; the intent's step says
// where (repo-create-intent.ts). Both ways are safe to run again.

/**
 * 'files': the directory was (perhaps) made, the row never committed (its transaction would have
 * swapped this intent for 'sync'). Nobody has seen the directory: it goes. Unless a repository
 * row claims that place by now (this recovery failed at an earlier start and the name was taken
 * while serving): then the directory is that repository's and stays.
 */
async function undoFiles(db: DB, p: CreateFilesIntent): Promise<string> {
  // The place is the owner's name and the repository's (the owner may be another account by now).
  const owner = await getUserByName(db, p.ownerName);
  const claimed = owner && (await getRepoByOwnerAndName(db, owner.id, p.name));
  if (claimed) return `kept ${p.dir}: repository ${claimed.id} (${claimed.owner_name}/${claimed.name}) is there now`;
  if (!repoExists(p.dir)) return `nothing made for ${p.ownerName}/${p.name}`;
  removeRepoDir(p.dir);
  return `removed the directory of ${p.ownerName}/${p.name}, never created`;
}

/**
 * 'sync': the row committed, the database may not show what git has (empty, no branches). The
 * same sync as the create path (idempotent: it sets the database to what git says), the licenses
 * found in the files, and the event the request never sent.
 */
async function finishSync(h: Hearth, p: CreateSyncIntent): Promise<string> {
  const row = await getRepoById(h.db, p.repoId);
  if (!row) return `repository ${p.repoId} is gone`;
  const dir = repoDir(h.config.repository.root, row.owner_name, row.name);
  if (!repoExists(dir)) return `the directory of ${row.owner_name}/${row.name} is gone`;
  const repo = await syncRepoFromGit(h.db, row, dir, p.doerId);
  const licenses = await syncRepoLicenses(h, repo);
  const synced = { ...repo, licenses: JSON.stringify(licenses) };
  const doer = await getUserById(h.db, p.doerId);
  const owner = await getUserById(h.db, repo.owner_id);
  const base = p.forkOf === null ? undefined : await getRepoById(h.db, p.forkOf);
  if (doer && owner && p.forkOf === null) await emit(h.db, 'repo.created', { repo: synced, doer, owner });
  if (doer && base) await emit(h.db, 'repo.forked', { repo: base, doer, fork: synced });
  return `synced ${repo.owner_name}/${repo.name} from git (${repo.is_empty ? 'empty' : `default branch ${repo.default_branch}`})`;
}

export async function recoverRepoCreate(h: Hearth, payload: RepoCreateIntent): Promise<string> {
  return payload.step === 'files' ? undoFiles(h.db, payload) : finishSync(h, payload);
}
