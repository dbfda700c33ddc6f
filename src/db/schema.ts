import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Times are unix seconds, as Gitea stores them; convert/ renders ISO 8601.

export type UserType = 0 | 1; // 0 individual, 1 organization
export type Visibility = 0 | 1 | 2; // public, limited, private

export interface UserTable {
  id: Generated<number>;
  lower_name: string;
  name: string;
  full_name: Generated<string>;
  email: string;
  keep_email_private: Generated<number>;
  passwd: Generated<string>;
  passwd_hash_algo: Generated<string>;
  must_change_password: Generated<number>;
  /** The password was made and printed by hearth (the first admin's): the web asks for a new one. */
  password_printed: Generated<number>;
  login_source: Generated<number>;
  login_name: Generated<string>;
  type: Generated<number>;
  location: Generated<string>;
  website: Generated<string>;
  description: Generated<string>;
  language: Generated<string>;
  theme: Generated<string>;
  diff_view_style: Generated<string>;
  is_active: Generated<number>;
  is_admin: Generated<number>;
  is_restricted: Generated<number>;
  prohibit_login: Generated<number>;
  allow_git_hook: Generated<number>;
  allow_import_local: Generated<number>;
  allow_create_organization: Generated<number>;
  hide_activity: Generated<number>;
  visibility: Generated<number>;
  max_repo_creation: Generated<number>;
  num_followers: Generated<number>;
  num_following: Generated<number>;
  num_stars: Generated<number>;
  num_repos: Generated<number>;
  created_unix: number;
  updated_unix: number;
  last_login_unix: Generated<number>;
  /** Organizations only: may repository admins add or remove teams. */
  repo_admin_change_team_access: Generated<number>;
  /** Hash of an uploaded avatar (file under <data_dir>/avatars/<id>); empty: generated. */
  avatar: Generated<string>;
  /** The web pages' single-key shortcuts (1 on, 0 off). */
  keyboard_shortcuts: Generated<number>;
}

/** A signed-in browser: the SHA-256 of its cookie's id, never the id. */
export interface WebSessionTable {
  id: Generated<number>;
  key_hash: string;
  uid: number;
  created_unix: number;
  last_seen_unix: number;
  expires_unix: number;
  remember: Generated<number>;
  ip: Generated<string>;
  user_agent: Generated<string>;
}

export interface EmailAddressTable {
  id: Generated<number>;
  uid: number;
  email: string;
  lower_email: string;
  is_activated: Generated<number>;
  is_primary: Generated<number>;
}

export interface AccessTokenTable {
  id: Generated<number>;
  uid: number;
  name: string;
  token_hash: string;
  token_last_eight: string;
  scope: string;
  created_unix: number;
  updated_unix: number;
}

export interface RepositoryTable {
  id: Generated<number>;
  owner_id: number;
  owner_name: string;
  lower_name: string;
  name: string;
  description: Generated<string>;
  website: Generated<string>;
  original_url: Generated<string>;
  default_branch: string;
  object_format_name: Generated<string>;
  is_private: Generated<number>;
  is_empty: Generated<number>;
  is_archived: Generated<number>;
  is_mirror: Generated<number>;
  is_fork: Generated<number>;
  fork_id: Generated<number | null>;
  is_template: Generated<number>;
  template_id: Generated<number | null>;
  num_watches: Generated<number>;
  num_stars: Generated<number>;
  num_forks: Generated<number>;
  num_issues: Generated<number>;
  num_closed_issues: Generated<number>;
  num_pulls: Generated<number>;
  num_closed_pulls: Generated<number>;
  num_milestones: Generated<number>;
  num_closed_milestones: Generated<number>;
  num_releases: Generated<number>;
  size: Generated<number>;
  /** JSON array of strings. */
  topics: Generated<string>;
  /** SPDX identifiers of the default branch's license files, a JSON array (0029). */
  licenses: Generated<string>;
  /** JSON object: see services/repo-settings.ts. */
  settings: Generated<string>;
  created_unix: number;
  updated_unix: number;
  archived_unix: Generated<number>;
  /** Hash of an uploaded avatar (file under <data_dir>/avatars/repo/<hash>); empty: none. */
  avatar: Generated<string>;
}

/** An old name of a renamed user or organization (Gitea's user_redirect). */
export interface UserRedirectTable {
  id: Generated<number>;
  lower_name: string;
  redirect_user_id: number;
}

export interface RepoRedirectTable {
  id: Generated<number>;
  owner_id: number;
  lower_name: string;
  redirect_repo_id: number;
}

