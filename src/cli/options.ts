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
