import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';
import { migrations } from '../../db/migrations';
import { installHooks } from '../../git/hooks';
import { repoDir } from '../../git/repo';
import { closeHearth, openHearth } from '../../hearth';
import { createLogger } from '../../lib/logger';
import { getRepoById } from '../../models/repo';
import { listRepoLocations } from '../../models/repo-counters';
import { syncRepoFromGit } from '../repo/repo-sync';
import { ArchiveError, extractArchive } from './extract';
import { formatBytes, Progress } from './progress';
import { REPO_DIRS } from './repo-snapshot';

/** Restore refused before anything was written (a non-empty target). */
export class RestoreRefused extends Error {}

export type RestoreResult = { repos: number; entries: number; warnings: string[] };

const nonEmpty = (dir: string) => fs.existsSync(dir) && fs.readdirSync(dir).length > 0;

/** The places restore writes to; each must be empty or missing. */
function checkTargets(config: Config): void {
  const data = config.server.data_dir;
  if (nonEmpty(data)) throw new RestoreRefused(`${data} is not empty: restore only into an empty or missing data directory`);
  if (fs.existsSync(config.database.path)) throw new RestoreRefused(`${config.database.path} exists: restore will not overwrite a database`);
  if (nonEmpty(config.repository.root)) throw new RestoreRefused(`${config.repository.root} is not empty: restore will not mix repositories`);
}

/** Undoes a failed restore: the targets were empty or missing before, so they are again. */
function cleanUp(config: Config, existed: Set<string>): void {
  for (const dir of [config.server.data_dir, config.repository.root]) {
    if (!fs.existsSync(dir)) continue;
    if (!existed.has(dir)) fs.rmSync(dir, { recursive: true, force: true });
    else for (const e of fs.readdirSync(dir)) fs.rmSync(path.join(dir, e), { recursive: true, force: true });
  }
  fs.rmSync(config.database.path, { force: true });
}

/**
 * Restores a dump into an empty instance: unpacks and verifies every entry against the manifest,
 * then opens the database (migrating a dump of an older hearth forward), installs the git hook
 * scripts as the server does, and brings branch rows in line with the restored refs (recorded
 * just after the database copy, so a push that landed in between is not lost to the lists).
 */
export async function restoreInstance(
  config: Config, file: string, err: NodeJS.WriteStream = process.stderr, signal?: AbortSignal,
): Promise<RestoreResult> {
  // The archive's database is SQLite's file: restored beside a PostgreSQL configuration it would
  // lie unused while the instance opened (and migrated) whatever database the URL names.
  if (config.database.driver === 'postgres') {
    throw new RestoreRefused('a hearth dump holds a SQLite database; this configuration\'s database is PostgreSQL: restore into a '
      + 'SQLite data directory, then move it with \'hearth admin db copy --to postgres://...\' (or restore a pg_dump backup)');
  }
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new RestoreRefused(`${file}: no such archive`);
  checkTargets(config);
  const existed = new Set([config.server.data_dir, config.repository.root].filter((d) => fs.existsSync(d)));
  const started = Date.now();
  const progress = new Progress(0, fs.statSync(file).size, err);
  try {
    fs.mkdirSync(config.server.data_dir, { recursive: true });
    // An interrupted restore undoes itself below, as a failed one: no half-restored data directory.
    const manifest = await extractArchive(config, file, progress, signal);
    signal?.throwIfAborted();
    const unknown = manifest.migrations.filter((m) => !(m in migrations));
    if (unknown.length) throw new ArchiveError(`the dump was made by a newer hearth (${manifest.hearth_version}; unknown migration ${unknown[0]}): restore it with that version`);
    for (const prefix of manifest.repositories) {
      const dir = path.join(config.repository.root, ...prefix.split('/').slice(1));
      for (const d of REPO_DIRS) fs.mkdirSync(path.join(dir, d), { recursive: true });
    }
    const repos = await reopen(config);
    const warnings = secretWarnings(config, manifest.secret);
    const seconds = (Date.now() - started) / 1000;
    progress.done(`hearth restore: ${manifest.entries.length} entries verified, ${repos} repositories, ${formatBytes(fs.statSync(file).size)} in ${seconds.toFixed(1)}s into ${config.server.data_dir}`);
    for (const w of warnings) err.write(`hearth restore: ${w}\n`);
    return { repos, entries: manifest.entries.length, warnings };
  } catch (e) {
    cleanUp(config, existed);
    throw e;
  }
}

async function reopen(config: Config): Promise<number> {
  const h = await openHearth(config, createLogger('warn'));
  try {
    installHooks(config.server.data_dir);
    const locations = await listRepoLocations(h.db);
    for (const loc of locations) {
      const dir = repoDir(config.repository.root, loc.ownerName, loc.name);
      const repo = await getRepoById(h.db, loc.id);
      if (repo && fs.existsSync(path.join(dir, 'HEAD'))) await syncRepoFromGit(h.db, repo, dir, repo.owner_id);
    }
    return locations.length;
  } finally {
    await closeHearth(h);
  }
}

function secretWarnings(config: Config, secret: string): string[] {
  if (config.security.secret_key) return [];
  if (secret === 'config') return [`the instance secret key was in the dumped configuration, restored as ${path.join(config.server.data_dir, 'config.toml')}: start hearth with that file (or its [security] secret_key), or sealed webhook secrets and mirror credentials cannot be read`];
  if (secret === 'environment') return ['the dumped instance took its secret key from the environment: set the same HEARTH__SECURITY__SECRET_KEY, or sealed webhook secrets and mirror credentials cannot be read'];
  return [];
}
