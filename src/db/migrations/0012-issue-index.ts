import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Issue numbers: a per-repository counter (Gitea's issue_index resource index), so a deleted
// issue's number is never handed out again. Listing indexes for the newest-first order, and a
// trigram full-text index over titles and bodies for `q` (substring matching, as LIKE).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE issue_index (
      group_id INTEGER PRIMARY KEY,
      max_index INTEGER NOT NULL DEFAULT 0
    )`,
    sql`INSERT INTO issue_index (group_id, max_index) SELECT repo_id, MAX("index") FROM issue GROUP BY repo_id`,
    // Repository listings walk this in order (state given, type usually not) and stop at the page.
    sql`CREATE INDEX idx_issue_repo_closed_created ON issue (repo_id, is_closed, created_unix, id)`,
    // Cross-repository search walks newest first; repository and kind are in the index, so
    // counting never reads the rows.
    sql`CREATE INDEX idx_issue_closed_created ON issue (is_closed, created_unix, id, repo_id, is_pull)`,
    // One issue's comments of a kind in order; a repository's comments newest-last by kind.
    sql`CREATE INDEX idx_comment_issue_type ON comment (issue_id, type, created_unix, id)`,
    sql`CREATE INDEX idx_comment_type_created ON comment (type, created_unix, id)`,
    sql`CREATE VIRTUAL TABLE issue_fts USING fts5(title, content, content='issue', content_rowid='id', tokenize='trigram')`,
    sql`CREATE TRIGGER issue_fts_insert AFTER INSERT ON issue BEGIN
      INSERT INTO issue_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
    END`,
    sql`CREATE TRIGGER issue_fts_delete AFTER DELETE ON issue BEGIN
      INSERT INTO issue_fts (issue_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
    END`,
    sql`CREATE TRIGGER issue_fts_update AFTER UPDATE OF title, content ON issue BEGIN
      INSERT INTO issue_fts (issue_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
      INSERT INTO issue_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
    END`,
    sql`INSERT INTO issue_fts (issue_fts) VALUES ('rebuild')`,
  ];
  for (const s of statements) await s.execute(db);
}
