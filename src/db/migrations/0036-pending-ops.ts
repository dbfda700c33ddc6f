import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Work that changes the disk and the database in two steps (a repository's directory moved, made
// or removed; a merge pushed before the pull request is marked merged) records its intent here
// first, committed, and removes the row in the transaction that completes it. A row left behind
// names work a crash interrupted; the next start finishes or undoes it (services/recovery).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE pending_op (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    created_unix INTEGER NOT NULL
  )`.execute(db);
}
