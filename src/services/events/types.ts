import type { Comment, CommitStatus, Issue, Release, Repository, Review, User } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';

// The domain events services emit after their change committed. Rows are as committed; a
// subscriber needing more reads it (by id: it may have changed since).

/** What moved the refs: a push over git, an API write, a merge, a mirror sync... */
export type RefSource = 'push' | 'commit' | 'merge' | 'branch' | 'tag' | 'pull-update' | 'mirror';

type RepoEvent = { repo: Repository; doer: User };
type IssueEvent = RepoEvent & { issue: Issue };

export type DomainEvents = {
  /** Refs of a repository moved and the database follows them (services/repo/refs-moved.ts). */
  'refs.moved': RepoEvent & { dir: string; updates: RefUpdate[]; source: RefSource };
  /** An issue or pull request was opened (pull requests: `issue.is_pull`). */
  'issue.opened': IssueEvent;
  /**
   * An issue or pull request changed: `before` and `issue` are its rows around the change,
   * `events` the timeline rows the change recorded (labels, milestone, assignees, title,
   * close/reopen...), in order.
   */
  'issue.changed': IssueEvent & { before: Issue; events: Comment[] };
  'comment.created': IssueEvent & { comment: Comment };
  'comment.edited': IssueEvent & { comment: Comment; from: string };
  'comment.deleted': IssueEvent & { comment: Comment };
  /** Merged through hearth (`auto`: by a scheduled merge) or found merged after a push. */
  'pull.merged': IssueEvent & { auto: boolean };
  /** The head of an open pull request moved. */
  'pull.synchronized': IssueEvent & { before: string; after: string };
  'pull.reviewed': IssueEvent & { review: Review; verdict: 'approve' | 'reject' | 'comment'; event: Comment | null };
  /** A verdict dismissed (or undismissed: `dismissed` false). */
  'pull.review_dismissed': IssueEvent & { review: Review; reviewer: string; message: string; dismissed: boolean };
  /** Users (and the members of requested teams) asked to review, or no longer. */
  'pull.review_requested': IssueEvent & { reviewers: User[]; removed: boolean; notify: number[] };
  'release.published': RepoEvent & { release: Release };
  'release.updated': RepoEvent & { release: Release };
  'release.deleted': RepoEvent & { release: Release };
  'repo.created': RepoEvent & { owner: User };
  'repo.deleted': RepoEvent & { owner: User };
  'repo.renamed': RepoEvent & { oldName: string };
  'repo.transferred': RepoEvent & { oldOwner: string };
  /** A transfer waits for `recipient` (a user, or an organization's repository creators) to accept it. */
  'repo.transfer_pending': RepoEvent & { recipient: User };
  'repo.forked': RepoEvent & { fork: Repository };
  /** A wiki page written through hearth (not a push to the .wiki.git): Gitea's wiki webhook event. */
  'wiki.page': RepoEvent & { action: 'created' | 'edited' | 'deleted'; page: string; comment: string };
  'commit.status': RepoEvent & { sha: string; status: CommitStatus };
  'repo.starred': RepoEvent & { starred: boolean };
  /** A collaborator added (or their access changed); no subscriber yet (Gitea has no webhook for it). */
  'collaborator.added': { repo: Repository; collaborator: User; mode: number };
};
