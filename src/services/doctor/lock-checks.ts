import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../db/connect';
import { listRepoDirs } from '../../git/repo';
import { STALE_LOCK_MS, staleLocksOf } from '../../git/stale-locks';
import { fixable, type DoctorContext, type Findings } from './types';

/** git lock files over an hour old (a killed git's debris: their refs cannot move); --fix removes them. */
export async function checkGitLocks(_db: DB, ctx: DoctorContext): Promise<Findings> {
  const root = ctx.config.repository.root;
  const cutoff = Date.now() - STALE_LOCK_MS;
  const problems: string[] = [];
  const fixed: string[] = [];
  for (const dir of listRepoDirs(root)) {
    const stale = staleLocksOf(dir, cutoff);
    if (!stale.length) continue;
    const names = stale.map((f) => path.relative(root, f)).join(', ');
    if (ctx.fix) {
      for (const file of stale) fs.rmSync(file, { force: true });
      fixed.push(`removed stale git lock files ${names}`);
    } else {
      problems.push(`stale git lock files (over an hour old; their refs cannot be updated): ${names}`);
    }
  }
  return fixable(ctx, problems, fixed);
}
