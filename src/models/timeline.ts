import type { DB } from '../db/connect';
import type { Label, TrackedTime } from '../db/schema';

// Batch loads for the timeline's event details.

export async function labelsByIds(db: DB, ids: number[]): Promise<Label[]> {
  if (!ids.length) return [];
  return db.selectFrom('label').selectAll().where('id', 'in', ids).execute();
}

export async function trackedTimesByIds(db: DB, ids: number[]): Promise<TrackedTime[]> {
  if (!ids.length) return [];
  return db.selectFrom('tracked_time').selectAll().where('id', 'in', ids).execute();
}
