import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Unit and merge settings live in one JSON column: read with the row, never filtered on.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE repository (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL REFERENCES user(id),
      owner_name TEXT NOT NULL,
      lower_name TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      website TEXT NOT NULL DEFAULT '',
      original_url TEXT NOT NULL DEFAULT '',
      default_branch TEXT NOT NULL,
      object_format_name TEXT NOT NULL DEFAULT 'sha1',
      is_private INTEGER NOT NULL DEFAULT 0,
      is_empty INTEGER NOT NULL DEFAULT 1,
      is_archived INTEGER NOT NULL DEFAULT 0,
      is_mirror INTEGER NOT NULL DEFAULT 0,
      is_fork INTEGER NOT NULL DEFAULT 0,
      fork_id INTEGER REFERENCES repository(id) ON DELETE SET NULL,
      is_template INTEGER NOT NULL DEFAULT 0,
      template_id INTEGER REFERENCES repository(id) ON DELETE SET NULL,
      num_watches INTEGER NOT NULL DEFAULT 0,
      num_stars INTEGER NOT NULL DEFAULT 0,
      num_forks INTEGER NOT NULL DEFAULT 0,
      num_issues INTEGER NOT NULL DEFAULT 0,
      num_closed_issues INTEGER NOT NULL DEFAULT 0,
      num_pulls INTEGER NOT NULL DEFAULT 0,
      num_closed_pulls INTEGER NOT NULL DEFAULT 0,
      num_milestones INTEGER NOT NULL DEFAULT 0,
      num_closed_milestones INTEGER NOT NULL DEFAULT 0,
      num_releases INTEGER NOT NULL DEFAULT 0,
      size INTEGER NOT NULL DEFAULT 0,
      topics TEXT NOT NULL DEFAULT '[]',
      settings TEXT NOT NULL DEFAULT '{}',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL,
      archived_unix INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_repository_owner_name ON repository (owner_id, lower_name)`,
    sql`CREATE INDEX idx_repository_lower_name ON repository (lower_name)`,
    sql`CREATE INDEX idx_repository_fork ON repository (fork_id)`,
    sql`CREATE TABLE repo_redirect (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL,
      lower_name TEXT NOT NULL,
      redirect_repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_repo_redirect ON repo_redirect (owner_id, lower_name)`,
    sql`CREATE TABLE branch (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      commit_id TEXT NOT NULL,
      commit_message TEXT NOT NULL DEFAULT '',
      commit_unix INTEGER NOT NULL DEFAULT 0,
      pusher_id INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_branch_repo_name ON branch (repo_id, name)`,
    sql`CREATE TABLE collaboration (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      mode INTEGER NOT NULL,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_collaboration ON collaboration (repo_id, user_id)`,
    sql`CREATE INDEX idx_collaboration_user ON collaboration (user_id)`,
    sql`CREATE TABLE star (
      uid INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL,
      PRIMARY KEY (uid, repo_id)
    )`,
    sql`CREATE INDEX idx_star_repo ON star (repo_id)`,
    sql`CREATE TABLE watch (
      uid INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL,
      PRIMARY KEY (uid, repo_id)
    )`,
    sql`CREATE INDEX idx_watch_repo ON watch (repo_id)`,
    sql`CREATE TABLE protected_branch (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      rule_name TEXT NOT NULL,
      priority INTEGER NOT NULL DEFAULT 0,
      settings TEXT NOT NULL DEFAULT '{}',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_protected_branch ON protected_branch (repo_id, rule_name)`,
    sql`CREATE TABLE protected_tag (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      name_pattern TEXT NOT NULL,
      allowlist_user_ids TEXT NOT NULL DEFAULT '[]',
      allowlist_team_ids TEXT NOT NULL DEFAULT '[]',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_protected_tag_repo ON protected_tag (repo_id)`,
    sql`CREATE TABLE commit_status (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE,
      sha TEXT NOT NULL,
      idx INTEGER NOT NULL,
      state TEXT NOT NULL,
      target_url TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '',
      context TEXT NOT NULL DEFAULT '',
      creator_id INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_commit_status ON commit_status (repo_id, sha, idx)`,
    sql`CREATE TABLE repo_transfer (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL UNIQUE REFERENCES repository(id) ON DELETE CASCADE,
      doer_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      recipient_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      team_ids TEXT NOT NULL DEFAULT '[]',
      created_unix INTEGER NOT NULL
    )`,
  ];
  for (const s of statements) await s.execute(db);
}
