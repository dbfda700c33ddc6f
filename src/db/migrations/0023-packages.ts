import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Package registries, as Gitea's models/packages: a package (owner, type, name) has versions,
// a version has files, a file points at a content-addressed blob (one row per sha256, the bytes
// under <data_dir>/packages/blobs). Properties hang off a version (0), file (1) or package (2).
// package_blob_upload holds chunked upload sessions (the container registry's).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE package (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
      repo_id INTEGER NOT NULL DEFAULT 0,
      type TEXT NOT NULL,
      name TEXT NOT NULL,
      lower_name TEXT NOT NULL,
      semver_compatible INTEGER NOT NULL DEFAULT 0,
      is_internal INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_package_owner_type_name ON package (owner_id, type, lower_name)`,
    sql`CREATE INDEX idx_package_repo ON package (repo_id)`,
    sql`CREATE TABLE package_version (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      package_id INTEGER NOT NULL REFERENCES package (id) ON DELETE CASCADE,
      creator_id INTEGER NOT NULL DEFAULT 0,
      version TEXT NOT NULL,
      lower_version TEXT NOT NULL,
      created_unix INTEGER NOT NULL,
      is_internal INTEGER NOT NULL DEFAULT 0,
      metadata_json TEXT NOT NULL DEFAULT '',
      download_count INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_package_version_package_version ON package_version (package_id, lower_version)`,
    sql`CREATE TABLE package_blob (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      size INTEGER NOT NULL DEFAULT 0,
      hash_md5 TEXT NOT NULL,
      hash_sha1 TEXT NOT NULL,
      hash_sha256 TEXT NOT NULL,
      hash_sha512 TEXT NOT NULL,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_package_blob_sha256 ON package_blob (hash_sha256)`,
    // A blob outlives its files: cleanup_packages removes the ones no file references.
    sql`CREATE TABLE package_file (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      version_id INTEGER NOT NULL REFERENCES package_version (id) ON DELETE CASCADE,
      blob_id INTEGER NOT NULL REFERENCES package_blob (id),
      name TEXT NOT NULL,
      lower_name TEXT NOT NULL,
      composite_key TEXT NOT NULL DEFAULT '',
      is_lead INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_package_file_version_name_key ON package_file (version_id, lower_name, composite_key)`,
    sql`CREATE INDEX idx_package_file_blob ON package_file (blob_id)`,
    sql`CREATE TABLE package_property (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      ref_type INTEGER NOT NULL,
      ref_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      value TEXT NOT NULL DEFAULT ''
    )`,
    sql`CREATE INDEX idx_package_property_ref ON package_property (ref_type, ref_id, name)`,
    sql`CREATE TABLE package_blob_upload (
      id TEXT PRIMARY KEY,
      bytes_received INTEGER NOT NULL DEFAULT 0,
      hash_state TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_package_blob_upload_updated ON package_blob_upload (updated_unix)`,
  ];
  for (const s of statements) await s.execute(db);
}
