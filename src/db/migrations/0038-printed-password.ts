import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// A password hearth made and printed (the first admin's, on a terminal or in a log file): the
// web pages ask for a new one at the first sign-in, while the API keeps taking it, so that the
// scripts of a first start (curl with the printed password) work. Cleared by any change of it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE user ADD COLUMN password_printed INTEGER NOT NULL DEFAULT 0`.execute(db);
}
