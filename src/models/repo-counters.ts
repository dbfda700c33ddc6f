import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/connect';
import { atomically, lockRows } from '../db/dialect';

// The stored counters of a repository against a count of their rows, for check_repo_stats.
// Each count is a subquery on `repository.id`, so one fragment serves the check and the fix.

export const REPO_COUNTERS = [
  'num_issues', 'num_closed_issues', 'num_pulls', 'num_closed_pulls',
  'num_stars', 'num_forks', 'num_watches', 'num_releases',
] as const;
export type RepoCounter = (typeof REPO_COUNTERS)[number];

const issues = (isPull: number, closedOnly: boolean) => sql<number>`(SELECT COUNT(*) FROM issue
  WHERE issue.repo_id = repository.id AND issue.is_pull = ${isPull}${closedOnly ? sql` AND issue.is_closed = 1` : sql``})`;

const ACTUAL: Record<RepoCounter, RawBuilder<number>> = {
  num_issues: issues(0, false),
  num_closed_issues: issues(0, true),
  num_pulls: issues(1, false),
  num_closed_pulls: issues(1, true),
  num_stars: sql<number>`(SELECT COUNT(*) FROM star WHERE star.repo_id = repository.id)`,
  num_forks: sql<number>`(SELECT COUNT(*) FROM repository AS fork WHERE fork.fork_id = repository.id)`,
  num_watches: sql<number>`(SELECT COUNT(*) FROM watch WHERE watch.repo_id = repository.id)`,
  // Published releases only, as the release service keeps it.
  num_releases: sql<number>`(SELECT COUNT(*) FROM release
    WHERE release.repo_id = repository.id AND release.is_tag = 0 AND release.is_draft = 0)`,
};

export type CounterDrift = {
  id: number;
  ownerName: string;
  name: string;
  /** The counters that are off: stored value, then the count of the rows. */
  off: { counter: RepoCounter; stored: number; actual: number }[];
};

/** Repositories with at least one counter that does not match its rows. */
export async function findCounterDrift(db: DB): Promise<CounterDrift[]> {
  const drifted = sql<SqlBool>`(${sql.join(REPO_COUNTERS.map((c) => sql`${sql.ref(`repository.${c}`)} <> ${ACTUAL[c]}`), sql` OR `)})`;
  const rows = await db.selectFrom('repository')
    .select(['repository.id', 'repository.owner_name', 'repository.name', ...REPO_COUNTERS.map((c) => `repository.${c}` as const)])
    .select(REPO_COUNTERS.map((c) => ACTUAL[c].as(`actual_${c}`)))
    .where(drifted)
    .orderBy('repository.id')
    .execute();
  return rows.map((r) => {
    const row = r as unknown as Record<string, number>;
    const off = REPO_COUNTERS
      .map((counter) => ({ counter, stored: Number(row[counter]), actual: Number(row[`actual_${counter}`]) }))
      .filter((c) => c.stored !== c.actual);
    return { id: r.id, ownerName: r.owner_name, name: r.name, off };
  });
}

/** Sets every counter of these repositories to the count of its rows, at the time of the update. */
export async function recountCounters(db: DB, ids: number[]): Promise<void> {
  if (!ids.length) return;
  // Locked first: a recount racing a writer's commit would otherwise count from a stale snapshot.
  await atomically(db, async (trx) => {
    await lockRows(trx, 'repository', ids);
    await trx.updateTable('repository')
      .set(Object.fromEntries(REPO_COUNTERS.map((c) => [c, ACTUAL[c]])))
      .where('id', 'in', ids)
      .execute();
  });
}

export type RepoLocation = { id: number; ownerName: string; name: string };

/** Every repository, by id: what git maintenance goes through. */
export async function listRepoLocations(db: DB): Promise<RepoLocation[]> {
  const rows = await db.selectFrom('repository').select(['id', 'owner_name', 'name']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, ownerName: r.owner_name, name: r.name }));
}
