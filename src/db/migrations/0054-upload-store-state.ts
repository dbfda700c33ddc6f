import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// Chunked upload sessions (package_blob_upload, 0023) on the blob storage (issue 35): the
// store's state of the session between chunks (for a bucket: the multipart upload's id, its
// parts and the bytes waiting to make a part), so the next chunk may reach any node.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE package_blob_upload ADD COLUMN store_state TEXT NOT NULL DEFAULT ''`).execute(db);
}
