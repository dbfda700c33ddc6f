import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Organizations are user rows of type 1; membership is through teams (org_user mirrors it).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`ALTER TABLE user ADD COLUMN repo_admin_change_team_access INTEGER NOT NULL DEFAULT 0`,
    sql`CREATE TABLE org_user (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      uid INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      org_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      is_public INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_org_user ON org_user (org_id, uid)`,
    sql`CREATE INDEX idx_org_user_uid ON org_user (uid)`,
    sql`CREATE TABLE team (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      lower_name TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      authorize INTEGER NOT NULL DEFAULT 1,
      num_repos INTEGER NOT NULL DEFAULT 0,
      num_members INTEGER NOT NULL DEFAULT 0,
      includes_all_repositories INTEGER NOT NULL DEFAULT 0,
      can_create_org_repo INTEGER NOT NULL DEFAULT 0,
      visibility TEXT NOT NULL DEFAULT 'limited',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_team_org_name ON team (org_id, lower_name)`,
    sql`CREATE TABLE team_user (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      team_id INTEGER NOT NULL REFERENCES team(id) ON DELETE CASCADE,
      uid INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_team_user ON team_user (team_id, uid)`,
    sql`CREATE INDEX idx_team_user_uid ON team_user (uid, org_id)`,
    sql`CREATE TABLE team_repo (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      team_id INTEGER NOT NULL REFERENCES team(id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL REFERENCES repository(id) ON DELETE CASCADE
    )`,
    sql`CREATE UNIQUE INDEX idx_team_repo ON team_repo (team_id, repo_id)`,
    sql`CREATE INDEX idx_team_repo_repo ON team_repo (repo_id)`,
    sql`CREATE TABLE team_unit (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      team_id INTEGER NOT NULL REFERENCES team(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      access_mode INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_team_unit ON team_unit (team_id, type)`,
    sql`CREATE TABLE follow (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      follow_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_follow ON follow (user_id, follow_id)`,
    sql`CREATE INDEX idx_follow_target ON follow (follow_id)`,
    sql`CREATE TABLE user_block (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      blocker_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      blockee_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      note TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_user_block ON user_block (blocker_id, blockee_id)`,
    sql`CREATE TABLE public_key (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      content TEXT NOT NULL,
      key_type TEXT NOT NULL DEFAULT '',
      read_only INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_public_key_fingerprint ON public_key (fingerprint)`,
    sql`CREATE INDEX idx_public_key_owner ON public_key (owner_id)`,
    sql`CREATE TABLE gpg_key (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
      key_id TEXT NOT NULL,
      primary_key_id TEXT NOT NULL DEFAULT '',
      content TEXT NOT NULL,
      emails TEXT NOT NULL DEFAULT '[]',
      can_sign INTEGER NOT NULL DEFAULT 0,
      can_encrypt_comms INTEGER NOT NULL DEFAULT 0,
      can_encrypt_storage INTEGER NOT NULL DEFAULT 0,
      can_certify INTEGER NOT NULL DEFAULT 0,
      verified INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      expired_unix INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE INDEX idx_gpg_key_owner ON gpg_key (owner_id)`,
    sql`CREATE TABLE label (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER REFERENCES repository(id) ON DELETE CASCADE,
      org_id INTEGER REFERENCES user(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      exclusive INTEGER NOT NULL DEFAULT 0,
      is_archived INTEGER NOT NULL DEFAULT 0,
      description TEXT NOT NULL DEFAULT '',
      color TEXT NOT NULL,
      num_issues INTEGER NOT NULL DEFAULT 0,
      num_closed_issues INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_label_repo ON label (repo_id)`,
    sql`CREATE INDEX idx_label_org ON label (org_id)`,
    sql`CREATE TABLE action (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      user_id INTEGER NOT NULL,
      op_type INTEGER NOT NULL,
      act_user_id INTEGER NOT NULL,
      repo_id INTEGER NOT NULL DEFAULT 0,
      comment_id INTEGER NOT NULL DEFAULT 0,
      ref_name TEXT NOT NULL DEFAULT '',
      is_private INTEGER NOT NULL DEFAULT 0,
      content TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_action_user ON action (user_id, created_unix)`,
    sql`CREATE INDEX idx_action_act_user ON action (act_user_id, created_unix)`,
    sql`CREATE INDEX idx_action_repo ON action (repo_id)`,
  ];
  for (const s of statements) await s.execute(db);
}
