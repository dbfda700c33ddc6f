import * as z from 'zod';
import { nodeCron } from '../lib/lazy-require';

// Every key has its default here; the TOML file and HEARTH__SECTION__KEY only override.
const section = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape).prefault({} as never);

const boolDefault = (v: boolean) => z.boolean().default(v);
const port = z.number().int().min(0).max(65535);

// [cron.<task>] tables take Gitea's keys and value syntax. Their defaults live with the tasks
// (src/services/cron/tasks), which must cover every task named here: the config only overrides.
const GO_DURATION = /^(?:0|(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+)$/;
const duration = z.string().regex(GO_DURATION, 'expected a duration such as "72h", "10m" or "90s"');
// node-cron loads only when a schedule has fields.
const validCronExpression = (s: string) => nodeCron().validate(s);
// robfig/cron's descriptors and 5- or 6-field (seconds first) expressions, as Gitea's scheduler.
const isSchedule = (s: string) => {
  const every = /^@every\s+(\S+)$/.exec(s.trim());
  if (every) return GO_DURATION.test(every[1]!);
  if (s.trim().startsWith('@')) return /^@(?:yearly|annually|monthly|weekly|daily|midnight|hourly)$/.test(s.trim());
  const fields = s.trim().split(/\s+/).length;
  return (fields === 5 || fields === 6) && validCronExpression(s);
};
const schedule = z.string().refine(isSchedule, 'expected "@every <duration>", @hourly, @daily, @midnight, @weekly, @monthly, @yearly or a cron expression of 5 or 6 fields');
// Only the scheme is checked here (the start stays free of PostgreSQL's modules); the connection
// layer parses the rest and names what it cannot read.
const checkDatabaseUrl = (d: { driver: string; url: string }, ctx: z.RefinementCtx) => {
  if (d.driver !== 'postgres') return;
  const message = !d.url
    ? 'driver "postgres" needs a url (postgres://user:password@host:port/database, or ?host=/socket/dir)'
    : !/^postgres(?:ql)?:\/\//i.test(d.url) ? 'expected a postgres:// URL (postgres://user:password@host:port/database)' : '';
  if (message) ctx.addIssue({ code: 'custom', path: ['url'], message });
};
const checkStorage = (s: { type: string; bucket: string }, ctx: z.RefinementCtx) => {
  if (s.type === 's3' && !s.bucket) ctx.addIssue({ code: 'custom', path: ['bucket'], message: 'type "s3" needs a bucket' });
};
const cronTask = <T extends z.ZodRawShape>(extra: T) => z.strictObject({
  enabled: z.boolean().optional(),
  run_at_start: z.boolean().optional(),
  schedule: schedule.optional(),
  ...extra,
}).optional();
const olderThan = { older_than: duration.optional() };
// A size in bytes, or Gitea's humanize syntax ("500 MB", "1 GiB"); -1: no limit.
const byteSize = z.union([z.number().int().min(-1), z.string().regex(/^\s*\d+(?:\.\d+)?\s*(?:[kmgtpe]i?)?b?\s*$/i, 'expected a size such as "500 MB" or "1 GiB"')]);
const gitCommand = { timeout: duration.optional(), args: z.string().optional() };

export const configSchema = z.strictObject({
  server: section({
    app_name: z.string().min(1).default('Hearth'),
    http_addr: z.string().min(1).default('127.0.0.1'),
    http_port: port.default(3000),
    // Empty: derived from http_addr and http_port (and follows the real port when 0).
    root_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
    data_dir: z.string().min(1).default('./data'),
    // Gitea's [server] LFS_START_SERVER and LFS_MAX_FILE_SIZE (bytes; 0: no limit).
    lfs_start_server: boolDefault(true),
    lfs_max_file_size: z.number().int().min(0).default(0),
    // Gitea's built-in SSH server (src/ssh). Empty host: http_addr; listen port 2222, or 22 as
    // root; 0: one the kernel picks. ssh_domain and ssh_port are what clone URLs show (empty,
    // 0: root_url's host and the listen port).
    start_ssh_server: boolDefault(true),
    ssh_listen_host: z.string().default(''),
    // Unset: 2222, or 22 as root (sshListenPort in src/lib/clone-url.ts). A number or its digits
    // (HEARTH__SERVER__SSH_LISTEN_PORT has no default to be typed after).
    ssh_listen_port: z.preprocess((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v), port).optional(),
    ssh_domain: z.string().default(''),
    ssh_port: port.default(0),
    ssh_user: z.string().min(1).regex(/^[\w.-]+$/, 'expected a user name').default('git'),
    // Concurrent connections in all and from one address; more are closed at once.
    ssh_max_sessions: z.number().int().min(1).default(128),
    ssh_max_sessions_per_address: z.number().int().min(1).default(16),
    ssh_login_timeout: duration.default('30s'),
    ssh_max_auth_tries: z.number().int().min(1).default(6),
    ssh_keepalive_interval: duration.default('15s'),
    ssh_keepalive_count_max: z.number().int().min(0).default(3),
    // A signed-in connection running no command is closed after this; a running command
    // (a long push) is never cut by time, only by failed keepalives.
    ssh_idle_timeout: duration.default('10m'),
    // What `hearth keys` prints as the forced command: {app_path}, {config} and {key_id} filled in.
    ssh_authorized_keys_command_template: z.string().default('{app_path} --config={config} serv key-{key_id}'),
  }),
  database: z.strictObject({
    // sqlite: one file beside the data (the default); postgres: a server that several nodes share.
    driver: z.enum(['sqlite', 'postgres']).default('sqlite'),
    path: z.string().default(''),
    busy_timeout: z.number().int().min(0).default(5000),
    url: z.string().default(''),
    pool_size: z.number().int().min(1).default(10),
  }).superRefine(checkDatabaseUrl).prefault({} as never),
  repository: section({
    root: z.string().default(''),
    default_branch: z.string().min(1).default('main'),
    disable_http_git: boolDefault(false),
    disable_stars: boolDefault(false),
    disable_migrations: boolDefault(false),
    disable_mirrors: boolDefault(false),
    enable_time_tracking: boolDefault(true),
    // Gitea's [repository.signing]. "default" here is hearth's own instance key (generated on
    // first use under <data_dir>/home); "none" by default, as a Gitea whose git has no signing key.
    signing: section({
      signing_key: z.string().min(1).default('none'),
      signing_name: z.string().default(''),
      signing_email: z.string().default(''),
      signing_format: z.enum(['openpgp', 'ssh']).default('openpgp'),
      initial_commit: z.array(z.string()).default(['always']),
      crud_actions: z.array(z.string()).default(['pubkey', 'twofa', 'parentsigned']),
      merges: z.array(z.string()).default(['pubkey', 'twofa', 'basesigned', 'commitssigned']),
      wiki: z.array(z.string()).default(['never']),
    }),
  }),
  security: section({
    secret_key: z.string().default(''),
    min_password_length: z.number().int().min(1).max(256).default(8),
    // As Gitea: the git hooks API answers 403 unless this is false (scripts are stored, not run).
    disable_git_hooks: boolDefault(true),
  }),
  service: section({
    default_user_visibility: z.enum(['public', 'limited', 'private']).default('public'),
    default_keep_email_private: boolDefault(false),
    default_allow_create_organization: boolDefault(true),
    initial_admin_username: z.string().min(1).default('root'),
    initial_admin_email: z.string().min(3).default('root@hearth.local'),
    // Gitea's [service] keys. Registration is closed by default (Gitea's is open): accounts come
    // from the admin; false opens /user/sign_up. require_signin_view: every page asks to sign in.
    disable_registration: boolDefault(true),
    require_signin_view: boolDefault(false),
    // Gitea's EMAIL_DOMAIN_ALLOWLIST / EMAIL_DOMAIN_BLOCKLIST: comma-separated globs of e-mail
    // domains held against sign-ups and added addresses (a non-empty allowlist wins).
    email_domain_allowlist: z.string().default(''),
    email_domain_blocklist: z.string().default(''),
  }),
  // Gitea's [oauth2]: the provider at /login/oauth/* (false: those answer 404); token lifetimes
  // in seconds (access) and hours (refresh).
  oauth2: section({
    enabled: boolDefault(true),
    access_token_expiration_time: z.number().int().min(60).default(3600),
    refresh_token_expiration_time: z.number().int().min(1).default(730),
    // Gitea's CUSTOM_SCHEMES: schemes beyond http and https that applications may redirect to.
    custom_schemes: z.array(z.string()).default([]),
  }),
  api: section({
    default_paging_num: z.number().int().min(1).default(30),
    max_response_items: z.number().int().min(1).default(50),
    default_git_trees_per_page: z.number().int().min(1).default(1000),
    default_max_blob_size: z.number().int().min(0).default(10485760),
    default_max_response_size: z.number().int().min(0).default(104857600),
    enable_swagger: boolDefault(true),
  }),
  attachment: section({
    enabled: boolDefault(true),
    // Gitea's default list of extensions; "" or "*/*" allows any type.
    allowed_types: z.string().default('.avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip'),
    max_size: z.number().int().min(1).default(2048),
    max_files: z.number().int().min(1).default(5),
  }),
  // Gitea's [picture] avatar limits: bytes, pixels, and the size under which an upload is kept as sent.
  picture: section({
    avatar_max_file_size: z.number().int().min(1).default(1048576),
    avatar_max_width: z.number().int().min(1).default(4096),
    avatar_max_height: z.number().int().min(1).default(4096),
    avatar_max_origin_size: z.number().int().min(0).default(262144),
  }),
  ui: section({
    default_theme: z.string().default('gitea-auto'),
    reactions: z.array(z.string()).default(['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes']),
    custom_emojis: z.array(z.string()).default(['gitea', 'codeberg', 'gitlab', 'git', 'github', 'gogs']),
  }),
  webhook: section({
    allowed_host_list: z.string().default('external'),
    deliver_timeout: z.number().int().min(1).default(5),
    skip_tls_verify: boolDefault(false),
    proxy_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
    // Beyond Gitea, which never retries: network errors, timeouts, 429 and 5xx are tried again.
    max_attempts: z.number().int().min(1).max(50).default(5),
    retry_backoff: z.number().min(0).default(10),
  }),
  // Where package files, LFS objects, attachments and avatars (Actions artifacts still on disk) are kept:
  // "local" under data_dir as always, or an S3-compatible bucket that several nodes share.
  storage: z.strictObject({
    type: z.enum(['local', 's3']).default('local'),
    // Empty: AWS's endpoint for the region; else the server's URL (http://minio:9000).
    endpoint: z.string().default(''),
    bucket: z.string().default(''),
    region: z.string().default('us-east-1'),
    access_key_id: z.string().default(''),
    secret_access_key: z.string().default(''),
    // Path-style addressing (endpoint/bucket/key), which most self-hosted servers need.
    path_style: boolDefault(false),
    // Prepended to every object's name ("hearth/"), so one bucket may hold several things.
    prefix: z.string().default(''),
  }).superRefine(checkStorage).prefault({} as never),
  queue: section({
    workers: z.number().int().min(1).max(64).default(4),
    // PostgreSQL: seconds a node's claim on a running job holds unless renewed (every third of it);
    // a job whose node died runs again on another node after this.
    lease: z.number().int().min(1).max(3600).default(60),
  }),
  cluster: section({
    // PostgreSQL: seconds without a heartbeat after which a node counts as dead (its intents are
    // adopted, its temp directory swept); each node beats every third of it.
    node_timeout: z.number().int().min(3).max(3600).default(30),
  }),
  log: section({
    level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
    // Empty: standard output. A file is appended to, and reopened on SIGHUP (logrotate).
    file: z.string().default(''),
    // Empty: text when standard output is a terminal, JSON lines otherwise.
    format: z.enum(['', 'text', 'json']).default(''),
    // One line per request at info (else at debug).
    access: boolDefault(false),
  }),
  // Gitea's [federation], served by default here (Gitea's default is off): nodeinfo, the users'
  // ActivityPub actors, and inboxes that take only HTTP-signed requests. Actor keys are fetched
  // only from hosts allowed_host_list allows (as [webhook]'s), at most max_size MiB.
  federation: section({
    enabled: boolDefault(true),
    share_user_statistics: boolDefault(true),
    max_size: z.number().int().min(1).default(4),
    allowed_host_list: z.string().default('external'),
  }),
  // Gitea's [metrics]: GET /metrics in Prometheus' format; with a token, only for
  // `Authorization: Bearer <token>`.
  metrics: section({
    enabled: boolDefault(false),
    token: z.string().default(''),
  }),
  // Where migrations and mirrors may connect (Gitea's [migrations]), checked on the address
  // actually connected to; and how long one migration may take before it is undone.
  migrations: section({
    allowed_domains: z.string().default(''),
    blocked_domains: z.string().default(''),
    allow_localnetworks: boolDefault(false),
    // Beyond Gitea's [security] IMPORT_LOCAL_PATHS: site admins may migrate from a local path.
    allow_local_paths: boolDefault(false),
    max_attempts: z.number().int().min(1).max(20).default(3),
    retry_backoff: z.number().min(0).default(3),
    timeout: duration.default('1h'),
  }),
  // Gitea's [mirror]: intervals in its duration syntax; a shorter one than min_interval is refused.
  mirror: section({
    enabled: boolDefault(true),
    disable_new_pull: boolDefault(false),
    disable_new_push: boolDefault(false),
    default_interval: duration.default('8h'),
    min_interval: duration.default('10m'),
  }),
  // Gitea's [packages]: limits per owner (count of versions, total size) and per file of a type.
  packages: section({
    enabled: boolDefault(true),
    limit_total_owner_count: z.number().int().min(-1).default(-1),
    limit_total_owner_size: byteSize.default(-1),
    limit_size_generic: byteSize.default(-1),
    limit_size_npm: byteSize.default(-1),
    limit_size_pypi: byteSize.default(-1),
    limit_size_container: byteSize.default(-1),
    limit_size_maven: byteSize.default(-1),
    limit_size_cargo: byteSize.default(-1),
    limit_size_chef: byteSize.default(-1),
    limit_size_composer: byteSize.default(-1),
    limit_size_go: byteSize.default(-1),
    limit_size_helm: byteSize.default(-1),
    limit_size_pub: byteSize.default(-1),
    limit_size_rubygems: byteSize.default(-1),
    limit_size_swift: byteSize.default(-1),
    limit_size_vagrant: byteSize.default(-1),
    limit_size_debian: byteSize.default(-1),
    limit_size_rpm: byteSize.default(-1),
    limit_size_arch: byteSize.default(-1),
    limit_size_alpine: byteSize.default(-1),
    limit_size_conda: byteSize.default(-1),
    limit_size_cran: byteSize.default(-1),
    limit_size_conan: byteSize.default(-1),
    limit_size_nuget: byteSize.default(-1),
  }),
  // hearth's audit log: rows older than retention_days are deleted by the cleanup_audit_logs
  // cron task; 0 keeps them forever. One year by default: long enough for a yearly review.
  audit: section({
    retention_days: z.number().int().min(0).default(365),
  }),
  // Gitea's [actions]: the timeouts of the cron tasks stop_zombie_tasks (a running task with no
  // update), stop_endless_tasks (running too long) and cancel_abandoned_jobs (waiting too long),
  // and how long logs and artifacts are kept (cleanup_actions). A commit message with one of the
  // skip strings starts no push or pull_request run.
  actions: section({
    enabled: boolDefault(true),
    zombie_task_timeout: duration.default('10m'),
    endless_task_timeout: duration.default('3h'),
    abandoned_job_timeout: duration.default('24h'),
    log_retention_days: z.number().int().min(0).default(365),
    artifact_retention_days: z.number().int().min(0).default(90),
    skip_workflow_strings: z.array(z.string()).default(['[skip ci]', '[ci skip]', '[no ci]', '[skip actions]', '[actions skip]']),
    // hearth's own runner inside the server (label `hearth`), for a one-machine setup: jobs run
    // on this host as the server's user. Off by default.
    embedded_runner: boolDefault(false),
  }),
  cron: section({
    update_mirrors: cronTask({ pull_limit: z.number().int().optional(), push_limit: z.number().int().optional() }),
    repo_health_check: cronTask(gitCommand),
    check_repo_stats: cronTask({}),
    archive_cleanup: cronTask(olderThan),
    sync_external_users: cronTask({ update_existing: z.boolean().optional() }),
    deleted_branches_cleanup: cronTask(olderThan),
    update_migration_poster_id: cronTask({}),
    cleanup_hook_task_table: cronTask({
      cleanup_type: z.enum(['OlderThan', 'PerWebhook']).optional(),
      ...olderThan,
      number_to_keep: z.number().int().min(0).optional(),
    }),
    cleanup_packages: cronTask(olderThan),
    sync_repo_licenses: cronTask({}),
    delete_inactive_accounts: cronTask(olderThan),
    delete_repo_archives: cronTask({}),
    git_gc_repos: cronTask(gitCommand),
    resync_all_sshkeys: cronTask({}),
    resync_all_sshprincipals: cronTask({}),
    resync_all_hooks: cronTask({}),
    reinit_missing_repos: cronTask({}),
    delete_missing_repos: cronTask({}),
    delete_generated_repository_avatars: cronTask({}),
    delete_old_actions: cronTask(olderThan),
    update_checker: cronTask({}),
    delete_old_system_notices: cronTask(olderThan),
    gc_lfs: cronTask({
      ...olderThan, last_updated_more_than_ago: duration.optional(),
      number_to_check_per_repo: z.number().int().optional(), proportion_to_check_per_repo: z.number().min(0).max(1).optional(),
    }),
    rebuild_issue_indexer: cronTask({}),
    stop_zombie_tasks: cronTask({}),
    stop_endless_tasks: cronTask({}),
    cancel_abandoned_jobs: cronTask({}),
    start_schedule_tasks: cronTask({}),
    cleanup_actions: cronTask({}),
    cleanup_audit_logs: cronTask({}),
  }),
});

export type RawConfig = z.infer<typeof configSchema>;
export type CronConfig = RawConfig['cron'];
export type CronTaskName = keyof CronConfig;

/** The configuration with every path resolved to an absolute one. */
export type Config = RawConfig & {
  database: RawConfig['database'] & { path: string };
  repository: RawConfig['repository'] & { root: string };
  /** The file it was read from, if any. */
  file: string | null;
  /** True when root_url was not configured but derived from the listen address. */
  rootUrlDerived: boolean;
};
