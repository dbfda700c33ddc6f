import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Gitea Actions (models/actions): runners and their registration tokens, secrets, variables,
// runs -> jobs -> tasks (a task is one attempt of a job on a runner) with steps, outputs and
// log rows, artifacts, schedules. Scope of runners/secrets/variables/tokens: owner_id=0 and
// repo_id=0 instance; owner_id>0 and repo_id=0 that user or org; repo_id>0 that repository.
// Status values everywhere: waiting, blocked, running, success, failure, cancelled, skipped.

const runners = [
  sql`CREATE TABLE action_runner (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    owner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT '',
    version TEXT NOT NULL DEFAULT '',
    token_hash TEXT NOT NULL DEFAULT '',
    token_salt TEXT NOT NULL DEFAULT '',
    labels TEXT NOT NULL DEFAULT '[]',
    ephemeral INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    last_online_unix INTEGER NOT NULL DEFAULT 0,
    last_active_unix INTEGER NOT NULL DEFAULT 0,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    deleted_unix INTEGER
  )`,
  sql`CREATE UNIQUE INDEX idx_action_runner_uuid ON action_runner (uuid)`,
  sql`CREATE INDEX idx_action_runner_token_hash ON action_runner (token_hash)`,
  sql`CREATE INDEX idx_action_runner_scope ON action_runner (owner_id, repo_id)`,
  sql`CREATE TABLE action_runner_token (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token TEXT NOT NULL,
    owner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL DEFAULT 0,
    is_active INTEGER NOT NULL DEFAULT 0,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
  )`,
  sql`CREATE UNIQUE INDEX idx_action_runner_token_token ON action_runner_token (token)`,
  sql`CREATE INDEX idx_action_runner_token_scope ON action_runner_token (owner_id, repo_id)`,
];

const settings = [
  sql`CREATE TABLE action_secret (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL
  )`,
  sql`CREATE UNIQUE INDEX idx_action_secret_scope_name ON action_secret (owner_id, repo_id, name)`,
  sql`CREATE TABLE action_variable (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
  )`,
  sql`CREATE UNIQUE INDEX idx_action_variable_scope_name ON action_variable (owner_id, repo_id, name)`,
  sql`CREATE TABLE action_workflow_state (
    repo_id INTEGER NOT NULL,
    workflow_id TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (repo_id, workflow_id)
  )`,
];

const runs = [
  sql`CREATE TABLE action_run (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    owner_id INTEGER NOT NULL DEFAULT 0,
    run_index INTEGER NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    workflow_id TEXT NOT NULL,
    trigger_user_id INTEGER NOT NULL DEFAULT 0,
    schedule_id INTEGER,
    ref TEXT NOT NULL DEFAULT '',
    commit_sha TEXT NOT NULL DEFAULT '',
    event TEXT NOT NULL DEFAULT '',
    trigger_event TEXT NOT NULL DEFAULT '',
    event_payload TEXT NOT NULL DEFAULT '{}',
    is_fork_pull_request INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    concurrency_group TEXT,
    concurrency_cancel INTEGER NOT NULL DEFAULT 0,
    workflow_error TEXT,
    started_unix INTEGER,
    stopped_unix INTEGER,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
  )`,
  sql`CREATE UNIQUE INDEX idx_action_run_repo_index ON action_run (repo_id, run_index)`,
  sql`CREATE INDEX idx_action_run_repo_created ON action_run (repo_id, created_unix)`,
  sql`CREATE INDEX idx_action_run_status ON action_run (status)`,
  sql`CREATE INDEX idx_action_run_concurrency ON action_run (repo_id, concurrency_group)`,
  sql`CREATE TABLE action_run_job (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES action_run (id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL DEFAULT 0,
    commit_sha TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    job_id TEXT NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    workflow_payload TEXT NOT NULL DEFAULT '',
    needs TEXT NOT NULL DEFAULT '[]',
    runs_on TEXT NOT NULL DEFAULT '[]',
    if_expr TEXT,
    matrix TEXT,
    timeout_minutes INTEGER,
    continue_on_error INTEGER NOT NULL DEFAULT 0,
    task_id INTEGER,
    status TEXT NOT NULL,
    started_unix INTEGER,
    stopped_unix INTEGER,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
  )`,
  sql`CREATE INDEX idx_action_run_job_run ON action_run_job (run_id)`,
  sql`CREATE INDEX idx_action_run_job_status ON action_run_job (status, id)`,
  sql`CREATE INDEX idx_action_run_job_repo ON action_run_job (repo_id, id)`,
];

