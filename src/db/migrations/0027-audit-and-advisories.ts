import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The audit log (one row per security-relevant operation, written in the transaction of the
// change), the imported OSV advisory database, and per-repository dependency alerts.
// Audit rows keep names beside ids on purpose: they must still read after the user, repository
// or organization is renamed or deleted, so there are no foreign keys.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      operation_type TEXT NOT NULL,
      operator_id INTEGER NOT NULL DEFAULT 0,
      operator_name TEXT NOT NULL DEFAULT '',
      target_type TEXT NOT NULL DEFAULT '',
      target_id INTEGER NOT NULL DEFAULT 0,
      target_name TEXT NOT NULL DEFAULT '',
      owner_id INTEGER NOT NULL DEFAULT 0,
      owner_name TEXT NOT NULL DEFAULT '',
      repo_id INTEGER NOT NULL DEFAULT 0,
      repo_name TEXT NOT NULL DEFAULT '',
      ip_address TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL,
      message TEXT NOT NULL DEFAULT '',
      extra TEXT NOT NULL DEFAULT '{}'
    )`,
    // The filters of /admin/audit-logs, newest first: an index ends with the rowid, so one on
    // (operation_type) or (operator_id) also serves the order by id and the export's keyset.
    // Retention deletes by created_unix.
    sql`CREATE INDEX idx_audit_log_created ON audit_log (created_unix)`,
    sql`CREATE INDEX idx_audit_log_operation ON audit_log (operation_type)`,
    sql`CREATE INDEX idx_audit_log_operator ON audit_log (operator_id)`,
    sql`CREATE TABLE advisory (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      osv_id TEXT NOT NULL,
      summary TEXT NOT NULL DEFAULT '',
      severity TEXT NOT NULL DEFAULT '',
      ecosystem TEXT NOT NULL,
      package TEXT NOT NULL,
      affected TEXT NOT NULL DEFAULT '[]',
      published_unix INTEGER NOT NULL DEFAULT 0,
      modified_unix INTEGER NOT NULL DEFAULT 0
    )`,
    // One OSV entry may name several packages: one row for each, so matching is one indexed lookup.
    sql`CREATE UNIQUE INDEX idx_advisory_osv ON advisory (osv_id, ecosystem, package)`,
    sql`CREATE INDEX idx_advisory_package ON advisory (ecosystem, package)`,
    sql`CREATE TABLE dependency_alert (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
      "index" INTEGER NOT NULL,
      advisory_id INTEGER NOT NULL REFERENCES advisory (id) ON DELETE CASCADE,
      ecosystem TEXT NOT NULL,
      package TEXT NOT NULL,
      version TEXT NOT NULL,
      manifest_path TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'open',
      dismiss_reason TEXT NOT NULL DEFAULT '',
      dismissed_by INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL,
      fixed_unix INTEGER NOT NULL DEFAULT 0
    )`,
    sql`CREATE UNIQUE INDEX idx_dependency_alert_index ON dependency_alert (repo_id, "index")`,
    sql`CREATE INDEX idx_dependency_alert_state ON dependency_alert (repo_id, state)`,
    sql`CREATE INDEX idx_dependency_alert_advisory ON dependency_alert (advisory_id)`,
  ];
  for (const s of statements) await s.execute(db);
}
