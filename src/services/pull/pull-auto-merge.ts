import os from 'node:os';
import type { DB } from '../../db/connect';
import type { PullRequest, User } from '../../db/schema';
import { backgroundError, backgroundInfo } from '../../lib/background-log';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { mapLimited } from '../../lib/concurrency';
import { AppError, ConflictError, ForbiddenError, NotAllowedError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getIssueById } from '../../models/issue';
import { listProtectedBranches } from '../../models/protected-branch';
import { autoMergePullsAt, getPullByIssueId, openPullsOfRepo, updatePull } from '../../models/pull';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { gitRun } from '../../git/exec';
import { recordEvent } from '../issue/issue-events';
import { queueFollowUp, runFollowUp, type FollowUpJob } from './pull-follow-queue';
import { enqueueJob } from '../jobs/queue';
import { emit } from '../events/bus';
import { refsSettled } from '../repo/refs-lock';
import { checkPreconditions, mergePull, type MergeInput } from './pull-merge';
import { dirOfRepo, refreshPull, tipsReader } from './pull-git';
import { markMerged } from './pull-state';
import { settingsOf } from '../repo/repo-settings';
import { loadPull } from './pull-views';
import { ACCESS } from '../permissions';
import { canUserMerge, effectiveRule, toRule } from '../repo/protection-rules';
import { accessOf, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// merge_when_checks_succeed (Gitea's automerge service): the request is checked as a merge
// would be, except for the branch protection, and stored; the pull request then merges as its
// scheduler the first time every check passes: at once, or when a status, an approval, a
// dismissal or a push comes in. Pushes, API commits and merges all move pull requests through
// refreshPullsAfterPush here: a merge moves a base, which may merge others (hence one module).

/** What a scheduled merge remembers: the merge request minus the scheduling, and who asked. */
type Plan = { input: MergeInput; doer_id: number };

export type MergeOutcome = 'merged' | 'scheduled';

/** POST .../pulls/{index}/merge: 200 when merged now, 201 when scheduled (as Gitea 1.25). */
export async function mergeOrSchedule(h: Hearth, access: RepoAccess, doer: User, index: number, input: MergeInput): Promise<MergeOutcome> {
  // A manual merge record is never scheduled (Gitea handles it first).
  if (!input.merge_when_checks_succeed || input.Do === 'manually-merged') {
    await mergePull(h, access, doer, index, input);
    return 'merged';
  }
  const { issue, pr } = await checkPreconditions(h, access, doer, index, input);
  const rule = effectiveRule((await listProtectedBranches(h.db, access.repo.id)).map(toRule), pr.base_branch);
  if (rule && !(await canUserMerge(h.db, rule, { user: doer, mode: access.mode }))) throw new NotAllowedError('User not allowed to merge PR');
  if (pr.status === 'conflict') throw new ConflictError('merge had a conflict');
  if (pr.auto_merge) throw new ConflictError(`pull request is already scheduled to auto merge [index: ${issue.index}]`);
  const { merge_when_checks_succeed: _, force_merge: __, head_commit_id: ___, ...rest } = input;
  const plan: Plan = { input: rest, doer_id: doer.id };
  // Never merged inside the request, even when every check already passes (Gitea's automerge
  // queue): a client reading the head branch right after the 201 (Renovate) must still find it.
  await h.db.transaction().execute(async (trx) => {
    await updatePull(trx, pr.id, { auto_merge: JSON.stringify(plan) });
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.prScheduledToAutoMerge, nowUnix());
    await enqueueAutoMerge(trx, pr.base_repo_id, pr.issue_id, undefined, SCHEDULED_MERGE_DELAY_MS);
  });
  return 'scheduled';
}

/** DELETE .../pulls/{index}/merge: its scheduler or a repository admin (Gitea). */
export async function cancelAutoMerge(h: Hearth, access: RepoAccess, doer: User, index: number): Promise<void> {
  const { issue, pr } = await loadPull(h, access, doer, index, false);
  const plan = planOf(pr.auto_merge);
  if (!plan) throw new NotFoundError('no auto-merge scheduled for this pull request');
  if (plan.doer_id !== doer.id && access.mode < ACCESS.admin) throw new ForbiddenError('user has no permission to cancel the scheduled auto merge');
  await h.db.transaction().execute(async (trx) => {
    await updatePull(trx, pr.id, { auto_merge: '' });
    await recordEvent(trx, issue, doer.id, COMMENT_TYPE.prUnscheduledToAutoMerge, nowUnix());
  });
}

function planOf(stored: string): Plan | null {
  if (!stored) return null;
  try {
    const plan = JSON.parse(stored) as Partial<Plan>;
    return plan.input && typeof plan.doer_id === 'number' ? (plan as Plan) : null;
  } catch {
    return null;
  }
}

/**
 * Merges a scheduled pull request as its scheduler if every check passes now (and, given
 * `sha`, its head is still that commit). Never throws: a pull that is not ready stays scheduled.
 */
export async function attemptAutoMerge(h: Hearth, issueId: number, sha?: string): Promise<boolean> {
  try {
    const pr = await getPullByIssueId(h.db, issueId);
    const plan = pr && !pr.has_merged ? planOf(pr.auto_merge) : null;
    if (!pr || !plan || (sha && pr.head_commit_id !== sha)) return false;
    const [issue, repo, doer] = await Promise.all([getIssueById(h.db, issueId), getRepoById(h.db, pr.base_repo_id), getUserById(h.db, plan.doer_id)]);
    if (!issue || issue.is_closed || !repo || !doer || !doer.is_active || doer.prohibit_login) return false;
    await mergePull(h, await accessOf(h.db, repo, doer), doer, issue.index, plan.input, { auto: true });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) backgroundInfo({ issue: issueId, reason: err.message }, 'scheduled auto-merge is waiting');
    else backgroundError({ err, issue: issueId }, 'scheduled auto-merge failed');
    return false;
  }
}

