import { sql } from 'kysely';
import type { DB } from '../db/connect';
import type { Issue } from '../db/schema';

// Pins live in issue.pin_order (1.. per repository and kind; 0 is unpinned).

export async function maxPinOrder(db: DB, repoId: number, isPull: number): Promise<number> {
  const row = await db.selectFrom('issue').select((eb) => eb.fn.max<number>('pin_order').as('m'))
    .where('repo_id', '=', repoId).where('is_pull', '=', isPull).executeTakeFirst();
  return Number(row?.m ?? 0);
}

/** How many issues (or pulls) of the repository are pinned: a moved pin may leave gaps in the order. */
export async function countPinned(db: DB, repoId: number, isPull: number): Promise<number> {
  const row = await db.selectFrom('issue').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('repo_id', '=', repoId).where('is_pull', '=', isPull).where('pin_order', '>', 0).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function pinnedIssues(db: DB, repoId: number, isPull: number): Promise<Issue[]> {
  return db.selectFrom('issue').selectAll().where('repo_id', '=', repoId).where('is_pull', '=', isPull)
    .where('pin_order', '>', 0).orderBy('pin_order').execute();
}

/** Moves the pins in [from, to] by `delta` (closing or opening a gap). */
export async function shiftPins(db: DB, repoId: number, isPull: number, from: number, to: number, delta: number): Promise<void> {
  await db.updateTable('issue').set({ pin_order: sql`pin_order + ${delta}` })
    .where('repo_id', '=', repoId).where('is_pull', '=', isPull)
    .where('pin_order', '>=', from).where('pin_order', '<=', to).execute();
}

export async function setPinOrder(db: DB, issueId: number, order: number): Promise<void> {
  await db.updateTable('issue').set({ pin_order: order }).where('id', '=', issueId).execute();
}
