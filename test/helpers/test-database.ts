import { randomBytes } from 'node:crypto';
import { describe, inject, it } from 'vitest';

// The engine the test run uses: SQLite unless HEARTH_TEST_DB=postgres, when test/global-postgres.ts
// starts one throwaway cluster with a migrated template database and every test server or
// temp database gets a fresh copy of it (CREATE DATABASE ... TEMPLATE), dropped when it stops.

export type PostgresHarness = { socketDir: string; port: number; user: string; template: string };

declare module 'vitest' {
  export interface ProvidedContext {
    hearthPostgres: PostgresHarness | null;
  }
}

export const testsOnPostgres = process.env.HEARTH_TEST_DB === 'postgres';

/**
 * A test that only means something on SQLite (its statement cache, the one-file dump, pragmas,
 * the WAL): skipped in the PostgreSQL pass. Say why in the test's name or beside it.
 */
export const sqliteOnly = it.skipIf(testsOnPostgres);
/** A whole suite of such tests (its hooks inside it, so they do not run either). */
export const sqliteOnlySuite = describe.skipIf(testsOnPostgres);

export const socketUrl = (h: Pick<PostgresHarness, 'socketDir' | 'port' | 'user'>, database: string) =>
  `postgres://${h.user}@/${database}?host=${encodeURIComponent(h.socketDir)}&port=${h.port}`;

/** Runs statements on the cluster's maintenance database (CREATE/DROP DATABASE cannot run in one of their own). */
async function onCluster(h: PostgresHarness, statements: string[]): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: h.socketDir, port: h.port, user: h.user, database: 'postgres' });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

export type TestPostgresDatabase = { url: string; name: string; drop(): Promise<void> };

/**
 * A fresh database cloned from the migrated template (null when the run is on SQLite); with
 * `empty`, one with no schema at all, for what a first `hearth migrate` or start does.
 */
export async function createTestPostgresDatabase(opts: { empty?: boolean } = {}): Promise<TestPostgresDatabase | null> {
  if (!testsOnPostgres) return null;
  const h = inject('hearthPostgres');
  if (!h) throw new Error('HEARTH_TEST_DB=postgres but no cluster was provided: run through vitest (vitest.config.mts globalSetup)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onCluster(h, [`CREATE DATABASE "${name}" TEMPLATE "${opts.empty ? 'template0' : h.template}"`]);
  let dropped = false;
  return {
    url: socketUrl(h, name),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      // FORCE: a connection a test left open (a stopped server's straggler) does not keep it.
      await onCluster(h, [`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]);
    },
  };
}