/** A scheduled merge whose checks already pass waits this long, so the scheduling client reads first. */
const SCHEDULED_MERGE_DELAY_MS = 1500;

export const AUTO_MERGE_JOB = 'pull.auto-merge';
export type AutoMergeJob = { issueId: number; sha?: string };

/** A durable job that attempts the scheduled merge; one repository's merges run in order. */
function enqueueAutoMerge(db: DB, repoId: number, issueId: number, sha?: string, delayMs = 0): Promise<number> {
  const payload: AutoMergeJob = sha ? { issueId, sha } : { issueId };
  return enqueueJob(db, { kind: AUTO_MERGE_JOB, key: `repo:${repoId}`, payload, delayMs });
}

/** A successful status on `sha` may complete the checks of pull requests whose head it is. */
export async function autoMergeAt(db: DB, baseRepoId: number, sha: string): Promise<void> {
  for (const pr of await autoMergePullsAt(db, baseRepoId, sha)) await enqueueAutoMerge(db, baseRepoId, pr.issue_id, sha);
}

/** A review or a dismissal may complete the checks of a scheduled merge. */
export async function autoMergeAfterReview(db: DB, repoId: number, issueId: number): Promise<void> {
  const pr = await getPullByIssueId(db, issueId);
  if (pr?.auto_merge && !pr.has_merged) await enqueueAutoMerge(db, repoId, issueId);
}

/** refreshPullsAfterPush after the answer, as a durable job per repository (pull-follow-queue.ts). */
export function followPush(h: Hearth, repoId: number, pusherId: number): Promise<void> {
  return queueFollowUp(h.db, { repoId, pusherId });
}

/**
 * The follow-up job: once the ref writer of the moment is done (a merge records itself before
 * its base's pulls are re-tested), the repository's pull requests follow. Never throws.
 */
export async function runFollowPush(h: Hearth, { repoId, pusherId }: FollowUpJob, jobId: number): Promise<void> {
  await runFollowUp(h.db, repoId, jobId, async () => {
    await refsSettled(repoId);
    await refreshPullsAfterPush(h, repoId, pusherId);
  }).catch((err: unknown) => backgroundError({ err, repo: repoId }, 'updating pull requests after a push failed'));
}

/** Re-tests run side by side, one git process per core (measured on 2 cores: 3 at once gained nothing). */
const RETEST_AT_ONCE = Math.max(1, Math.min(4, os.availableParallelism()));

/** After a push: every open pull request with a side in this repository follows. Never throws. */
export async function refreshPullsAfterPush(h: Hearth, repoId: number, pusherId: number): Promise<void> {
  const tips = tipsReader(h);
  const open = await openPullsOfRepo(h.db, repoId);
  const moved = (await Promise.all(open.map(async (pr) => ((await tips.unchanged(pr)) ? null : pr)))).filter((pr) => pr !== null);
  // Re-testing is independent per pull request (a merge-tree each): a few at once.
  const tested = await mapLimited(moved, RETEST_AT_ONCE, (pr) => refreshPull(h, pr).catch(() => null));
  // Merges one at a time: each moves the base the others were tested against (and queues their re-test).
  for (const [i, fresh] of tested.entries()) {
    try {
      const now = fresh && (await getPullByIssueId(h.db, fresh.issue_id));
      if (!now || now.has_merged) continue;
      const before = moved[i]!;
      if (now.head_commit_id !== before.head_commit_id) await emitSynchronized(h.db, now, before.head_commit_id, pusherId);
      if (before.base_repo_id === repoId && before.commits_ahead > 0 && now.commits_ahead === 0) await detectManualMerge(h, now, pusherId);
      // A new head or base may satisfy what a scheduled merge waited for (Gitea rechecks after testing the pull).
      else if (now.auto_merge) await attemptAutoMerge(h, now.issue_id);
    } catch { /* one broken pull request must not stop the others */ }
  }
}

/** The head of an open pull request moved: `pull.synchronized` (webhooks' pull_request_sync), by the pusher. */
async function emitSynchronized(db: DB, pr: PullRequest, before: string, pusherId: number): Promise<void> {
  const [issue, repo, doer] = await Promise.all([getIssueById(db, pr.issue_id), getRepoById(db, pr.base_repo_id), getUserById(db, pusherId)]);
  if (issue && repo && doer) await emit(db, 'pull.synchronized', { repo, doer, issue, before, after: pr.head_commit_id });
}

/**
 * autodetect_manual_merge: a push that put the head into the base merged the pull request;
 * the merge commit is the first merge on the path from the head, else the head itself.
 */
async function detectManualMerge(h: Hearth, pr: PullRequest, pusherId: number): Promise<void> {
  const base = await getRepoById(h.db, pr.base_repo_id);
  if (!base || !settingsOf(base).autodetect_manual_merge) return;
  const dir = await dirOfRepo(h, base);
  const r = await gitRun(['rev-list', '--ancestry-path', '--merges', '--reverse', `${pr.head_commit_id}..${pr.base_commit_id}`], { gitDir: dir });
  const commit = r.stdout.toString().split('\n')[0]?.trim() || pr.head_commit_id;
  const issue = await getIssueById(h.db, pr.issue_id);
  if (issue) await markMerged(h.db, { repoId: base.id, doer: pusherId, issue, pr, commit });
}
