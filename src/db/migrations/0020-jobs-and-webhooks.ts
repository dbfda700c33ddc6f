import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The durable job queue, webhooks (Gitea's webhook table) and their deliveries (hook_task).

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // A job waits (pending) until run_at (unix ms); `running` ones found at start were cut short
    // by a crash and run again. Jobs of one non-empty key run one at a time, in id order.
    sql`CREATE TABLE job (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      key TEXT NOT NULL DEFAULT '',
      payload TEXT NOT NULL DEFAULT '{}',
      state TEXT NOT NULL DEFAULT 'pending',
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL DEFAULT 1,
      run_at INTEGER NOT NULL,
      started_at INTEGER NOT NULL DEFAULT 0,
      last_error TEXT NOT NULL DEFAULT '',
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_job_due ON job (state, run_at)`,
    sql`CREATE INDEX idx_job_key ON job (key, id)`,
    // owner_id: an organization's or user's hook; repo_id: a repository's; both 0: a default
    // (is_system_webhook 0) or system (1) hook of the site. Secrets are sealed with the instance key.
    sql`CREATE TABLE webhook (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      repo_id INTEGER NOT NULL DEFAULT 0,
      owner_id INTEGER NOT NULL DEFAULT 0,
      is_system_webhook INTEGER NOT NULL DEFAULT 0,
      type TEXT NOT NULL,
      url TEXT NOT NULL,
      http_method TEXT NOT NULL DEFAULT 'POST',
      content_type INTEGER NOT NULL DEFAULT 1,
      secret_sealed TEXT NOT NULL DEFAULT '',
      authorization_sealed TEXT NOT NULL DEFAULT '',
      events TEXT NOT NULL DEFAULT '{}',
      meta TEXT NOT NULL DEFAULT '{}',
      is_active INTEGER NOT NULL DEFAULT 1,
      last_status INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_webhook_repo ON webhook (repo_id)`,
    sql`CREATE INDEX idx_webhook_owner ON webhook (owner_id)`,
    // One row per delivery (a redelivery is a new row with the same uuid); the payload is the
    // event's JSON, the request and response as sent and received (bodies kept up to 1 MiB).
    sql`CREATE TABLE hook_task (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      hook_id INTEGER NOT NULL,
      uuid TEXT NOT NULL,
      event TEXT NOT NULL,
      event_type TEXT NOT NULL,
      payload_content TEXT NOT NULL,
      is_redelivery INTEGER NOT NULL DEFAULT 0,
      is_delivered INTEGER NOT NULL DEFAULT 0,
      is_succeed INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      status_code INTEGER NOT NULL DEFAULT 0,
      duration_ms INTEGER NOT NULL DEFAULT 0,
      request_content TEXT NOT NULL DEFAULT '',
      response_content TEXT NOT NULL DEFAULT '',
      delivered_unix INTEGER NOT NULL DEFAULT 0,
      created_unix INTEGER NOT NULL
    )`,
    sql`CREATE INDEX idx_hook_task_hook ON hook_task (hook_id, id)`,
    sql`CREATE INDEX idx_hook_task_delivered ON hook_task (is_delivered, delivered_unix)`,
  ];
  for (const s of statements) await s.execute(db);
}
