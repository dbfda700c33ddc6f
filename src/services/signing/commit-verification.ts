import { repoDirOf } from '../repo/commits';
import type { RepoAccess } from '../repo/repos';
import { verifyCommits, type Verification } from './verify-commit';
import type { Hearth } from '../../hearth';

/** A commit list with each commit's `verification` when asked for (one batch for the page). */
export async function withVerifications<T extends { commits: { sha: string }[] }>(
  h: Hearth, access: RepoAccess, list: T, wanted: boolean,
): Promise<T & { verifications?: Map<string, Verification> }> {
  if (!wanted || !list.commits.length) return list;
  return { ...list, verifications: await verifyCommits(h, repoDirOf(h.config, access), list.commits.map((c) => c.sha)) };
}

/** The verification of one commit of the repository. */
export async function commitVerification(h: Hearth, access: RepoAccess, sha: string): Promise<Verification> {
  const found = await verifyCommits(h, repoDirOf(h.config, access), [sha]);
  return found.get(sha)!;
}
