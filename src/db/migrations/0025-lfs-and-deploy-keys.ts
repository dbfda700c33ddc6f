import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Git LFS, as Gitea's models/git: lfs_meta_object ties an object of the content-addressed blob
// store (<data_dir>/packages/blobs, shared with the package registries) to a repository; the
// bytes go only once no row of either kind references them. lfs_lock is the locks API.
// deploy_key, as Gitea's models/asymkey: a public_key row (key_type 'deploy', unique
// fingerprint across user and deploy keys) shared by every repository it is added to.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE lfs_meta_object (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      oid TEXT NOT NULL,
      size INTEGER NOT NULL,
      repository_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_lfs_meta_object_repo_oid ON lfs_meta_object (repository_id, oid)`,
    sql`CREATE INDEX idx_lfs_meta_object_oid ON lfs_meta_object (oid)`,
    sql`CREATE TABLE lfs_lock (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
      owner_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      lower_path TEXT NOT NULL,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_lfs_lock_repo_path ON lfs_lock (repo_id, lower_path)`,
    sql`CREATE TABLE deploy_key (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      key_id INTEGER NOT NULL REFERENCES public_key (id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      read_only INTEGER NOT NULL DEFAULT 1,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_deploy_key_key_repo ON deploy_key (key_id, repo_id)`,
    sql`CREATE INDEX idx_deploy_key_repo ON deploy_key (repo_id)`,
  ];
  for (const s of statements) await s.execute(db);
}
