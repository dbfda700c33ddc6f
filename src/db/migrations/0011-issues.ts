import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Issues and pull requests share the issue table and its per-repository numbering.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE milestone (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      content TEXT NOT NULL DEFAULT '',
      is_closed INTEGER NOT NULL DEFAULT 0,
      num_issues INTEGER NOT NULL DEFAULT 0,
      num_closed_issues INTEGER NOT NULL DEFAULT 0,
      deadline_unix INTEGER NOT NULL DEFAULT 0,
      closed_unix INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_milestone_repo ON milestone (repo_id, is_closed)`,
    sql`CREATE TABLE issue (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      "index" INTEGER NOT NULL,
      poster_id INTEGER NOT NULL,
      title TEXT NOT NULL,
      content TEXT NOT NULL DEFAULT '',
      content_version INTEGER NOT NULL DEFAULT 0,
      milestone_id INTEGER REFERENCES milestone(id) ON DELETE SET NULL,
      is_closed INTEGER NOT NULL DEFAULT 0,
      is_pull INTEGER NOT NULL DEFAULT 0,
      is_locked INTEGER NOT NULL DEFAULT 0,
      num_comments INTEGER NOT NULL DEFAULT 0,
      ref TEXT NOT NULL DEFAULT '',
      pin_order INTEGER NOT NULL DEFAULT 0,
      time_estimate INTEGER NOT NULL DEFAULT 0,
      deadline_unix INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL,
      closed_unix INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_issue_repo_index ON issue (repo_id, "index")`,
    sql`CREATE INDEX idx_issue_repo_state ON issue (repo_id, is_pull, is_closed, id)`,
    sql`CREATE INDEX idx_issue_poster ON issue (poster_id)`,
    sql`CREATE INDEX idx_issue_milestone ON issue (milestone_id)`,
    sql`CREATE TABLE issue_label (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      label_id INTEGER NOT NULL REFERENCES label(id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_issue_label ON issue_label (issue_id, label_id)`,
    sql`CREATE INDEX idx_issue_label_label ON issue_label (label_id, issue_id)`,
    sql`CREATE TABLE issue_assignee (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      assignee_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_issue_assignee ON issue_assignee (issue_id, assignee_id)`,
    sql`CREATE INDEX idx_issue_assignee_user ON issue_assignee (assignee_id)`,
    sql`CREATE TABLE comment (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type INTEGER NOT NULL DEFAULT 0,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      poster_id INTEGER NOT NULL,
      content TEXT NOT NULL DEFAULT '',
      content_version INTEGER NOT NULL DEFAULT 0,
      label_id INTEGER NOT NULL DEFAULT 0,
      milestone_id INTEGER NOT NULL DEFAULT 0,
      old_milestone_id INTEGER NOT NULL DEFAULT 0,
      assignee_id INTEGER NOT NULL DEFAULT 0,
      removed_assignee INTEGER NOT NULL DEFAULT 0,
      dependent_issue_id INTEGER NOT NULL DEFAULT 0,
      ref_issue_id INTEGER NOT NULL DEFAULT 0,
      old_title TEXT NOT NULL DEFAULT '',
      new_title TEXT NOT NULL DEFAULT '',
      commit_sha TEXT NOT NULL DEFAULT '',
      meta TEXT NOT NULL DEFAULT '{}',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_comment_issue ON comment (issue_id, id)`,
    sql`CREATE INDEX idx_comment_poster ON comment (poster_id)`,
    sql`CREATE TABLE reaction (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type TEXT NOT NULL,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      comment_id INTEGER NOT NULL DEFAULT 0,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_reaction ON reaction (type, issue_id, comment_id, user_id)`,
    sql`CREATE TABLE attachment (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      uuid TEXT NOT NULL UNIQUE,
      repo_id INTEGER NOT NULL DEFAULT 0,
      issue_id INTEGER NOT NULL DEFAULT 0,
      comment_id INTEGER NOT NULL DEFAULT 0,
      release_id INTEGER NOT NULL DEFAULT 0,
      uploader_id INTEGER NOT NULL DEFAULT 0,
      name TEXT NOT NULL,
      download_count INTEGER NOT NULL DEFAULT 0,
      size INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_attachment_issue ON attachment (issue_id, comment_id)`,
    sql`CREATE INDEX idx_attachment_release ON attachment (release_id)`,
    sql`CREATE TABLE issue_dependency (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      dependency_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_issue_dependency ON issue_dependency (issue_id, dependency_id)`,
    sql`CREATE TABLE stopwatch (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_stopwatch ON stopwatch (issue_id, user_id)`,
    sql`CREATE TABLE tracked_time (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL,
      time INTEGER NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_tracked_time_issue ON tracked_time (issue_id)`,
    sql`CREATE INDEX idx_tracked_time_user ON tracked_time (user_id)`,
    sql`CREATE TABLE issue_watch (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      issue_id INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
      is_watching INTEGER NOT NULL,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_issue_watch ON issue_watch (user_id, issue_id)`,
    sql`CREATE TABLE notification (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      status INTEGER NOT NULL,
      source INTEGER NOT NULL,
      issue_id INTEGER NOT NULL DEFAULT 0,
      commit_id TEXT NOT NULL DEFAULT '',
      comment_id INTEGER NOT NULL DEFAULT 0,
      updated_by INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_notification_user ON notification (user_id, status, updated_unix)`,
    sql`CREATE UNIQUE INDEX idx_notification_issue ON notification (user_id, issue_id) WHERE issue_id > 0`,
  ];
  for (const s of statements) await s.execute(db);
}
