import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config/load';
import { openHearth, type Hearth } from '../../src/hearth';
import { createLogger } from '../../src/lib/logger';
import type { TempPostgres } from './postgres';

// Several hearth nodes on one PostgreSQL database (issue 35), in this process: each node is a
// Hearth handle of its own (its own pool, node id, job queue), as two servers would hold.

/** A fresh empty database on `server`; its URL. */
export async function freshDatabase(server: TempPostgres, name: string): Promise<string> {
  const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: server.url(), max: 1 }) }) });
  try {
    await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  } finally {
    await admin.destroy();
  }
  return server.url(name);
}

/** The environment that points hearth at `url` (for a `hearth web` process, or loadConfig). */
export const clusterEnv = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({
  HEARTH__DATABASE__DRIVER: 'postgres', HEARTH__DATABASE__URL: url, ...extra,
});

/** A node over `url` with a data directory of its own; `env` sets more of its configuration. */
export async function openNode(url: string, env: Record<string, string> = {}): Promise<Hearth> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-node-'));
  const config = loadConfig(null, { dataDir }, clusterEnv(url, env));
  return openHearth(config, createLogger('silent'));
}
