import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf, type Dialect } from '../db/dialect';

export type TopicRow = { id: number; name: string; created_unix: number; updated_unix: number; repo_count: number };

/** Records topic names (new ones get an id) and marks them as just used. */
export async function touchTopics(db: DB, names: string[], now: number): Promise<void> {
  if (!names.length) return;
  await db.insertInto('topic').values(names.map((name) => ({ name, created_unix: now, updated_unix: now })))
    .onConflict((oc) => oc.column('name').doUpdateSet({ updated_unix: now })).execute();
}

// Topics in use, with how many repositories carry each, counted from repository.topics.
const inUse = (d: Dialect, keyword: string) => {
  const like = `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`FROM topic t
    JOIN (SELECT j.value AS name, count(*) AS n FROM repository r, ${d.jsonElements('r.topics', 'j')} GROUP BY j.value) c
      ON c.name = t.name
    WHERE t.name LIKE ${like} ESCAPE '\\'`;
};

/** Topics whose name contains `keyword`, most used first (as Gitea orders them). */
export async function searchTopics(db: DB, keyword: string, offset: number, limit: number): Promise<{ topics: TopicRow[]; total: number }> {
  const count = await sql<{ n: number }>`SELECT count(*) AS n ${inUse(dialectOf(db), keyword)}`.execute(db);
  const rows = await sql<TopicRow>`SELECT t.id, t.name, t.created_unix, t.updated_unix, c.n AS repo_count ${inUse(dialectOf(db), keyword)}
    ORDER BY c.n DESC, t.name LIMIT ${limit} OFFSET ${offset}`.execute(db);
  return { topics: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}
