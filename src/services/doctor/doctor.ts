import type { DB } from '../../db/connect';
import { checkDatabaseIntegrity, checkDatabaseVersion, checkForeignKeys, checkRepoCounters } from './database-checks';
import { checkAttachmentFiles, checkAvatarFiles, checkPackageBlobFiles } from './file-checks';
import { checkGitLocks } from './lock-checks';
import { checkBranchRows, checkGitFsck, checkOrphanDirectories, checkRepoDirectories } from './repo-checks';
import type { CheckResult, DoctorCheck, DoctorContext } from './types';

/** In the order they run: the database first, since every other check reads it. */
export const DOCTOR_CHECKS: DoctorCheck[] = [
  { name: 'database-version', run: checkDatabaseVersion },
  { name: 'database-integrity', run: checkDatabaseIntegrity },
  { name: 'foreign-keys', run: checkForeignKeys },
  { name: 'repository-directories', run: checkRepoDirectories },
  { name: 'orphan-directories', run: checkOrphanDirectories },
  { name: 'git-fsck', run: checkGitFsck },
  { name: 'git-lock-files', run: checkGitLocks },
  { name: 'branch-rows', run: checkBranchRows },
  { name: 'repository-counters', run: checkRepoCounters },
  { name: 'attachment-files', run: checkAttachmentFiles },
  { name: 'avatar-files', run: checkAvatarFiles },
  { name: 'package-blob-files', run: checkPackageBlobFiles },
];

/**
 * Runs every check (or those named in `only`) in turn, handing each result to `report` as soon as
 * it is known (git fsck of many repositories takes a while). A check that fails outright is a
 * problem, not the end of the run.
 */
export async function runDoctor(
  db: DB, ctx: DoctorContext, report: (r: CheckResult) => void = () => {}, only?: readonly string[],
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of DOCTOR_CHECKS.filter((c) => !only || only.includes(c.name))) {
    let result: CheckResult;
    try {
      result = { name: check.name, ...(await check.run(db, ctx)) };
    } catch (err) {
      result = { name: check.name, problems: [`the check failed: ${(err as Error).message}`], fixed: [] };
    }
    results.push(result);
    report(result);
  }
  return results;
}

/** A run is healthy when no problem remains: repaired ones count as well. */
export const healthy = (results: CheckResult[]): boolean => results.every((r) => !r.problems.length);

const SHOWN = 10;

/** As Gitea's doctor: `[fixed] name: what` per repair, then one `[ok] name` or `[!] name: problems`. */
export function formatResult(r: CheckResult): string[] {
  const lines = r.fixed.map((f) => `[fixed] ${r.name}: ${f}`);
  if (r.skipped) return [...lines, `[skipped] ${r.name}: ${r.skipped}`];
  if (!r.problems.length) return [...lines, `[ok] ${r.name}`];
  const more = r.problems.length > SHOWN ? `; and ${r.problems.length - SHOWN} more` : '';
  const hint = r.hint ? ` (${r.hint})` : '';
  return [...lines, `[!] ${r.name}: ${r.problems.slice(0, SHOWN).join('; ')}${more}${hint}`];
}
