import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { pushCommits } from '../../git/push-commits';
import { backgroundInfo } from '../../lib/background-log';
import { findActionRefs, type ActionRef } from '../../lib/issue-refs';
import { nowUnix } from '../../lib/time';
import { getIssueByIndex } from '../../models/issue';
import { getPullByIssueId } from '../../models/pull';
import { lookupRepo, accessOf, type RepoAccess } from '../repo/repos';
import { canWrite, issueCtx } from './issue-access';
import { changeWithEvents, emitIssueChanged } from './issue-changes';
import { addCommitReferences } from './commit-refs';
import { changeIssueState, type StateCause } from './issue-state';
import type { Hearth } from '../../hearth';

// References from pushed commits (commit-refs.ts, on every branch) and closing keywords, as Gitea: "fixes #N", "closes owner/repo#N", "reopens #N" in the commits
// pushed to the default branch, or in the title and body of a pull request merged into it,
// close (or reopen) those issues as the pusher or merger, when they may write issues there.
// The close event names the commit, and the pull request when a merge closed it.

/** Gitea reads at most this many commits of one push for references. */
const MAX_COMMITS = 100;

async function targetOf(db: DB, repo: Repository, doer: User, ref: ActionRef): Promise<RepoAccess | null> {
  if (!ref.owner) return accessOf(db, repo, doer);
  const found = await lookupRepo(db, ref.owner, ref.repo!, doer).catch(() => null);
  return found && !('redirectTo' in found) ? found : null;
}

async function apply(db: DB, repo: Repository, doer: User, ref: ActionRef, cause: StateCause): Promise<void> {
  const target = await targetOf(db, repo, doer, ref);
  const issue = target && (await getIssueByIndex(db, target.repo.id, ref.index));
  if (!target || !issue || issue.is_pull) return;
  const close = ref.action === 'close';
  if ((issue.is_closed === 1) === close) return;
  if (!canWrite(await issueCtx(db, target, doer), false)) return;
  try {
    const { result, events } = await changeWithEvents(db, issue, (trx) => changeIssueState(trx, target.repo, issue, doer.id, close, nowUnix(), cause));
    await emitIssueChanged(db, target.repo, doer, issue, events, result);
  } catch (err) {
    // Open dependencies keep an issue open (412): the push or merge stands.
    backgroundInfo({ issue: issue.id, reason: (err as Error).message }, 'closing keyword not applied');
  }
}

/** `cause`: the commit, and for a merge the pull request's issue, that the event names. */
export async function applyKeywords(db: DB, repo: Repository, doer: User, text: string, cause: StateCause): Promise<void> {
  for (const ref of findActionRefs(text)) await apply(db, repo, doer, ref, cause);
}

export function subscribeClosingKeywords(h: Hearth): void {
  h.events.on('refs.moved', 'closing keywords', async (e) => {
    for (const u of e.updates.filter((x) => x.ref.startsWith('refs/heads/') && !/^0+$/.test(x.newId))) {
      const { commits } = await pushCommits(e.dir, /^0+$/.test(u.oldId) ? null : u.oldId, u.newId, MAX_COMMITS);
      const onDefault = u.ref === `refs/heads/${e.repo.default_branch}`;
      // Oldest first, as they were made: a later "reopens" wins over an earlier "fixes".
      for (const c of commits.reverse()) {
        // A mirror's sync brings someone else's commits: Gitea leaves no references for them.
        if (e.source !== 'mirror') await addCommitReferences(h, e.repo, e.doer, c);
        if (onDefault) await applyKeywords(h.db, e.repo, e.doer, c.message, { commitSha: c.id });
      }
    }
  });
  h.events.on('pull.merged', 'closing keywords', async (e) => {
    const pr = await getPullByIssueId(h.db, e.issue.id);
    if (!pr || pr.base_branch !== e.repo.default_branch) return;
    await applyKeywords(h.db, e.repo, e.doer, `${e.issue.title}\n${e.issue.content}`, { commitSha: pr.merged_commit_id, pullIssueId: e.issue.id });
  });
}
