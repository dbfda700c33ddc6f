import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connect';
import { listBranchHeads, listRepoDirs, repoDir } from '../../git/repo';
import { listBranchRows } from '../../models/branch';
import { getRepoById } from '../../models/repo';
import { listPendingOps } from '../../models/pending-op';
import { listRepoLocations, type RepoLocation } from '../../models/repo-counters';
import { isUnadopted } from '../admin/unadopted';
import { runGitMaintenance } from '../cron/git-command';
import { findReposWithoutDirectory } from '../repo/missing-repos';
import { syncRepoFromGit } from '../repo/repo-sync';
import { fixable, reportOnly, type DoctorContext, type Findings } from './types';

const fullName = (r: RepoLocation) => `${r.ownerName}/${r.name}`;
const dirOf = (ctx: DoctorContext, r: RepoLocation) => repoDir(ctx.config.repository.root, r.ownerName, r.name);

const MISSING_HINT = 'resolve with a cron task, POST /api/v1/admin/cron/<task>: '
  + 'reinit_missing_repos recreates them empty, delete_missing_repos deletes them';

/**
 * Repository rows whose directory is gone. Reported only: as Gitea, rows go (or get an empty
 * repository) on explicit request alone, which the two cron tasks named in the hint are.
 */
export async function checkRepoDirectories(db: DB, ctx: DoctorContext): Promise<Findings> {
  const missing = await findReposWithoutDirectory(db, ctx.config);
  return {
    ...reportOnly(missing.map((r) => `${fullName(r)}: no directory ${r.dir}`)),
    hint: missing.length ? MISSING_HINT : undefined,
  };
}

/**
 * Directories under the repository root that no row names. An unadopted repository (its owner
 * exists: the admin unadopted API lists it) is reported and left for adoption or deletion there;
 * --fix moves the others aside into <data>/doctor-orphans/<stamp>/<owner>/<name>.git: never
 * deleted, they may be all that is left. Not while work a crash interrupted is pending (a
 * repository may be moved halfway): the next start of hearth settles that first.
 */
export async function checkOrphanDirectories(db: DB, ctx: DoctorContext): Promise<Findings> {
  const root = ctx.config.repository.root;
  const known = new Set<string>();
  for (const r of await listRepoLocations(db)) {
    known.add(dirOf(ctx, r));
    // A wiki (Gitea's <name>.wiki.git, from an imported data dir) belongs to its repository.
    known.add(repoDir(root, r.ownerName, `${r.name}.wiki`));
  }
  const orphans = listRepoDirs(root).filter((d) => !known.has(d));
  const unadopted: string[] = [];
  const problems: string[] = [];
  const fixed: string[] = [];
  const pending = ctx.fix ? (await listPendingOps(db)).length : 0;
  for (const dir of orphans) {
    const rel = path.relative(root, dir);
    const [ownerName, name] = [path.basename(path.dirname(dir)), path.basename(dir, '.git')];
    if (await isUnadopted(db, ownerName, name)) {
      unadopted.push(`${rel}: unadopted (adopt or delete it: POST or DELETE /api/v1/admin/unadopted/${ownerName}/${name})`);
      continue;
    }
    if (!ctx.fix || pending) {
      problems.push(`${rel}: no repository row${pending ? ` (not moved: ${pending} pieces of work a crash interrupted are pending; start hearth once to settle them)` : ''}`);
      continue;
    }
    const target = path.join(ctx.config.server.data_dir, 'doctor-orphans', ctx.stamp, rel);
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.renameSync(dir, target);
      fixed.push(`moved ${rel} (no repository row) to ${target}`);
    } catch (err) {
      problems.push(`${rel}: no repository row, and moving it to ${target} failed: ${(err as Error).message}`);
    }
  }
  return { ...fixable(ctx, problems, fixed), problems: [...unadopted, ...problems] };
}

/** `git fsck` of every repository, each within the timeout (the repo_health_check cron task's). */
export async function checkGitFsck(db: DB, ctx: DoctorContext): Promise<Findings> {
  const problems: string[] = [];
  for (const r of await listRepoLocations(db)) {
    const dir = dirOf(ctx, r);
    if (!fs.existsSync(dir)) continue; // reported by repository-directories
    const result = await runGitMaintenance(dir, ['fsck', '--no-dangling'], ctx.fsckTimeoutMs, ctx.signal);
    if (!result.ok) problems.push(`${fullName(r)}: ${result.problem}`);
  }
  return reportOnly(problems);
}

/** How a repository's branch rows differ from its refs/heads: one entry a difference. */
async function branchDifferences(db: DB, r: RepoLocation, dir: string): Promise<string[]> {
  const heads = await listBranchHeads(dir);
  const rows = await listBranchRows(db, r.id);
  const inGit = new Map(heads.map((h) => [h.name, h.sha]));
  const inDb = new Map(rows.map((b) => [b.name, b.commit_id]));
  const short = (sha: string) => sha.slice(0, 10);
  const out: string[] = [];
  for (const [name, sha] of inDb) {
    const actual = inGit.get(name);
    if (actual === undefined) out.push(`row ${name} (${short(sha)}) has no branch in git`);
    else if (actual !== sha) out.push(`row ${name} at ${short(sha)}, git at ${short(actual)}`);
  }
  for (const [name, sha] of inGit) if (!inDb.has(name)) out.push(`branch ${name} (${short(sha)}) has no row`);
  const repo = await getRepoById(db, r.id);
  if (repo && Boolean(repo.is_empty) !== (heads.length === 0)) out.push(`is_empty is ${repo.is_empty} but git has ${heads.length} branches`);
  return out;
}

/** Branch rows against the refs in git; --fix resyncs the rows from git as a push does. */
export async function checkBranchRows(db: DB, ctx: DoctorContext): Promise<Findings> {
  const problems: string[] = [];
  const fixed: string[] = [];
  for (const r of await listRepoLocations(db)) {
    const dir = dirOf(ctx, r);
    if (!fs.existsSync(dir)) continue; // reported by repository-directories
    const diffs = await branchDifferences(db, r, dir);
    if (!diffs.length) continue;
    const described = `${fullName(r)}: ${diffs.join(', ')}`;
    if (!ctx.fix) {
      problems.push(described);
      continue;
    }
    try {
      const repo = (await getRepoById(db, r.id))!;
      // No one pushed: the owner stands in as the pusher of rows the resync writes.
      await syncRepoFromGit(db, repo, dir, repo.owner_id);
      fixed.push(`resynced the branch rows of ${described}`);
    } catch (err) {
      problems.push(`${described}; the resync failed: ${(err as Error).message}`);
    }
  }
  return fixable(ctx, problems, fixed);
}
