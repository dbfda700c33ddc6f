import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// A repository's topics stay in repository.topics (JSON); this table gives each topic name a
// stable id and times for /topics/search. Repository counts are computed from the JSON.

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE topic (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      created_unix INTEGER NOT NULL,
      updated_unix INTEGER NOT NULL
    )`,
    sql`CREATE UNIQUE INDEX idx_topic_name ON topic (name)`,
  ];
  for (const s of statements) await s.execute(db);
}
