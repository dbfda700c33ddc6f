import type { Config } from '../../config/schema';
import type { Repository, User } from '../../db/schema';
import { repoDir } from '../../git/repo';
import { AppError, ForbiddenError, InvalidError } from '../../lib/errors';
import { seal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import { insertMirror } from '../../models/mirror';
import { getRepoById, updateRepo } from '../../models/repo';
import { parseDuration } from '../cron/duration';
import { nextUpdateAt, parseMirrorInterval } from '../mirror/pull-mirror-interval';
import { ACCESS } from '../permissions';
import { deleteRepository } from '../repo/repo-edit';
import { syncRepoFromGit } from '../repo/repo-sync';
import { accessOf, type RepoAccess } from '../repo/repos';
import type { Downloader } from './downloader';
import { createSource, FORGE_SERVICES, type ForgeService } from './downloaders';
import { importFromSource, type ImportItems } from './import-items';
import { startProgress, type ProgressReporter } from './progress';
import { SourceError } from './source-http';
import { createTarget, migrationOwner } from './migrate-target';
import { checkRemote, migrationDispatcher, type CheckedRemote } from './remote-address';
import { dropTemporaryRefs, MIRROR_REFSPECS, RemoteGitError, redact, remoteGit, remoteHead, type RemoteAuth } from './remote-git';
import { migrateWiki } from './migrate-wiki';
import { migrateLfs } from './migrate-lfs';
import { syncRepoLicenses } from '../repo/licenses';
import { uploadTmpDir } from '../issue/attachment-files';
import type { Hearth } from '../../hearth';

// POST /repos/migrate: a repository cloned from another server (any git remote; from a forge
// (Gitea, Forgejo, Gogs, GitHub, GitLab, OneDev, GitBucket, Codebase, CodeCommit) also what its
// API has of issues, pull requests, labels, milestones, releases and topics), optionally kept as
// a pull mirror. The call runs to completion; a migration that fails leaves nothing.

export type MigrateInput = {
  cloneAddr: string; repoName: string; repoOwner?: string; uid?: number; description?: string;
  private?: boolean; mirror?: boolean; mirrorInterval?: string; authUsername?: string;
  authPassword?: string; authToken?: string; awsAccessKeyId?: string; awsSecretAccessKey?: string; service?: string; wiki?: boolean; lfs?: boolean; lfsEndpoint?: string;
  items: ImportItems;
};
/** The instance handle (the name stays for the callers that spell it). */
export type MigrateDeps = Hearth;


/** Refusals that need no remote: the service, migrations or new mirrors turned off. */
function assertAllowed(config: Config, input: MigrateInput): void {
  const service = (input.service || 'git').toLowerCase();
  if (service !== 'git' && !(FORGE_SERVICES as readonly string[]).includes(service)) {
    throw new InvalidError(`Migrating from ${service} is not supported`, 'service');
  }
  if (config.repository.disable_migrations) throw new ForbiddenError('the site administrator has disabled migrations');
  const noMirrors = !config.mirror.enabled || config.mirror.disable_new_pull || config.repository.disable_mirrors;
  if (input.mirror && noMirrors) throw new ForbiddenError('the site administrator has disabled the creation of new pull mirrors');
}

/** The credentials git and the importer use: an access token counts as a password (user oauth2). */
function authOf(input: MigrateInput, checked: CheckedRemote): RemoteAuth {
  if (input.authToken) return { username: input.authUsername || 'oauth2', password: input.authToken };
  return { username: input.authUsername || checked.username, password: input.authPassword || checked.password };
}

/** A failure as the API answers it: remote failures 422 with a message free of credentials. */
function failureOf(err: unknown, auth: RemoteAuth, signal: AbortSignal, timeout: string): Error {
  if (signal.aborted || (err instanceof RemoteGitError && err.aborted)) {
    return new InvalidError(`Migration failed: timed out after ${timeout}.`);
  }
  if (err instanceof AppError) return err;
  const text = redact(err instanceof Error ? err.message : String(err), auth);
  if (err instanceof SourceError) {
    const denied = err.status === 401 || err.status === 403;
    return new InvalidError(denied ? `Authentication failed: ${text}.` : `Migration failed: ${text}.`);
  }
  if (err instanceof RemoteGitError) {
    const denied = /Authentication failed|could not read Username|Bad credentials|401|403/i.test(err.stderr);
    return new InvalidError(denied ? `Authentication failed: ${text}.` : `Migration failed: ${text}.`);
  }
  return new Error(`Migration failed: ${text}`);
}

/** The AWS secret never appears in an answer either (the git credentials are redacted above). */
function redactAws(failure: Error, input: MigrateInput): Error {
  const secret = input.awsSecretAccessKey;
  if (secret && failure.message.includes(secret)) failure.message = failure.message.split(secret).join('***');
  return failure;
}

type Plan = {
  input: MigrateInput; owner: User; doer: User; checked: CheckedRemote; auth: RemoteAuth;
  service: 'git' | ForgeService; source: Downloader | null; intervalSeconds: number; signal: AbortSignal;
  progress: ProgressReporter;
  /** The address as given (credentials removed): the repository's original_url. */
  originalUrl: string;
};

/** Fetches the refs into the new bare repository and brings the database in line. */
async function cloneInto(deps: MigrateDeps, plan: Plan, repo: Repository): Promise<Repository> {
  const dir = repoDir(deps.config.repository.root, plan.owner.name, repo.name);
  deps.log.info({ repo: `${plan.owner.name}/${repo.name}`, from: plan.checked.address }, 'migration: fetching');
  // From a forge, its pull requests' heads too (refs/pull/N/head, GitLab's merge-requests):
  // merged ones whose branch is gone are reachable only so.
  const refspecs = plan.source && plan.input.items.pull_requests ? [...MIRROR_REFSPECS, ...plan.source.pullRefspecs()] : MIRROR_REFSPECS;
  await remoteGit(plan.checked, plan.auth, ['fetch', '--prune', '--no-write-fetch-head'], refspecs, { gitDir: dir, signal: plan.signal });
  return syncRepoFromGit(deps.db, repo, dir, plan.doer.id);
}

async function importItems(deps: MigrateDeps, plan: Plan, repo: Repository): Promise<void> {
  if (!plan.source) return;
  deps.log.info({ repo: repo.id, service: plan.service }, 'migration: importing');
  const gitDir = repoDir(deps.config.repository.root, plan.owner.name, repo.name);
  const counts = await importFromSource(deps.db, { repo, owner: plan.owner, doer: plan.doer }, plan.source, {
    items: plan.input.items, log: deps.log, signal: plan.signal, dispatcher: migrationDispatcher(deps.config),
    maxAttempts: deps.config.migrations.max_attempts, retryBackoffMs: deps.config.migrations.retry_backoff * 1000,
    blobs: deps.blobs, spoolDir: uploadTmpDir(deps), gitDir, onStage: (s) => plan.progress.stage(s),
  });
  await dropTemporaryRefs(gitDir);
  plan.progress.counts(counts);
  deps.log.info({ repo: repo.id, counts }, 'migration: imported');
}

async function fetchLfs(deps: MigrateDeps, plan: Plan, repo: Repository): Promise<void> {
  if (plan.checked.local) return;
  await migrateLfs({
    ...deps, dispatcher: migrationDispatcher(deps.config), signal: plan.signal, repo,
    gitDir: repoDir(deps.config.repository.root, plan.owner.name, repo.name),
    address: plan.checked.address, endpoint: plan.input.lfsEndpoint, auth: plan.auth,
  });
}

/** The mirror row, once the first fetch succeeded: address without credentials, those sealed. */
async function recordMirror(deps: MigrateDeps, plan: Plan, repo: Repository): Promise<void> {
  const now = nowUnix();
  const { username, password } = plan.auth;
  await insertMirror(deps.db, {
    repo_id: repo.id, remote_address: plan.checked.address,
    credentials_sealed: username || password ? seal(deps.secret, 'mirror', JSON.stringify({ username, password })) : '',
    interval_seconds: plan.intervalSeconds, enable_prune: 1, updated_unix: now,
    next_update_unix: nextUpdateAt(now, plan.intervalSeconds),
    lfs: plan.input.lfs ? 1 : 0, lfs_endpoint: plan.input.lfsEndpoint ?? '',
  });
}

/** The forge's downloader, and where git fetches from when that is not the address given. */
function sourceOf(deps: MigrateDeps, input: MigrateInput, checked: CheckedRemote, service: ForgeService, signal: AbortSignal, deadline: number) {
  return createSource({
    service, address: checked.address,
    username: input.authUsername || checked.username, password: input.authPassword || checked.password, token: input.authToken ?? '',
    awsAccessKeyId: input.awsAccessKeyId ?? '', awsSecretAccessKey: input.awsSecretAccessKey ?? '', gitOnly: !!input.mirror,
    http: {
      dispatcher: migrationDispatcher(deps.config), signal, deadline,
      maxAttempts: deps.config.migrations.max_attempts, retryBackoffMs: deps.config.migrations.retry_backoff * 1000,
    },
  });
}

async function plan(deps: MigrateDeps, doer: User, input: MigrateInput, signal: AbortSignal, deadline: number): Promise<Plan> {
  assertAllowed(deps.config, input);
  const owner = await migrationOwner(deps.db, doer, input.repoOwner, input.uid);
  const intervalSeconds = input.mirror ? parseMirrorInterval(deps.config, input.mirrorInterval) : 0;
  let checked = await checkRemote(deps.config, input.cloneAddr, doer);
  const originalUrl = checked.address;
  const auth = authOf(input, checked);
  const service = (input.service || 'git').toLowerCase() as Plan['service'];
  let source: Downloader | null = null;
  if (service !== 'git' && !checked.local) {
    const found = sourceOf(deps, input, checked, service, signal, deadline);
    // Same host, another path: the check made above still holds.
    if (found.gitAddress) checked = { ...checked, address: found.gitAddress };
    // As Gitea: a mirror takes the git data only.
    if (!input.mirror) source = found.downloader;
  }
  const progress = startProgress(owner.name, input.repoName, service, doer.id);
  return { input, owner, doer, checked, auth, service, source, intervalSeconds, signal, progress, originalUrl };
}

/** Deletes a repository whose migration failed; a failure here is logged, the first one answered. */
async function undo(deps: MigrateDeps, repo: Repository, owner: User, failure: Error): Promise<void> {
  deps.log.warn({ repo: repo.id, err: failure.message }, 'migration failed: removing the repository');
  try {
    await deleteRepository(deps, { repo, owner, mode: ACCESS.owner });
  } catch (err) {
    deps.log.error({ repo: repo.id, err }, 'removing a failed migration failed');
  }
}

/**
 * Migrates; on any failure after the repository was created it is deleted again. `onPlanned`
 * is told once the request passed its checks and its progress is recorded (the web form answers
 * then and shows the progress page while the rest runs).
 */
export async function migrateRepository(
  deps: MigrateDeps, doer: User, input: MigrateInput, onPlanned?: (target: { owner: string; repo: string }) => void,
): Promise<RepoAccess> {
  const timeout = deps.config.migrations.timeout;
  const abort = new AbortController();
  const limitMs = parseDuration(timeout);
  const timer = setTimeout(() => abort.abort(), limitMs);
  let created: Repository | null = null;
  let p: Plan | null = null;
  try {
    p = await plan(deps, doer, input, abort.signal, Date.now() + limitMs);
    onPlanned?.({ owner: p.owner.name, repo: input.repoName });
    // Reaching the remote first: a wrong address or password creates nothing.
    const head = await remoteHead(p.checked, p.auth, abort.signal);
    created = await createTarget(deps, doer, p.owner, {
      name: input.repoName, description: input.description, private: input.private, defaultBranch: head ?? undefined,
    });
    await updateRepo(deps.db, created.id, { is_mirror: input.mirror ? 1 : 0, original_url: p.originalUrl });
    const repo = await cloneInto(deps, p, created);
    await syncRepoLicenses(deps, repo);
    if (input.wiki) {
      p.progress.stage('wiki');
      await migrateWiki({ ...deps, remote: p.checked, auth: p.auth, ownerName: p.owner.name, repo, signal: abort.signal });
    }
    if (input.lfs) { p.progress.stage('lfs'); await fetchLfs(deps, p, repo); }
    await importItems(deps, p, repo);
    if (input.mirror) { p.progress.stage('mirror'); await recordMirror(deps, p, repo); }
    p.progress.finish();
    deps.log.info({ repo: `${p.owner.name}/${repo.name}` }, 'migration: done');
    // Read again: the import changed its counters and topics.
    return accessOf(deps.db, (await getRepoById(deps.db, repo.id)) ?? repo, doer);
  } catch (err) {
    const failure = redactAws(failureOf(err, p?.auth ?? { username: '', password: input.authPassword || input.authToken || '' }, abort.signal, timeout), input);
    p?.progress.fail(failure.message);
    if (created && p) await undo(deps, created, p.owner, failure);
    throw failure;
  } finally {
    clearTimeout(timer);
  }
}
