import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The SPDX identifiers of the license files found at a repository's default branch, as a JSON
// array like `topics`: the Repository JSON carries them, so every converter gets them with the row.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE repository ADD COLUMN licenses TEXT NOT NULL DEFAULT '[]'`.execute(db);
}
