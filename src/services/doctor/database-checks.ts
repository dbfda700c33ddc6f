import type { DB } from '../../db/connect';
import { migrations } from '../../db/migrations';
import { findCounterDrift, recountCounters } from '../../models/repo-counters';
import { appliedMigrations, foreignKeyCheck, integrityCheck, unvalidatedConstraints } from '../../models/maintenance';
import { dialectOf } from '../../db/dialect';
import { fixable, reportOnly, skipped, type DoctorContext, type Findings } from './types';

const onPostgres = (db: DB) => dialectOf(db).engine === 'postgres';

/** This engine's migrations: PostgreSQL's start with its baseline (loaded only on PostgreSQL). */
async function knownMigrations(db: DB): Promise<string[]> {
  if (!onPostgres(db)) return Object.keys(migrations);
  return Object.keys((await import('../../db/postgres/migrate')).postgresMigrations());
}

/**
 * Migrations applied against the ones this hearth knows (Gitea's check-db-version). Only
 * reported: `hearth migrate` upgrades, the doctor never changes the schema.
 */
export async function checkDatabaseVersion(db: DB): Promise<Findings> {
  const applied = await appliedMigrations(db);
  if (applied === null) return reportOnly(['not a hearth database: it has no migration table']);
  const known = await knownMigrations(db);
  const pending = known.filter((m) => !applied.includes(m));
  const unknown = applied.filter((m) => !known.includes(m));
  const problems: string[] = [];
  if (pending.length) problems.push(`${pending.length} migrations not applied (${pending.join(', ')}): run hearth migrate`);
  if (unknown.length) problems.push(`applied migrations this hearth does not know (${unknown.join(', ')}): the database is from a newer hearth`);
  return reportOnly(problems);
}

/** `PRAGMA integrity_check`: a damaged file is for a backup, never for the doctor to patch. */
export async function checkDatabaseIntegrity(db: DB): Promise<Findings> {
  if (onPostgres(db)) return skipped('PostgreSQL has no counterpart hearth can run as any user (use its data checksums, or pg_amcheck as a superuser)');
  const result = await integrityCheck(db);
  return reportOnly(result.length === 1 && result[0] === 'ok' ? [] : result);
}

/** `PRAGMA foreign_key_check`: rows pointing at a parent row that is gone, counted by table. */
export async function checkForeignKeys(db: DB): Promise<Findings> {
  if (onPostgres(db)) {
    // PostgreSQL refuses an orphan on every write: only a constraint never validated can hide one.
    return reportOnly((await unvalidatedConstraints(db)).map((c) => `${c.table}: constraint ${c.name} was never validated (ALTER TABLE ... VALIDATE CONSTRAINT)`));
  }
  const faults = await foreignKeyCheck(db);
  const byTable = new Map<string, { parent: string; rowids: (number | null)[] }>();
  for (const f of faults) {
    const key = `${f.table} -> ${f.parent}`;
    const entry = byTable.get(key) ?? { parent: f.parent, rowids: [] };
    entry.rowids.push(f.rowid);
    byTable.set(key, entry);
  }
  return reportOnly([...byTable].map(([key, e]) =>
    `${key}: ${e.rowids.length} rows without their parent (rowid ${e.rowids.slice(0, 5).join(', ')}${e.rowids.length > 5 ? ', ...' : ''})`));
}

/** The stored counters of each repository against a count of their rows (check_repo_stats). */
export async function checkRepoCounters(db: DB, ctx: DoctorContext): Promise<Findings> {
  const drift = await findCounterDrift(db);
  const described = drift.map((d) =>
    `${d.ownerName}/${d.name} (${d.off.map((c) => `${c.counter} ${c.stored}, counted ${c.actual}`).join(', ')})`);
  if (!ctx.fix || !drift.length) return fixable(ctx, described);
  await recountCounters(db, drift.map((d) => d.id));
  return fixable(ctx, [], described.map((d) => `recounted ${d}`));
}