export interface BranchTable {
  id: Generated<number>;
  repo_id: number;
  name: string;
  commit_id: string;
  commit_message: Generated<string>;
  commit_unix: Generated<number>;
  pusher_id: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** A branch deleted by a push or through hearth, restorable while its commit is kept. */
export interface DeletedBranchTable {
  id: Generated<number>;
  repo_id: number;
  name: string;
  commit_id: string;
  deleted_by_id: Generated<number>;
  deleted_unix: number;
}

export interface CollaborationTable {
  id: Generated<number>;
  repo_id: number;
  user_id: number;
  mode: number;
  created_unix: number;
  updated_unix: number;
}

/** A topic name's identity and times; repositories list theirs in repository.topics. */
export interface TopicTable { id: Generated<number>; name: string; created_unix: number; updated_unix: number }

export interface StarTable { uid: number; repo_id: number; created_unix: number }
export interface WatchTable { uid: number; repo_id: number; created_unix: number }

export interface ProtectedBranchTable {
  id: Generated<number>;
  repo_id: number;
  rule_name: string;
  priority: Generated<number>;
  settings: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

export interface ProtectedTagTable {
  id: Generated<number>;
  repo_id: number;
  name_pattern: string;
  allowlist_user_ids: Generated<string>;
  allowlist_team_ids: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

export interface CommitStatusTable {
  id: Generated<number>;
  repo_id: number;
  sha: string;
  idx: number;
  state: string;
  target_url: Generated<string>;
  description: Generated<string>;
  context: Generated<string>;
  creator_id: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

export interface RepoTransferTable {
  id: Generated<number>;
  repo_id: number;
  doer_id: number;
  recipient_id: number;
  team_ids: Generated<string>;
  created_unix: number;
}

export interface OrgUserTable { id: Generated<number>; uid: number; org_id: number; is_public: Generated<number> }

export interface TeamTable {
  id: Generated<number>;
  org_id: number;
  lower_name: string;
  name: string;
  description: Generated<string>;
  /** Access mode of the team (1 read .. 4 owner: the Owners team). */
  authorize: Generated<number>;
  num_repos: Generated<number>;
  num_members: Generated<number>;
  includes_all_repositories: Generated<number>;
  can_create_org_repo: Generated<number>;
  /** public, limited or private: who may list the team. */
  visibility: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

export interface TeamUserTable { id: Generated<number>; org_id: number; team_id: number; uid: number }
export interface TeamRepoTable { id: Generated<number>; org_id: number; team_id: number; repo_id: number }
/** Per-unit mode of a team: type is a unit key such as `repo.code`. */
export interface TeamUnitTable { id: Generated<number>; org_id: number; team_id: number; type: string; access_mode: number }
export interface FollowTable { id: Generated<number>; user_id: number; follow_id: number; created_unix: number }
export interface UserBlockTable { id: Generated<number>; blocker_id: number; blockee_id: number; note: Generated<string>; created_unix: number }

export interface PublicKeyTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  fingerprint: string;
  content: string;
  key_type: Generated<string>;
  read_only: Generated<number>;
  created_unix: number;
  updated_unix: number;
  /** 1 once the owner signed the verification token with the key. */
  verified: Generated<number>;
}

export interface GpgKeyTable {
  id: Generated<number>;
  owner_id: number;
  key_id: string;
  primary_key_id: Generated<string>;
  content: string;
  /** JSON array of addresses. */
  emails: Generated<string>;
  can_sign: Generated<number>;
  can_encrypt_comms: Generated<number>;
  can_encrypt_storage: Generated<number>;
  can_certify: Generated<number>;
  verified: Generated<number>;
  created_unix: number;
  expired_unix: Generated<number>;
}

export interface LabelTable {
  id: Generated<number>;
  /** Exactly one of repo_id and org_id is set. */
  repo_id: number | null;
  org_id: number | null;
  name: string;
  exclusive: Generated<number>;
  is_archived: Generated<number>;
  description: Generated<string>;
  color: string;
  num_issues: Generated<number>;
  num_closed_issues: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** Activity feed entries, as Gitea's action table: one row per receiver. */
export interface ActionTable {
  id: Generated<number>;
  user_id: number;
  op_type: number;
  act_user_id: number;
  repo_id: Generated<number>;
  comment_id: Generated<number>;
  ref_name: Generated<string>;
  is_private: Generated<number>;
  content: Generated<string>;
  created_unix: number;
}

// Issues and pull requests (0011): times are unix seconds.
export interface MilestoneTable {
  id: Generated<number>; repo_id: number; name: string; content: Generated<string>; is_closed: Generated<number>;
  num_issues: Generated<number>; num_closed_issues: Generated<number>; deadline_unix: Generated<number>;
  closed_unix: Generated<number>; created_unix: number; updated_unix: number;
}
export interface IssueTable {
  id: Generated<number>; repo_id: number; index: number; poster_id: number; title: string;
  content: Generated<string>; content_version: Generated<number>; milestone_id: Generated<number | null>;
  is_closed: Generated<number>; is_pull: Generated<number>; is_locked: Generated<number>;
  num_comments: Generated<number>; ref: Generated<string>; pin_order: Generated<number>;
  time_estimate: Generated<number>; deadline_unix: Generated<number>; created_unix: number;
  updated_unix: number; closed_unix: Generated<number>;
  original_author: Generated<string>; original_author_id: Generated<number>;
}
export interface IssueLabelTable { id: Generated<number>; issue_id: number; label_id: number }
export interface IssueAssigneeTable { id: Generated<number>; issue_id: number; assignee_id: number }
export interface CommentTable {
  id: Generated<number>; type: Generated<number>; issue_id: number; poster_id: number; content: Generated<string>;
  content_version: Generated<number>; label_id: Generated<number>; milestone_id: Generated<number>;
  old_milestone_id: Generated<number>; assignee_id: Generated<number>; removed_assignee: Generated<number>;
  dependent_issue_id: Generated<number>; ref_issue_id: Generated<number>; old_title: Generated<string>;
  new_title: Generated<string>; commit_sha: Generated<string>;
  /** JSON object for event details that need no column. */
  meta: Generated<string>; created_unix: number; updated_unix: number;
  original_author: Generated<string>; original_author_id: Generated<number>;
}
export interface ReactionTable {
  id: Generated<number>; type: string; issue_id: number; comment_id: Generated<number>; user_id: number; created_unix: number;
  original_author: Generated<string>; original_author_id: Generated<number>;
}
export interface AttachmentTable {
  id: Generated<number>; uuid: string; repo_id: Generated<number>; issue_id: Generated<number>;
  comment_id: Generated<number>; release_id: Generated<number>; uploader_id: Generated<number>; name: string;
  download_count: Generated<number>; size: Generated<number>; created_unix: number;
}
export interface IssueDependencyTable { id: Generated<number>; user_id: number; issue_id: number; dependency_id: number; created_unix: number }
export interface StopwatchTable { id: Generated<number>; issue_id: number; user_id: number; created_unix: number }
export interface TrackedTimeTable { id: Generated<number>; issue_id: number; user_id: number; time: number; deleted: Generated<number>; created_unix: number }
export interface IssueWatchTable { id: Generated<number>; user_id: number; issue_id: number; is_watching: number; created_unix: number; updated_unix: number }
export interface NotificationTable {
  id: Generated<number>; user_id: number; repo_id: number; status: number; source: number;
  issue_id: Generated<number>; commit_id: Generated<string>; comment_id: Generated<number>;
  updated_by: Generated<number>; created_unix: number; updated_unix: number;
}

/** Per-repository issue number counter (0012): numbers are never reused. */
export interface IssueIndexTable { group_id: number; max_index: number }

/** A release (0014); `is_tag` rows are tags whose release was deleted, hidden from the API. */
export interface ReleaseTable {
  id: Generated<number>; repo_id: number; publisher_id: number; tag_name: string; lower_tag_name: string;
  target: string; title: string; note: string; sha1: string; num_commits: Generated<number>;
  is_draft: number; is_prerelease: number; is_tag: Generated<number>; created_unix: number; updated_unix: number;
  original_author: Generated<string>; original_author_id: Generated<number>;
}

/** A durable job (0020): run_at and started_at in unix ms. */
export interface JobTable {
  id: Generated<number>; kind: string; key: Generated<string>; payload: Generated<string>; state: Generated<string>;
  attempts: Generated<number>; max_attempts: Generated<number>; run_at: number; started_at: Generated<number>;
  last_error: Generated<string>; created_unix: number;
  /** The node running it and until when its claim holds (unix ms, database time): PostgreSQL's leases (0052). */
  locked_by: Generated<string>; lease_until: Generated<number>;
}
export type Job = Selectable<JobTable>;

/** A live hearth node on PostgreSQL (0052): its heartbeat (unix ms, database time) every few seconds. */
export interface NodeTable { id: string; host: string; pid: number; started: number; heartbeat: number; pid_scope: Generated<string> }

/** One cron run of the cluster (0053): unique per task and slot; times in unix ms. */
export interface CronRunTable {
  id: Generated<number>; task: string; slot: string; node: Generated<string>; reason: Generated<string>;
  status: Generated<string>; message: Generated<string>; started: number; finished: Generated<number>; ms: Generated<number>;
}
export type CronRun = Selectable<CronRunTable>;

/** A webhook (0020): of a repository, an owner (organization or user), or the site (default or system). */
export interface WebhookTable {
  id: Generated<number>; repo_id: Generated<number>; owner_id: Generated<number>; is_system_webhook: Generated<number>;
  type: string; url: string; http_method: Generated<string>; content_type: Generated<number>;
  secret_sealed: Generated<string>; authorization_sealed: Generated<string>; events: Generated<string>; meta: Generated<string>;
  is_active: Generated<number>; last_status: Generated<number>; created_unix: number; updated_unix: number;
}
export type Webhook = Selectable<WebhookTable>;

/** One delivery of a webhook (0020); delivered_unix in unix ms. */
export interface HookTaskTable {
  id: Generated<number>; hook_id: number; uuid: string; event: string; event_type: string; payload_content: string;
  is_redelivery: Generated<number>; is_delivered: Generated<number>; is_succeed: Generated<number>; attempts: Generated<number>;
  status_code: Generated<number>; duration_ms: Generated<number>; request_content: Generated<string>;
  response_content: Generated<string>; delivered_unix: Generated<number>; created_unix: number;
}
export type HookTask = Selectable<HookTaskTable>;

/** A pull mirror's remote and schedule (Gitea's mirror table); credentials sealed with the instance key. */
export interface MirrorTable {
  id: Generated<number>; repo_id: number; remote_address: string; credentials_sealed: Generated<string>;
  interval_seconds: Generated<number>; enable_prune: Generated<number>; updated_unix: Generated<number>;
  next_update_unix: Generated<number>; last_error: Generated<string>;
  /** Fetch the LFS objects of the refs on every sync (0031). */
  lfs: Generated<number>; lfs_endpoint: Generated<string>;
}
export interface PushMirrorTable {
  id: Generated<number>; repo_id: number; remote_name: string; remote_address: string;
  credentials_sealed: Generated<string>; sync_on_commit: Generated<number>; interval_seconds: Generated<number>;
  created_unix: number; last_update_unix: Generated<number>; last_error: Generated<string>;
}
export type Mirror = Selectable<MirrorTable>;
export type PushMirror = Selectable<PushMirrorTable>;

// Package registries (migration 0023), as Gitea's models/packages.
export interface PackageTable {
  id: Generated<number>; owner_id: number; repo_id: Generated<number>; type: string; name: string; lower_name: string;
  semver_compatible: Generated<number>; is_internal: Generated<number>;
}
export interface PackageVersionTable {
  id: Generated<number>; package_id: number; creator_id: Generated<number>; version: string; lower_version: string;
  created_unix: number; is_internal: Generated<number>; metadata_json: Generated<string>; download_count: Generated<number>;
}
export interface PackageFileTable {
  id: Generated<number>; version_id: number; blob_id: number; name: string; lower_name: string;
  composite_key: Generated<string>; is_lead: Generated<number>; created_unix: number;
}
export interface PackageBlobTable {
  id: Generated<number>; size: number; hash_md5: string; hash_sha1: string; hash_sha256: string; hash_sha512: string; created_unix: number;
}
/** ref_type: 0 version, 1 file, 2 package. */
export interface PackagePropertyTable { id: Generated<number>; ref_type: number; ref_id: number; name: string; value: Generated<string> }
export interface PackageBlobUploadTable {
  id: string; bytes_received: Generated<number>; hash_state: Generated<string>; created_unix: number; updated_unix: number;
  /** The blob storage's state of the session (migration 0054; '' on local disk). */
  store_state: Generated<string>;
}
/** kind: 'openpgp' (apt, rpm, pacman) or 'rsa' (alpine); the private key sealed (migration 0045). */
export interface PackageSigningKeyTable {
  id: Generated<number>; owner_id: number; kind: string; public_key: string; private_key_sealed: string;
  fingerprint: Generated<string>; created_unix: number;
}

// Git LFS and deploy keys (migration 0025).
export interface LfsMetaObjectTable {
  id: Generated<number>; oid: string; size: number; repository_id: number; created_unix: number; updated_unix: number;
}
export interface LfsLockTable { id: Generated<number>; repo_id: number; owner_id: number; path: string; lower_path: string; created_unix: number }
export interface DeployKeyTable {
  id: Generated<number>; key_id: number; repo_id: number; name: string; fingerprint: string;
  read_only: Generated<number>; created_unix: number; updated_unix: number;
}
export type LfsMetaObject = Selectable<LfsMetaObjectTable>;
export type LfsLock = Selectable<LfsLockTable>;
export type DeployKey = Selectable<DeployKeyTable>;

// Gitea Actions (migration 0024). Scope: owner_id=0 and repo_id=0 instance; owner_id>0, repo_id=0
// that user or org; repo_id>0 that repository. Status: waiting, blocked, running, success,
// failure, cancelled, skipped.
export type ActionStatus = 'waiting' | 'blocked' | 'running' | 'success' | 'failure' | 'cancelled' | 'skipped';
export interface ActionRunnerTable {
  id: Generated<number>; uuid: string; name: Generated<string>; owner_id: Generated<number>; repo_id: Generated<number>;
  description: Generated<string>; version: Generated<string>; token_hash: Generated<string>; token_salt: Generated<string>;
  /** JSON array of strings. */
  labels: Generated<string>; ephemeral: Generated<number>; disabled: Generated<number>;
  last_online_unix: Generated<number>; last_active_unix: Generated<number>;
  created_unix: number; updated_unix: number; deleted_unix: number | null;
}
export interface ActionRunnerTokenTable {
  id: Generated<number>; token: string; owner_id: Generated<number>; repo_id: Generated<number>;
  is_active: Generated<number>; created_unix: number; updated_unix: number;
}
export interface ActionSecretTable {
  id: Generated<number>; owner_id: Generated<number>; repo_id: Generated<number>; name: string;
  /** seal(instanceSecret, 'actions-secret', value). */
  data: Generated<string>; description: Generated<string>; created_unix: number;
}
export interface ActionVariableTable {
  id: Generated<number>; owner_id: Generated<number>; repo_id: Generated<number>; name: string;
  data: Generated<string>; description: Generated<string>; created_unix: number; updated_unix: number;
}
export interface ActionWorkflowStateTable { repo_id: number; workflow_id: string; disabled: Generated<number> }
export interface ActionRunTable {
  id: Generated<number>; repo_id: number; owner_id: Generated<number>; run_index: number; title: Generated<string>;
  workflow_id: string; trigger_user_id: Generated<number>; schedule_id: number | null; ref: Generated<string>;
  commit_sha: Generated<string>; event: Generated<string>; trigger_event: Generated<string>;
  /** JSON. */
  event_payload: Generated<string>; is_fork_pull_request: Generated<number>; status: string;
  concurrency_group: string | null; concurrency_cancel: Generated<number>; workflow_error: string | null;
  started_unix: number | null; stopped_unix: number | null; created_unix: number; updated_unix: number;
  /** A fork pull request's run held until a writer approves it; approved_by: who did (0: nobody). */
  need_approval: Generated<number>; approved_by: Generated<number>;
}
export interface ActionRunJobTable {
  id: Generated<number>; run_id: number; repo_id: number; owner_id: Generated<number>; commit_sha: Generated<string>;
  name: Generated<string>; job_id: string; attempt: Generated<number>; workflow_payload: Generated<string>;
  /** JSON arrays. */
  needs: Generated<string>; runs_on: Generated<string>; if_expr: string | null; matrix: string | null;
  timeout_minutes: number | null; continue_on_error: Generated<number>; task_id: number | null; status: string;
  started_unix: number | null; stopped_unix: number | null; created_unix: number; updated_unix: number;
  /** Job-level concurrency (0032): the declaration as JSON ('' for none), and once evaluated its group. */
  raw_concurrency: Generated<string>; concurrency_group: Generated<string>; concurrency_cancel: Generated<number>;
  /** strategy.max-parallel (0034): 0 for no limit. */
  max_parallel: Generated<number>;
}
export interface ActionTaskTable {
  id: Generated<number>; job_id: number; attempt: Generated<number>; runner_id: Generated<number>; status: string;
  repo_id: number; owner_id: Generated<number>; commit_sha: Generated<string>; token_hash: string | null;
  token_salt: Generated<string>; token_last_eight: Generated<string>; log_length: Generated<number>;
  log_size: Generated<number>; log_expired: Generated<number>; started_unix: number | null; stopped_unix: number | null;
  created_unix: number; updated_unix: number;
}
export interface ActionTaskStepTable {
  id: Generated<number>; task_id: number; idx: number; name: Generated<string>; status: string;
  log_index: Generated<number>; log_length: Generated<number>; started_unix: number | null; stopped_unix: number | null;
}
export interface ActionTaskOutputTable { id: Generated<number>; task_id: number; output_key: string; output_value: Generated<string> }
export interface ActionTaskLogTable { task_id: number; idx: number; time_ms: number; content: Generated<string> }
export interface ActionArtifactTable {
  id: Generated<number>; run_id: number; runner_id: Generated<number>; repo_id: number; owner_id: Generated<number>;
  commit_sha: Generated<string>; artifact_name: string; artifact_path: Generated<string>; storage_path: Generated<string>;
  file_size: Generated<number>; file_compressed_size: Generated<number>; content_encoding: Generated<string>;
  status: string; created_unix: number; updated_unix: number; expired_unix: Generated<number>;
}
export interface ActionScheduleTable {
  id: Generated<number>; repo_id: number; owner_id: Generated<number>; workflow_id: string; title: Generated<string>;
  trigger_user_id: Generated<number>; ref: Generated<string>; commit_sha: Generated<string>; event: Generated<string>;
  event_payload: Generated<string>; content: Generated<string>; created_unix: number;
}
export interface ActionScheduleSpecTable {
  id: Generated<number>; schedule_id: number; repo_id: number; spec: string; next_unix: Generated<number>; prev_unix: Generated<number>;
}
export type ActionRunner = Selectable<ActionRunnerTable>;
export type ActionRunnerToken = Selectable<ActionRunnerTokenTable>;
export type ActionSecret = Selectable<ActionSecretTable>;
export type ActionVariable = Selectable<ActionVariableTable>;
export type ActionWorkflowState = Selectable<ActionWorkflowStateTable>;
export type ActionRun = Selectable<ActionRunTable>;
export type ActionRunJob = Selectable<ActionRunJobTable>;
export type ActionTask = Selectable<ActionTaskTable>;
export type ActionTaskStep = Selectable<ActionTaskStepTable>;
export type ActionTaskOutput = Selectable<ActionTaskOutputTable>;
export type ActionTaskLog = Selectable<ActionTaskLogTable>;
export type ActionArtifact = Selectable<ActionArtifactTable>;
export type ActionSchedule = Selectable<ActionScheduleTable>;
export type ActionScheduleSpec = Selectable<ActionScheduleSpecTable>;

export interface AuditLogTable {
  id: Generated<number>; operation_type: string; operator_id: number; operator_name: string;
  target_type: string; target_id: number; target_name: string; owner_id: number; owner_name: string;
  repo_id: number; repo_name: string; ip_address: string; created_unix: number; message: string;
  /** JSON object. */
  extra: string;
}
export type AuditLog = Selectable<AuditLogTable>;
export interface AdvisoryTable {
  id: Generated<number>; osv_id: string; summary: string; severity: string; ecosystem: string; package: string;
  /** JSON: the OSV `ranges` and `versions` of this package. */
  affected: string;
  published_unix: number; modified_unix: number;
}
export type Advisory = Selectable<AdvisoryTable>;
export interface DependencyAlertTable {
  id: Generated<number>; repo_id: number; index: number; advisory_id: number; ecosystem: string; package: string;
  version: string; manifest_path: string; state: Generated<string>; dismiss_reason: Generated<string>;
  dismissed_by: Generated<number>; created_unix: number; updated_unix: number; fixed_unix: Generated<number>;
}
export type DependencyAlert = Selectable<DependencyAlertTable>;

export interface UserKeypairTable {
  user_id: number;
  public_pem: string;
  private_sealed: string;
  created_unix: number;
}

/** Two-step disk and database work begun and not yet completed (0036; services/recovery). */
export interface PendingOpTable {
  id: Generated<number>; kind: string; payload: string; created_unix: number;
  /** The node that recorded or adopted it ('' before 0055); lease_until: an adopter's claim, unix ms. */
  owner: Generated<string>; lease_until: Generated<number>;
}
export type PendingOp = Selectable<PendingOpTable>;

/** Gitea's user_setting: a value per user and key (0044; Chef's chef.public_pem). */
export interface UserSettingTable {
  id: Generated<number>; user_id: number; setting_key: string; setting_value: Generated<string>;
}

export interface Database {
  deleted_branch: DeletedBranchTable;
  web_session: WebSessionTable;
  pending_op: PendingOpTable;
  user_setting: UserSettingTable;
  user_keypair: UserKeypairTable;
  user: UserTable;
  email_address: EmailAddressTable;
  access_token: AccessTokenTable;
  repository: RepositoryTable;
  repo_redirect: RepoRedirectTable;
  user_redirect: UserRedirectTable;
  branch: BranchTable;
  collaboration: CollaborationTable;
  star: StarTable;
  watch: WatchTable;
  topic: TopicTable;
  protected_branch: ProtectedBranchTable;
  protected_tag: ProtectedTagTable;
  commit_status: CommitStatusTable;
  repo_transfer: RepoTransferTable;
  org_user: OrgUserTable;
  team: TeamTable;
  team_user: TeamUserTable;
  team_repo: TeamRepoTable;
  team_unit: TeamUnitTable;
  follow: FollowTable;
  user_block: UserBlockTable;
  public_key: PublicKeyTable;
  gpg_key: GpgKeyTable;
  label: LabelTable;
  action: ActionTable;
  milestone: MilestoneTable;
  issue: IssueTable;
  issue_label: IssueLabelTable;
  issue_assignee: IssueAssigneeTable;
  comment: CommentTable;
  reaction: ReactionTable;
  attachment: AttachmentTable;
  issue_dependency: IssueDependencyTable;
  stopwatch: StopwatchTable;
  tracked_time: TrackedTimeTable;
  issue_watch: IssueWatchTable;
  notification: NotificationTable;
  issue_index: IssueIndexTable;
  release: ReleaseTable;
  pull_request: PullRequestTable;
  review: ReviewTable;
  review_comment: ReviewCommentTable;
  pull_viewed_file: PullViewedFileTable;
  job: JobTable;
  node: NodeTable;
  cron_run: CronRunTable;
  webhook: WebhookTable;
  hook_task: HookTaskTable;
  mirror: MirrorTable;
  push_mirror: PushMirrorTable;
  package: PackageTable;
  package_version: PackageVersionTable;
  package_file: PackageFileTable;
  package_blob: PackageBlobTable;
  package_property: PackagePropertyTable;
  package_blob_upload: PackageBlobUploadTable;
  package_signing_key: PackageSigningKeyTable;
  lfs_meta_object: LfsMetaObjectTable;
  lfs_lock: LfsLockTable;
  deploy_key: DeployKeyTable;
  action_runner: ActionRunnerTable;
  action_runner_token: ActionRunnerTokenTable;
  action_secret: ActionSecretTable;
  action_variable: ActionVariableTable;
  action_workflow_state: ActionWorkflowStateTable;
  action_run: ActionRunTable;
  action_run_job: ActionRunJobTable;
  action_task: ActionTaskTable;
  action_task_step: ActionTaskStepTable;
  action_task_output: ActionTaskOutputTable;
  action_task_log: ActionTaskLogTable;
  action_artifact: ActionArtifactTable;
  action_schedule: ActionScheduleTable;
  action_schedule_spec: ActionScheduleSpecTable;
  audit_log: AuditLogTable;
  advisory: AdvisoryTable;
  dependency_alert: DependencyAlertTable;
  oauth2_application: OAuth2ApplicationTable;
  oauth2_grant: OAuth2GrantTable;
  oauth2_authorization_code: OAuth2AuthorizationCodeTable;
  oauth2_signing_key: OAuth2SigningKeyTable;
  badge: BadgeTable;
  user_badge: UserBadgeTable;
}

export type User = Selectable<UserTable>;
export type WebSession = Selectable<WebSessionTable>;
export type DeletedBranch = Selectable<DeletedBranchTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type EmailAddress = Selectable<EmailAddressTable>;
export type AccessToken = Selectable<AccessTokenTable>;
export type Repository = Selectable<RepositoryTable>;
export type NewRepository = Insertable<RepositoryTable>;
export type RepositoryUpdate = Updateable<RepositoryTable>;
export type Branch = Selectable<BranchTable>;
export type Collaboration = Selectable<CollaborationTable>;
export type ProtectedBranch = Selectable<ProtectedBranchTable>;
export type ProtectedTag = Selectable<ProtectedTagTable>;
export type CommitStatus = Selectable<CommitStatusTable>;
export type RepoTransfer = Selectable<RepoTransferTable>;
export type Team = Selectable<TeamTable>;
export type TeamUnit = Selectable<TeamUnitTable>;
export type PublicKey = Selectable<PublicKeyTable>;
export type GpgKey = Selectable<GpgKeyTable>;
export type Label = Selectable<LabelTable>;
export type Action = Selectable<ActionTable>;
export type Milestone = Selectable<MilestoneTable>;
export type Issue = Selectable<IssueTable>;
export type Comment = Selectable<CommentTable>;
export type Reaction = Selectable<ReactionTable>;
export type Attachment = Selectable<AttachmentTable>;
export type TrackedTime = Selectable<TrackedTimeTable>;
export type Notification = Selectable<NotificationTable>;
export type Release = Selectable<ReleaseTable>;

export interface PullRequestTable {
  id: Generated<number>; issue_id: number; index: number; head_repo_id: number; base_repo_id: number;
  head_branch: string; base_branch: string; merge_base: Generated<string>; head_commit_id: Generated<string>;
  base_commit_id: Generated<string>; status: Generated<string>; conflicted_files: Generated<string>;
  commits_ahead: Generated<number>; commits_behind: Generated<number>; additions: Generated<number>;
  deletions: Generated<number>; changed_files: Generated<number>; has_merged: Generated<number>;
  merged_commit_id: Generated<string>; merged_by: Generated<number>; merged_unix: Generated<number>;
  allow_maintainer_edit: Generated<number>; auto_merge: Generated<string>;
}
export type PullRequest = Selectable<PullRequestTable>;
export interface ReviewTable {
  id: Generated<number>; type: number; reviewer_id: number; issue_id: number; content: Generated<string>;
  commit_id: Generated<string>; official: Generated<number>; stale: Generated<number>; dismissed: Generated<number>;
  created_unix: number; updated_unix: number;
  /** A request addressed to a team (reviewer_id 0), else 0. */
  reviewer_team_id: Generated<number>;
  original_author: Generated<string>; original_author_id: Generated<number>;
}
export type Review = Selectable<ReviewTable>;
export interface ReviewCommentTable {
  id: Generated<number>; review_id: number; issue_id: number; poster_id: number; path: string; line: Generated<number>;
  diff_hunk: Generated<string>; commit_id: Generated<string>; content: Generated<string>; created_unix: number; updated_unix: number;
  /** The first line of a range on the same side as `line` (0: one line). */
  start_line: Generated<number>;
  /** Set on a thread's first comment while the thread is resolved: who resolved it. */
  resolve_doer_id: Generated<number>;
}
export type ReviewComment = Selectable<ReviewCommentTable>;
/** A pull request file a user marked viewed, at the blob they saw. */
export interface PullViewedFileTable {
  id: Generated<number>; user_id: number; issue_id: number; path: string; blob_sha: string; updated_unix: number;
}
export type Package = Selectable<PackageTable>;
export type PackageVersion = Selectable<PackageVersionTable>;
export type PackageFile = Selectable<PackageFileTable>;
export type PackageBlob = Selectable<PackageBlobTable>;
export type PackageProperty = Selectable<PackagePropertyTable>;
export type PackageBlobUpload = Selectable<PackageBlobUploadTable>;
export type PackageSigningKey = Selectable<PackageSigningKeyTable>;
export interface OAuth2ApplicationTable {
  id: Generated<number>; uid: number; name: string; client_id: string;
  /** sha256 hex of the secret; the secret itself is shown once. */
  client_secret_hash: string;
  /** JSON array of strings. */
  redirect_uris: Generated<string>; confidential_client: Generated<number>; skip_secondary_authorization: Generated<number>;
  created_unix: number; updated_unix: number;
}
export type OAuth2Application = Selectable<OAuth2ApplicationTable>;
/** A user's consent to an application: the scopes, and the number of the live refresh token. */
export interface OAuth2GrantTable {
  id: Generated<number>; user_id: number; application_id: number; scope: Generated<string>; nonce: Generated<string>;
  counter: Generated<number>; created_unix: number; updated_unix: number;
}
export type OAuth2Grant = Selectable<OAuth2GrantTable>;
/** An authorization code: only its SHA-256; single-use (used_unix set by the exchange). */
export interface OAuth2AuthorizationCodeTable {
  id: Generated<number>; grant_id: number; code_hash: string; code_challenge: Generated<string>;
  code_challenge_method: Generated<string>; redirect_uri: Generated<string>; valid_until: number; used_unix: Generated<number>;
}
export type OAuth2AuthorizationCode = Selectable<OAuth2AuthorizationCodeTable>;
/** The RS256 key of the provider (one row), its private half sealed with the instance key. */
export interface OAuth2SigningKeyTable { id: number; kid: string; sealed_private_key: string; created_unix: number }
export interface BadgeTable { id: Generated<number>; slug: string; description: Generated<string>; image_url: Generated<string> }
export type Badge = Selectable<BadgeTable>;
export interface UserBadgeTable { id: Generated<number>; badge_id: number; user_id: number }
