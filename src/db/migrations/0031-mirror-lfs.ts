import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// A pull mirror created with `lfs: true` keeps fetching the LFS objects its refs point at on
// every sync (Gitea's mirror.lfs_enabled and lfs_endpoint), not only at the migration.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mirror ADD COLUMN lfs INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE mirror ADD COLUMN lfs_endpoint TEXT NOT NULL DEFAULT ''`.execute(db);
}
