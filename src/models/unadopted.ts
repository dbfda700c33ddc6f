import type { DB } from '../db/connect';

/** Which of these lower-case names the owner has repository rows for. */
export async function existingRepoNames(db: DB, ownerId: number, lowerNames: string[]): Promise<Set<string>> {
  if (!lowerNames.length) return new Set();
  const rows = await db.selectFrom('repository').select('lower_name')
    .where('owner_id', '=', ownerId).where('lower_name', 'in', lowerNames).execute();
  return new Set(rows.map((r) => r.lower_name));
}
