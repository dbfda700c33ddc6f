import type { DB } from '../../db/connect';
import type { Repository } from '../../db/schema';
import { blobsBytes } from '../../git/blob';
import { gitRun } from '../../git/exec';
import { listDirectory } from '../../git/tree';
import { repoDir } from '../../git/repo';
import { detectLicense, isLicenseFileName } from '../../lib/license-detect';
import { getRepoById, updateRepo } from '../../models/repo';
import { listRepoLocations } from '../../models/repo-counters';
import { licensesOf } from '../../convert/repo';
import type { Hearth } from '../../hearth';

// The licenses of a repository: detected in the license files at the root of its default
// branch, kept in repository.licenses, refreshed when the default branch moves (Gitea's
// repo_license_updater queue) and by the sync_repo_licenses cron task.

const MAX_LICENSE_BYTES = 256 * 1024;

/** SPDX identifiers of the license files at the root of `commit`, sorted. */
export async function detectLicensesAt(dir: string, commit: string): Promise<string[]> {
  const tree = await gitRun(['rev-parse', '--verify', '--quiet', `${commit}^{tree}`], { gitDir: dir });
  if (tree.code !== 0) return [];
  const files = (await listDirectory(dir, tree.stdout.toString().trim(), ''))
    .filter((e) => e.kind === 'blob' && e.mode !== '120000' && isLicenseFileName(e.name) && e.size <= MAX_LICENSE_BYTES);
  if (!files.length) return [];
  const blobs = await blobsBytes(dir, files.map((f) => f.sha));
  const found = new Set<string>();
  for (const f of files) {
    const id = detectLicense(blobs.get(f.sha)?.toString('utf8') ?? '');
    if (id) found.add(id);
  }
  return [...found].sort();
}

/** Detects again at the default branch and stores the result when it changed. */
export async function syncRepoLicenses(h: Hearth, repo: Repository): Promise<string[]> {
  const dir = repoDir(h.config.repository.root, repo.owner_name, repo.name);
  const licenses = repo.is_empty ? [] : await detectLicensesAt(dir, `refs/heads/${repo.default_branch}`);
  const stored = JSON.stringify(licenses);
  if (stored !== repo.licenses) await updateRepo(h.db, repo.id, { licenses: stored });
  return licenses;
}

/** Stores identifiers known without detection (a new repository's license template). */
export async function recordLicenses(db: DB, repo: Repository, licenses: string[]): Promise<Repository> {
  const stored = JSON.stringify(licenses);
  await updateRepo(db, repo.id, { licenses: stored });
  return { ...repo, licenses: stored };
}

async function resync(h: Hearth, id: number): Promise<void> {
  const fresh = await getRepoById(h.db, id);
  if (fresh) await syncRepoLicenses(h, fresh);
}

/** Creation (a LICENSE from a template), forks, generated repositories and default-branch moves. */
export function subscribeLicenses(h: Hearth): void {
  // Adopted repositories; a new one's template license is recorded at creation.
  h.events.on('repo.created', 'licenses', async (e) => {
    if (licensesOf(e.repo).length === 0) await resync(h, e.repo.id);
  });
  h.events.on('repo.forked', 'licenses', (e) => resync(h, e.fork.id));
  h.events.on('refs.moved', 'licenses', async (e) => {
    if (e.updates.some((u) => u.ref === `refs/heads/${e.repo.default_branch}`)) await resync(h, e.repo.id);
  });
}

/** sync_repo_licenses: every repository detected again. */
export async function syncAllRepoLicenses(h: Hearth, signal: AbortSignal): Promise<string> {
  const repos = await listRepoLocations(h.db);
  let changed = 0;
  for (const r of repos) {
    if (signal.aborted) throw new Error('cancelled');
    const repo = await getRepoById(h.db, r.id);
    if (!repo) continue;
    const before = repo.licenses;
    await syncRepoLicenses(h, repo).catch(() => undefined);
    if ((await getRepoById(h.db, r.id))?.licenses !== before) changed++;
  }
  return `licenses of ${repos.length} repositories checked, ${changed} updated`;
}
