import type { TestProject } from 'vitest/node';
import type { PostgresHarness } from './helpers/test-database';
import { startPostgres } from './helpers/postgres';

// vitest's globalSetup for the PostgreSQL pass (HEARTH_TEST_DB=postgres; a no-op otherwise): one
// throwaway cluster for the whole run and a template database migrated once, which
// test/helpers/test-database.ts clones per test server and temp database.

const TEMPLATE = 'hearth_template';

export default async function setup(project: TestProject): Promise<(() => void) | void> {
  if (process.env.HEARTH_TEST_DB !== 'postgres') {
    project.provide('hearthPostgres', null);
    return undefined;
  }
  const server = startPostgres();
  try {
    const harness: PostgresHarness = { socketDir: server.socketDir, port: server.port, user: server.user, template: TEMPLATE };
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ host: server.socketDir, port: server.port, user: server.user, database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const { openPostgres } = await import('../src/db/postgres/connect');
    const { migrate } = await import('../src/db/connect');
    const db = await openPostgres({ url: server.url(TEMPLATE), poolSize: 1 });
    try {
      await migrate(db);
    } finally {
      // A template with a connection open cannot be copied.
      await db.destroy();
    }
    project.provide('hearthPostgres', harness);
  } catch (err) {
    server.stop();
    throw err;
  }
  return () => server.stop();
}
