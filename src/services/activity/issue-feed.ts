import type { DB } from '../../db/connect';
import type { Comment, Issue, Repository, User } from '../../db/schema';
import { backgroundError } from '../../lib/background-log';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { OP, recordAction, type NewActivity } from './activity';

// Activity feed rows for issues, pull requests, reviews and releases (Gitea's feed notifier):
// content is `index|text` as Gitea writes it. Recorded after the change; a failure is logged,
// never turned into a failed request.

/** Gitea's extra operations beyond OP (numbers of its ActionType). */
export const PULL_OP = { approve: 21, reject: 22, commentPull: 23, publishRelease: 24, reviewDismissed: 25, autoMerge: 27 } as const;

async function record(db: DB, act: NewActivity): Promise<void> {
  try {
    await recordAction(db, act);
  } catch (err) {
    backgroundError({ err, repo: act.repo.id, op: act.op }, 'recording activity failed');
  }
}

const firstLine = (s: string) => s.split('\n')[0] ?? '';

/** Gitea truncates comment text to 200 characters, dropping a broken last word. */
function truncated(text: string): string {
  const chars = [...text];
  if (chars.length <= 200) return text;
  const cut = chars.slice(0, 199).join('');
  const space = cut.lastIndexOf(' ');
  return `${space !== -1 && cut.length - space < 15 ? cut.slice(0, space) : cut}…`;
}

export function feedIssueCreated(db: DB, actor: User, repo: Repository, issue: Issue): Promise<void> {
  return record(db, { op: issue.is_pull ? OP.createPullRequest : OP.createIssue, actor, repo, content: `${issue.index}|${issue.title}` });
}

export function feedComment(db: DB, actor: User, repo: Repository, issue: Issue, comment: Comment): Promise<void> {
  return record(db, {
    op: issue.is_pull ? PULL_OP.commentPull : OP.commentIssue, actor, repo, commentId: comment.id, content: `${issue.index}|${truncated(comment.content)}`,
  });
}

export function feedStateChange(db: DB, actor: User, repo: Repository, issue: Issue, closed: boolean): Promise<void> {
  const op = issue.is_pull ? (closed ? OP.closePullRequest : OP.reopenPullRequest) : (closed ? OP.closeIssue : OP.reopenIssue);
  return record(db, { op, actor, repo, content: `${issue.index}|` });
}

/** A merge, by ids (every merge path ends in markMerged). */
export async function feedMerged(db: DB, repoId: number, doerId: number, issue: Pick<Issue, 'index' | 'title'>, auto = false): Promise<void> {
  const [repo, actor] = await Promise.all([getRepoById(db, repoId), getUserById(db, doerId)]);
  if (repo && actor) await record(db, { op: auto ? PULL_OP.autoMerge : OP.mergePullRequest, actor, repo, content: `${issue.index}|${issue.title}` });
}

/**
 * A submitted review, by its timeline comment: approve, reject, or a comment review with a body
 * (Gitea skips empty ones).
 */
export function feedReview(db: DB, actor: User, repo: Repository, issue: Issue, verdict: 'approve' | 'reject' | 'comment', event: Comment): Promise<void> {
  if (verdict === 'comment' && !event.content.trim()) return Promise.resolve();
  const op = verdict === 'approve' ? PULL_OP.approve : verdict === 'reject' ? PULL_OP.reject : PULL_OP.commentPull;
  return record(db, { op, actor, repo, commentId: event.id, content: `${issue.index}|${firstLine(event.content)}` });
}

export function feedReviewDismissed(db: DB, actor: User, repo: Repository, issue: Issue, reviewer: string, message: string): Promise<void> {
  return record(db, { op: PULL_OP.reviewDismissed, actor, repo, content: `${issue.index}|${reviewer}|${message}` });
}

export function feedReleasePublished(db: DB, actor: User, repo: Repository, title: string, tag: string): Promise<void> {
  return record(db, { op: PULL_OP.publishRelease, actor, repo, content: title, refName: `refs/tags/${tag}` });
}

export function feedRepoRenamed(db: DB, actor: User, repo: Repository, oldName: string): Promise<void> {
  return record(db, { op: OP.renameRepo, actor, repo, content: oldName });
}

export function feedRepoTransferred(db: DB, actor: User, repo: Repository, oldOwner: string): Promise<void> {
  return record(db, { op: OP.transferRepo, actor, repo, content: `${oldOwner}/${repo.name}` });
}

/** A fork is a created repository in the forker's feed (Gitea's ForkRepository). */
export function feedForked(db: DB, actor: User, repo: Repository): Promise<void> {
  return record(db, { op: OP.createRepo, actor, repo });
}
