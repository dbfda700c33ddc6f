import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { userApprovedBefore } from '../../models/actions-engine';
import { ACCESS, accessMode } from '../permissions';

// Gitea's ifNeedApproval (services/actions/notifier_helper.go). A pull request from a fork runs
// the fork's code on whatever runner takes it, the embedded one included, which runs on this
// host: a run of someone who cannot write the repository's Actions waits (its jobs blocked)
// until a writer approves it. Once a writer approved one of a user's runs in a repository, that
// user's later runs there start by themselves, except for restricted users.

export type ApprovalInput = { repo: Repository; owner: User; doer: User; isForkPull: boolean; triggerEvent: string };

export async function needsApproval(db: DB, a: ApprovalInput): Promise<boolean> {
  // pull_request_target runs the base repository's workflow at the base's commit, not the fork's code.
  if (!a.isForkPull || a.triggerEvent === 'pull_request_target') return false;
  if (a.doer.is_restricted) return true;
  if ((await accessMode(db, a.doer, a.repo, a.owner, 'repo.actions')) >= ACCESS.write) return false;
  return !(await userApprovedBefore(db, a.repo.id, a.doer.id));
}
