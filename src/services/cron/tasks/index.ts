import { installHooks } from '../../../git/hooks';
import { parseDuration } from '../duration';
import type { CronContext, CronTaskRegistry } from '../types';

/**
 * A task's work, loaded with the services it calls when the task first runs: the scheduler
 * arms the schedules at start without evaluating them.
 */
function later<F extends (...a: never[]) => Promise<unknown>>(load: () => Promise<F>) {
  return async (...a: Parameters<F>): Promise<Awaited<ReturnType<F>>> => (await load())(...a) as Awaited<ReturnType<F>>;
}

const cancelAbandonedJobs = later(() => import('../../actions/maintenance').then((m) => m.cancelAbandonedJobs));
const cleanupActions = later(() => import('../../actions/maintenance').then((m) => m.cleanupActions));
const stopEndlessTasks = later(() => import('../../actions/maintenance').then((m) => m.stopEndlessTasks));
const stopZombieTasks = later(() => import('../../actions/maintenance').then((m) => m.stopZombieTasks));
const startScheduleTasks = later(() => import('../../actions/schedules').then((m) => m.startScheduleTasks));
const cleanupHookTasks = later(() => import('./hook-tasks').then((m) => m.cleanupHookTasks));
const deleteInactiveAccounts = later(() => import('./inactive-accounts').then((m) => m.deleteInactiveAccounts));
const checkRepoHealth = later(() => import('./repo-git').then((m) => m.checkRepoHealth));
const gcRepos = later(() => import('./repo-git').then((m) => m.gcRepos));
const checkRepoStats = later(() => import('./repo-stats').then((m) => m.checkRepoStats));
const deleteMissingRepos = later(() => import('./missing-repos').then((m) => m.deleteMissingRepos));
const reinitMissingRepos = later(() => import('./missing-repos').then((m) => m.reinitMissingRepos));
const deleteOldActions = later(() => import('./old-actions').then((m) => m.deleteOldActions));
const rebuildIssueIndexer = later(() => import('./issue-indexer').then((m) => m.rebuildIssueIndexer));
const syncDuePullMirrors = later(() => import('../../mirror/pull-mirror').then((m) => m.syncDuePullMirrors));
const syncDuePushMirrors = later(() => import('../../mirror/push-mirror-sync').then((m) => m.syncDuePushMirrors));
const cleanupPackages = later(() => import('../../packages/cleanup').then((m) => m.cleanupPackages));
const gcLfs = later(() => import('../../lfs/gc').then((m) => m.gcLfs));
const syncAllRepoLicenses = later(() => import('../../repo/licenses').then((m) => m.syncAllRepoLicenses));
const cleanupAuditLogs = later(() => import('../../audit/retention').then((m) => m.cleanupAuditLogs));
const cleanupDeletedBranches = later(() => import('../../repo/deleted-branch-record').then((m) => m.cleanupDeletedBranches));

// Gitea's cron tasks with Gitea's defaults (services/cron/tasks_basic.go, tasks_extended.go), in
// Gitea's order: the admin list follows it. A new task also needs its [cron.<task>] table in
// src/config/schema.ts; the type of this registry makes the two agree.

const base = (enabled: boolean, runAtStart: boolean, schedule: string) => ({ enabled, run_at_start: runAtStart, schedule });
/** A task with nothing to do in hearth (yet): its result says why. */
const nothing = (why: string) => async () => why;
const actionsDeps = (ctx: CronContext) => ({ ...ctx, secret: '' });

