import { sql } from 'kysely';
import type { DB } from '../db/connect';

export async function pingDatabase(db: DB): Promise<void> {
  await sql`select 1`.execute(db);
}
