import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import { findIssueRefs, type IssueRef } from '../../lib/issue-refs';
import { nowUnix } from '../../lib/time';
import { hasCommitRef } from '../../models/comment';
import { getIssueByIndex } from '../../models/issue';
import { repoUrls } from '../../convert/repo';
import { canRead, issueCtx } from './issue-access';
import { recordEvent } from './issue-events';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { accessOf, lookupRepo, type RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// References from commits (Gitea's UpdateIssuesCommit): a pushed commit whose message names
// `#N` or `owner/repo#N` leaves a commit_ref event on that issue, once per commit, when the
// pusher can read it. As Gitea, the event's body is a link to the commit titled with the
// message's first line (the API's timeline shows it as is) and commit_sha names the commit.

async function targetOf(db: DB, here: RepoAccess, doer: User, ref: IssueRef): Promise<RepoAccess | null> {
  if (!ref.owner) return here;
  const found = await lookupRepo(db, ref.owner, ref.repo!, doer).catch(() => null);
  return found && !('redirectTo' in found) ? found : null;
}

/** The commit_ref events of one pushed commit of `repo`. */
export async function addCommitReferences(
  h: Hearth, repo: Repository, doer: User, commit: { id: string; message: string },
): Promise<void> {
  const refs = findIssueRefs(commit.message);
  if (!refs.length) return;
  const here = await accessOf(h.db, repo, doer);
  const title = commit.message.split('\n', 1)[0]!.trim();
  const link = `${repoUrls(h.config, here.owner.name, repo.name).html_url}/commit/${encodeURIComponent(commit.id)}`;
  const content = `<a href="${escapeHtml(link)}">${escapeHtml(title)}</a>`;
  for (const ref of refs) {
    const target = await targetOf(h.db, here, doer, ref);
    const issue = target && (await getIssueByIndex(h.db, target.repo.id, ref.index));
    if (!target || !issue || !canRead(await issueCtx(h.db, target, doer), issue.is_pull)) continue;
    if (await hasCommitRef(h.db, issue.id, commit.id)) continue;
    await recordEvent(h.db, issue, doer.id, COMMENT_TYPE.commitRef, nowUnix(), { content, commit_sha: commit.id });
  }
}