export const CRON_TASKS: CronTaskRegistry = {
  update_mirrors: {
    // Gitea: @every 10m, not at start, 50 pull and 50 push mirrors a run (<= 0: no limit).
    defaults: { ...base(true, false, '@every 10m'), pull_limit: 50, push_limit: 50 },
    run: async (ctx, s) => {
      const pull = await syncDuePullMirrors(ctx, s.pull_limit);
      const push = ctx.config.mirror.enabled ? await syncDuePushMirrors(ctx.db, s.push_limit) : 'push mirrors are disabled';
      return `${pull}; ${push}`;
    },
  },
  repo_health_check: {
    // Gitea: setting.Git.Timeout.Default (360 s) per repository, no extra arguments.
    defaults: { ...base(true, false, '@midnight'), timeout: '360s', args: '' },
    run: checkRepoHealth,
  },
  check_repo_stats: { defaults: base(true, true, '@midnight'), run: checkRepoStats },
  archive_cleanup: {
    defaults: { ...base(true, true, '@midnight'), older_than: '24h' },
    run: nothing('hearth streams repository archives and keeps none: nothing to delete'),
  },
  sync_external_users: {
    defaults: { ...base(true, false, '@midnight'), update_existing: true },
    run: nothing('hearth has no external (LDAP, ...) authentication sources: no users to synchronize'),
  },
  deleted_branches_cleanup: {
    defaults: { ...base(true, true, '@midnight'), older_than: '24h' },
    run: (ctx, s) => cleanupDeletedBranches(ctx.db, parseDuration(s.older_than)),
  },
  update_migration_poster_id: {
    defaults: base(true, true, '@midnight'),
    run: nothing('hearth links no external accounts to migrated posters: no poster ids to update'),
  },
  cleanup_hook_task_table: {
    defaults: { ...base(true, false, '@midnight'), cleanup_type: 'OlderThan', older_than: '168h', number_to_keep: 10 },
    run: (ctx, s) => cleanupHookTasks(ctx.db, {
      cleanupType: s.cleanup_type, olderThanMs: parseDuration(s.older_than), numberToKeep: s.number_to_keep,
    }),
  },
  cleanup_packages: {
    defaults: { ...base(true, true, '@midnight'), older_than: '24h' },
    run: (ctx, s) => cleanupPackages(ctx.db, ctx.blobs, ctx.config.server.data_dir, parseDuration(s.older_than)),
  },
  sync_repo_licenses: {
    defaults: base(false, false, '@annually'),
    run: (ctx) => syncAllRepoLicenses(ctx, ctx.signal),
  },
  delete_inactive_accounts: {
    // Gitea: [service] ACTIVE_CODE_LIVE_MINUTES, 180 by default.
    defaults: { ...base(false, false, '@annually'), older_than: '3h' },
    run: (ctx, s) => deleteInactiveAccounts(ctx, parseDuration(s.older_than)),
  },
  delete_repo_archives: {
    defaults: base(false, false, '@annually'),
    run: nothing('hearth streams repository archives and keeps none: nothing to delete'),
  },
  git_gc_repos: {
    // Gitea: setting.Git.Timeout.GC (60 s) and [git] GC_ARGS (none).
    defaults: { ...base(false, false, '@every 72h'), timeout: '60s', args: '' },
    // Several nodes: pushes leave git's automatic gc to this task on the cron leader (see
    // git-transport/run.ts), so it runs by default there, daily, and only where git finds work.
    clusterDefaults: { enabled: true, schedule: '@every 24h', args: '--auto' },
    run: gcRepos,
  },
  resync_all_sshkeys: {
    defaults: base(false, false, '@every 72h'),
    run: nothing('hearth writes no authorized_keys file (its SSH server and `hearth keys` read the keys from the database): nothing to resync'),
  },
  resync_all_sshprincipals: {
    defaults: base(false, false, '@every 72h'),
    run: nothing('hearth writes no authorized_principals file (SSH principals are not supported yet): nothing to resync'),
  },
  resync_all_hooks: {
    defaults: base(false, false, '@every 72h'),
    // Every repository runs the one hooks directory (core.hooksPath): rewriting it resyncs all.
    run: async (ctx) => `hook scripts in ${installHooks(ctx.config.server.data_dir)} are up to date`,
  },
  reinit_missing_repos: { defaults: base(false, false, '@every 72h'), run: reinitMissingRepos },
  delete_missing_repos: { defaults: base(false, false, '@every 72h'), run: deleteMissingRepos },
  delete_generated_repository_avatars: {
    defaults: base(false, false, '@every 72h'),
    run: nothing('hearth draws generated avatars on request and stores none (repositories have none): nothing to delete'),
  },
  delete_old_actions: {
    defaults: { ...base(false, false, '@every 168h'), older_than: '8760h' },
    run: (ctx, s) => deleteOldActions(ctx, parseDuration(s.older_than)),
  },
  update_checker: {
    // Gitea's is enabled and asks dl.gitea.com; hearth runs on air-gapped machines and never
    // calls out, so it is off by default on purpose (and would do nothing if turned on).
    defaults: base(false, false, '@every 168h'),
    run: nothing('hearth does not look for new versions online: nothing to check'),
  },
  delete_old_system_notices: {
    defaults: { ...base(false, false, '@every 168h'), older_than: '8760h' },
    run: nothing('hearth keeps no system notices: nothing to delete'),
  },
  gc_lfs: {
    // Gitea: a week old, not checked for 3 days, 100 (or 60%) per repository a run.
    defaults: {
      ...base(false, false, '@every 24h'), older_than: '168h', last_updated_more_than_ago: '72h',
      number_to_check_per_repo: 100, proportion_to_check_per_repo: 0.6,
    },
    run: gcLfs,
  },
  rebuild_issue_indexer: { defaults: base(false, false, '@annually'), run: rebuildIssueIndexer },
  // Gitea's tasks_actions.go; the timeouts and retention are [actions] settings. The engine needs
  // no instance secret for these (only task payloads carry secrets).
  stop_zombie_tasks: { defaults: base(true, true, '@every 5m'), run: (ctx) => stopZombieTasks(actionsDeps(ctx)) },
  stop_endless_tasks: { defaults: base(true, true, '@every 30m'), run: (ctx) => stopEndlessTasks(actionsDeps(ctx)) },
  cancel_abandoned_jobs: { defaults: base(true, true, '@every 6h'), run: (ctx) => cancelAbandonedJobs(actionsDeps(ctx)) },
  start_schedule_tasks: { defaults: base(true, false, '@every 1m'), run: (ctx) => startScheduleTasks(actionsDeps(ctx)) },
  cleanup_actions: { defaults: base(true, false, '@midnight'), run: (ctx) => cleanupActions(actionsDeps(ctx)) },
  cleanup_audit_logs: {
    // hearth's own: [audit] retention_days says how old a row may get.
    defaults: base(true, true, '@midnight'),
    run: (ctx) => cleanupAuditLogs(ctx.db, ctx.config.audit.retention_days),
  },
};
