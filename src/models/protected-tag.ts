import type { Insertable, Updateable } from 'kysely';
import type { DB } from '../db/connect';
import type { ProtectedTag, ProtectedTagTable } from '../db/schema';

export async function listProtectedTags(db: DB, repoId: number): Promise<ProtectedTag[]> {
  return db.selectFrom('protected_tag').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
}

export async function getProtectedTagById(db: DB, repoId: number, id: number): Promise<ProtectedTag | undefined> {
  return db.selectFrom('protected_tag').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
}

export async function getProtectedTagByPattern(db: DB, repoId: number, pattern: string): Promise<ProtectedTag | undefined> {
  return db.selectFrom('protected_tag').selectAll()
    .where('repo_id', '=', repoId).where('name_pattern', '=', pattern).executeTakeFirst();
}

export async function insertProtectedTag(db: DB, row: Insertable<ProtectedTagTable>): Promise<ProtectedTag> {
  return db.insertInto('protected_tag').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateProtectedTag(db: DB, id: number, patch: Updateable<ProtectedTagTable>): Promise<void> {
  await db.updateTable('protected_tag').set(patch).where('id', '=', id).execute();
}

export async function deleteProtectedTag(db: DB, id: number): Promise<void> {
  await db.deleteFrom('protected_tag').where('id', '=', id).execute();
}
