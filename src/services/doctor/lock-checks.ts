import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connect';
import { lockFilesOf, removeStaleLocks, repoDirsUnder } from '../../git/stale-locks';
import { fixable, type DoctorContext, type Findings } from './types';

const STALE_MS = 3_600_000;

/** git lock files over an hour old (a killed git's debris: their refs cannot move); --fix removes them. */
export async function checkGitLocks(_db: DB, ctx: DoctorContext): Promise<Findings> {
  const root = ctx.config.repository.root;
  const cutoff = Date.now() - STALE_MS;
  const problems: string[] = [];
  const fixed: string[] = [];
  for (const dir of repoDirsUnder(root)) {
    const stale = lockFilesOf(dir).filter((f) => { try { return fs.statSync(f).mtimeMs < cutoff; } catch { return false; } });
    if (!stale.length) continue;
    const names = stale.map((f) => path.relative(root, f)).join(', ');
    if (ctx.fix) {
      removeStaleLocks(dir, cutoff);
      fixed.push(`removed stale git lock files ${names}`);
    } else {
      problems.push(`stale git lock files (over an hour old; their refs cannot be updated): ${names}`);
    }
  }
  return fixable(ctx, problems, fixed);
}
