import fs from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config/load';
import type { Config } from '../config/schema';

export type CommonOptions = { config?: string; port?: string; data?: string };

export function configFrom(opts: CommonOptions): Config {
  let port: number | undefined;
  if (opts.port !== undefined) {
    port = Number(opts.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port: not a port number: ${opts.port}`);
  }
  return loadConfig(opts.config ?? null, { port, dataDir: opts.data });
}

/** A usage error: printed without a stack trace, exit status 1. */
export class CliError extends Error {}

/** `--config` and `--data`, which every command takes as `web` does. */
export function withCommonOptions(cmd: Command): Command {
  return cmd
    .option('-c, --config <file>', 'configuration file (TOML)')
    .option('-d, --data <dir>', 'data directory, overriding the configuration');
}

/**
 * The configuration of an existing instance: a command other than `migrate` and `web` run
 * where there is no database (another directory, a mistyped --data) says so instead of
 * quietly creating an empty one.
 */
export function existingInstanceConfig(opts: CommonOptions): Config {
  const config = configFrom(opts);
  // A PostgreSQL database that is not there is named by the connection layer's refusal.
  if (config.database.driver === 'sqlite' && !fs.existsSync(config.database.path)) {
    throw new CliError(`no database at ${config.database.path}: run 'hearth migrate' to create one, `
      + 'or point --config/--data (HEARTH__SERVER__DATA_DIR) at the instance');
  }
  // PostgreSQL: the database is elsewhere, but the instance key and the repositories are in the
  // data directory, which `hearth migrate` and `hearth web` make; a mistyped --data would
  // otherwise get a new, empty one with a key of its own.
  if (config.database.driver === 'postgres' && !fs.existsSync(config.server.data_dir)) {
    throw new CliError(`no data directory at ${config.server.data_dir}: run 'hearth migrate' to create it, `
      + 'or point --config/--data (HEARTH__SERVER__DATA_DIR) at the instance');
  }
  return config;
}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied (EACCES)',
  EPERM: 'operation not permitted (EPERM)',
  EROFS: 'read-only file system (EROFS)',
  ENOTDIR: 'a path component is not a directory (ENOTDIR)',
  ENOSPC: 'no space left on device (ENOSPC)',
  EEXIST: 'exists and is not a directory (EEXIST)',
};

/** A file-system failure on the data directory as one line naming the directory and the cause. */
export function dataDirFailure(err: unknown, dataDir: string): CliError | null {
  const e = err as NodeJS.ErrnoException;
  const reason = e && typeof e.code === 'string' ? FS_REASONS[e.code] : undefined;
  if (!reason) return null;
  const at = e.path && e.path !== dataDir ? ` (${e.syscall ?? 'at'} ${e.path})` : '';
  return new CliError(`data directory ${dataDir} is not writable: ${reason}${at}; `
    + 'set [server] data_dir, HEARTH__SERVER__DATA_DIR or --data to a writable directory');
}
