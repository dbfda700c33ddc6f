import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Pull requests (Gitea's pull_request table): one row per issue with is_pull = 1, holding the
// branches, the last computed mergeability and the merge outcome.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE pull_request (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      issue_id INTEGER NOT NULL UNIQUE REFERENCES issue(id) ON DELETE CASCADE,
      "index" INTEGER NOT NULL,
      head_repo_id INTEGER NOT NULL,
      base_repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      head_branch TEXT NOT NULL,
      base_branch TEXT NOT NULL,
      merge_base TEXT NOT NULL DEFAULT '',
      head_commit_id TEXT NOT NULL DEFAULT '',
      base_commit_id TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL DEFAULT 'checking',
      conflicted_files TEXT NOT NULL DEFAULT '[]',
      commits_ahead INTEGER NOT NULL DEFAULT 0,
      commits_behind INTEGER NOT NULL DEFAULT 0,
      additions INTEGER NOT NULL DEFAULT 0,
      deletions INTEGER NOT NULL DEFAULT 0,
      changed_files INTEGER NOT NULL DEFAULT 0,
      has_merged INTEGER NOT NULL DEFAULT 0,
      merged_commit_id TEXT NOT NULL DEFAULT '',
      merged_by INTEGER NOT NULL DEFAULT 0,
      merged_unix INTEGER NOT NULL DEFAULT 0,
      allow_maintainer_edit INTEGER NOT NULL DEFAULT 0,
      auto_merge TEXT NOT NULL DEFAULT ''
    )`,
    sql`CREATE INDEX idx_pull_request_base ON pull_request (base_repo_id, base_branch)`,
    sql`CREATE INDEX idx_pull_request_head ON pull_request (head_repo_id, head_branch)`,
    // Reviews (Gitea's review table): type 0 pending, 1 approve, 2 comment, 3 request changes, 4 request review.
    sql`CREATE TABLE review (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type INTEGER NOT NULL,
      reviewer_id INTEGER NOT NULL,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      content TEXT NOT NULL DEFAULT '',
      commit_id TEXT NOT NULL DEFAULT '',
      official INTEGER NOT NULL DEFAULT 0,
      stale INTEGER NOT NULL DEFAULT 0,
      dismissed INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_review_issue ON review (issue_id, id)`,
    // Line comments of a review: line > 0 on the new side, < 0 on the old side.
    sql`CREATE TABLE review_comment (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      review_id INTEGER NOT NULL REFERENCES review(id) ON DELETE CASCADE,
      issue_id INTEGER NOT NULL,
      poster_id INTEGER NOT NULL,
      path TEXT NOT NULL,
      line INTEGER NOT NULL DEFAULT 0,
      diff_hunk TEXT NOT NULL DEFAULT '',
      commit_id TEXT NOT NULL DEFAULT '',
      content TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_review_comment_review ON review_comment (review_id, id)`,
  ];
  for (const s of statements) await s.execute(db);
}
