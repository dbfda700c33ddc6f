import { sql, type Insertable, type Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { Milestone, MilestoneTable } from '../db/schema';
import { likeContaining } from '../lib/like';

export type MilestoneQuery = { repoId: number; state: 'open' | 'closed' | 'all'; name?: string; offset: number; limit: number };

function filtered(db: DB, q: Omit<MilestoneQuery, 'offset' | 'limit'>) {
  let query = db.selectFrom('milestone').where('repo_id', '=', q.repoId);
  if (q.state !== 'all') query = query.where('is_closed', '=', q.state === 'closed' ? 1 : 0);
  if (q.name) {
    // Gitea: UPPER(name) LIKE %NAME%.
    const like = likeContaining(q.name.toUpperCase());
    query = query.where(sql<boolean>`upper(name) LIKE ${like} ESCAPE '\\'`);
  }
  return query;
}

/** Gitea's default milestone order: nearest due date first. */
export async function listMilestones(db: DB, q: MilestoneQuery): Promise<{ milestones: Milestone[]; total: number }> {
  const [milestones, count] = await Promise.all([
    filtered(db, q).selectAll().orderBy('deadline_unix').orderBy('id').limit(q.limit).offset(q.offset).execute(),
    filtered(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { milestones, total: Number(count.n) };
}

export async function insertMilestone(db: DB, row: Insertable<MilestoneTable>): Promise<Milestone> {
  return db.insertInto('milestone').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getMilestoneById(db: DB, repoId: number, id: number): Promise<Milestone | undefined> {
  return db.selectFrom('milestone').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

export async function getMilestoneByName(db: DB, repoId: number, name: string): Promise<Milestone | undefined> {
  return db.selectFrom('milestone').selectAll().where('repo_id', '=', repoId).where('name', '=', name).orderBy('id').executeTakeFirst();
}

export async function milestonesByIds(db: DB, ids: number[]): Promise<Milestone[]> {
  if (!ids.length) return [];
  return db.selectFrom('milestone').selectAll().where('id', 'in', ids).execute();
}

export async function updateMilestoneRow(db: DB, id: number, patch: Updateable<MilestoneTable>): Promise<void> {
  await db.updateTable('milestone').set(patch).where('id', '=', id).execute();
}

export async function deleteMilestoneRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('milestone').where('id', '=', id).execute();
}

/** Recounts a milestone's issues from the rows (Gitea's UpdateMilestoneCounters). */
export async function refreshMilestoneCounts(db: DB, id: number | null | undefined): Promise<void> {
  if (!id) return;
  await db.updateTable('milestone').set({
    num_issues: sql`(SELECT COUNT(*) FROM issue WHERE milestone_id = ${id})`,
    num_closed_issues: sql`(SELECT COUNT(*) FROM issue WHERE milestone_id = ${id} AND is_closed = 1)`,
  }).where('id', '=', id).execute();
}

/** Recounts the repository's milestone counters. */
export async function refreshRepoMilestoneCounts(db: DB, repoId: number): Promise<void> {
  await db.updateTable('repository').set({
    num_milestones: sql`(SELECT COUNT(*) FROM milestone WHERE repo_id = ${repoId})`,
    num_closed_milestones: sql`(SELECT COUNT(*) FROM milestone WHERE repo_id = ${repoId} AND is_closed = 1)`,
  }).where('id', '=', repoId).execute();
}

/** Ids of milestones with any of these names in any repository (cross-repository search). */
export async function milestoneIdsByNames(db: DB, names: string[]): Promise<number[]> {
  if (!names.length) return [];
  const rows = await db.selectFrom('milestone').select('id').where('name', 'in', names).execute();
  return rows.map((r) => r.id);
}
