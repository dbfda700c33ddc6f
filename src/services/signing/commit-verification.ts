import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { repoDirOf } from '../repo/commits';
import type { RepoAccess } from '../repo/repos';
import { verifyCommits, type Verification } from './verify-commit';

/** A commit list with each commit's `verification` when asked for (one batch for the page). */
export async function withVerifications<T extends { commits: { sha: string }[] }>(
  db: DB, config: Config, access: RepoAccess, list: T, wanted: boolean,
): Promise<T & { verifications?: Map<string, Verification> }> {
  if (!wanted || !list.commits.length) return list;
  return { ...list, verifications: await verifyCommits(db, config, repoDirOf(config, access), list.commits.map((c) => c.sha)) };
}

/** The verification of one commit of the repository. */
export async function commitVerification(db: DB, config: Config, access: RepoAccess, sha: string): Promise<Verification> {
  const found = await verifyCommits(db, config, repoDirOf(config, access), [sha]);
  return found.get(sha)!;
}