const tasks = [
  sql`CREATE TABLE action_task (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id INTEGER NOT NULL REFERENCES action_run_job (id) ON DELETE CASCADE,
    attempt INTEGER NOT NULL DEFAULT 0,
    runner_id INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL DEFAULT 0,
    commit_sha TEXT NOT NULL DEFAULT '',
    token_hash TEXT,
    token_salt TEXT NOT NULL DEFAULT '',
    token_last_eight TEXT NOT NULL DEFAULT '',
    log_length INTEGER NOT NULL DEFAULT 0,
    log_size INTEGER NOT NULL DEFAULT 0,
    log_expired INTEGER NOT NULL DEFAULT 0,
    started_unix INTEGER,
    stopped_unix INTEGER,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL
  )`,
  sql`CREATE UNIQUE INDEX idx_action_task_token_hash ON action_task (token_hash)`,
  sql`CREATE INDEX idx_action_task_token_last_eight ON action_task (token_last_eight)`,
  sql`CREATE INDEX idx_action_task_job ON action_task (job_id)`,
  sql`CREATE INDEX idx_action_task_runner_status ON action_task (runner_id, status)`,
  sql`CREATE INDEX idx_action_task_status_updated ON action_task (status, updated_unix)`,
  sql`CREATE INDEX idx_action_task_repo ON action_task (repo_id, id)`,
  sql`CREATE TABLE action_task_step (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    log_index INTEGER NOT NULL DEFAULT 0,
    log_length INTEGER NOT NULL DEFAULT 0,
    started_unix INTEGER,
    stopped_unix INTEGER
  )`,
  sql`CREATE UNIQUE INDEX idx_action_task_step_task_idx ON action_task_step (task_id, idx)`,
  sql`CREATE TABLE action_task_output (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    output_key TEXT NOT NULL,
    output_value TEXT NOT NULL DEFAULT ''
  )`,
  sql`CREATE UNIQUE INDEX idx_action_task_output_task_key ON action_task_output (task_id, output_key)`,
  sql`CREATE TABLE action_task_log (
    task_id INTEGER NOT NULL REFERENCES action_task (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    time_ms INTEGER NOT NULL,
    content TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (task_id, idx)
  )`,
];

const artifactsAndSchedules = [
  sql`CREATE TABLE action_artifact (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES action_run (id) ON DELETE CASCADE,
    runner_id INTEGER NOT NULL DEFAULT 0,
    repo_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL DEFAULT 0,
    commit_sha TEXT NOT NULL DEFAULT '',
    artifact_name TEXT NOT NULL,
    artifact_path TEXT NOT NULL DEFAULT '',
    storage_path TEXT NOT NULL DEFAULT '',
    file_size INTEGER NOT NULL DEFAULT 0,
    file_compressed_size INTEGER NOT NULL DEFAULT 0,
    content_encoding TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    created_unix INTEGER NOT NULL,
    updated_unix INTEGER NOT NULL,
    expired_unix INTEGER NOT NULL DEFAULT 0
  )`,
  sql`CREATE INDEX idx_action_artifact_run_name ON action_artifact (run_id, artifact_name)`,
  sql`CREATE INDEX idx_action_artifact_repo ON action_artifact (repo_id, id)`,
  sql`CREATE INDEX idx_action_artifact_expired ON action_artifact (status, expired_unix)`,
  sql`CREATE TABLE action_schedule (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    repo_id INTEGER NOT NULL REFERENCES repository (id) ON DELETE CASCADE,
    owner_id INTEGER NOT NULL DEFAULT 0,
    workflow_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    trigger_user_id INTEGER NOT NULL DEFAULT 0,
    ref TEXT NOT NULL DEFAULT '',
    commit_sha TEXT NOT NULL DEFAULT '',
    event TEXT NOT NULL DEFAULT '',
    event_payload TEXT NOT NULL DEFAULT '{}',
    content TEXT NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL
  )`,
  sql`CREATE INDEX idx_action_schedule_repo ON action_schedule (repo_id)`,
  sql`CREATE TABLE action_schedule_spec (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    schedule_id INTEGER NOT NULL REFERENCES action_schedule (id) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL,
    spec TEXT NOT NULL,
    next_unix INTEGER NOT NULL DEFAULT 0,
    prev_unix INTEGER NOT NULL DEFAULT 0
  )`,
  sql`CREATE INDEX idx_action_schedule_spec_next ON action_schedule_spec (next_unix)`,
  sql`CREATE INDEX idx_action_schedule_spec_schedule ON action_schedule_spec (schedule_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of [...runners, ...settings, ...runs, ...tasks, ...artifactsAndSchedules]) await s.execute(db);
}
