import type { DB } from '../db/connect';
import type { Advisory } from '../db/schema';

export type NewAdvisory = {
  osv_id: string; summary: string; severity: string; ecosystem: string; package: string;
  affected: string; published_unix: number; modified_unix: number;
};

/** Inserts or replaces the row of (osv_id, ecosystem, package); true when it was new or changed. */
export async function upsertAdvisory(db: DB, a: NewAdvisory): Promise<boolean> {
  const old = await db.selectFrom('advisory').select(['modified_unix', 'affected']).where('osv_id', '=', a.osv_id)
    .where('ecosystem', '=', a.ecosystem).where('package', '=', a.package).executeTakeFirst();
  if (old && old.modified_unix === a.modified_unix && old.affected === a.affected) return false;
  await db.insertInto('advisory').values(a)
    .onConflict((oc) => oc.columns(['osv_id', 'ecosystem', 'package']).doUpdateSet({
      summary: a.summary, severity: a.severity, affected: a.affected, published_unix: a.published_unix, modified_unix: a.modified_unix,
    })).execute();
  return true;
}

/** The advisories of some packages of one ecosystem. */
export async function advisoriesFor(db: DB, ecosystem: string, packages: string[]): Promise<Advisory[]> {
  if (!packages.length) return [];
  const out: Advisory[] = [];
  // SQLite's bound-parameter limit: a big lock file is looked up in slices.
  for (let i = 0; i < packages.length; i += 500) {
    out.push(...await db.selectFrom('advisory').selectAll().where('ecosystem', '=', ecosystem)
      .where('package', 'in', packages.slice(i, i + 500)).execute());
  }
  return out;
}

export const getAdvisoriesByIds = (db: DB, ids: number[]) =>
  ids.length ? db.selectFrom('advisory').selectAll().where('id', 'in', ids).execute() : Promise.resolve([] as Advisory[]);

/** Whether any advisory was imported: without one there is nothing to match. */
export const hasAdvisories = async (db: DB): Promise<boolean> =>
  (await db.selectFrom('advisory').select('id').limit(1).executeTakeFirst()) !== undefined;
