import type { Insertable } from 'kysely';
import type { DB } from '../db/connect';
import type { ActionArtifact, ActionArtifactTable } from '../db/schema';

// Artifacts of the v4 upload protocol: one row per (run, name), its one file `<name>.zip`.

export const V4_ENCODING = 'application/zip';

/** Gitea's IsArtifactV4: one `<name>.zip` of type application/zip (v1-v3 keep a row per file). */
export const isV4Artifact = (a: Pick<ActionArtifact, 'artifact_name' | 'artifact_path' | 'content_encoding'>) =>
  a.content_encoding === V4_ENCODING && a.artifact_path === `${a.artifact_name}.zip`;

export const artifactByName = (db: DB, runId: number, name: string) =>
  db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('artifact_name', '=', name)
    .where('artifact_path', '=', `${name}.zip`).where('content_encoding', '=', V4_ENCODING)
    .where('status', 'in', ['pending', 'confirmed']).orderBy('id', 'desc').executeTakeFirst();

export async function insertArtifact(db: DB, row: Insertable<ActionArtifactTable>): Promise<ActionArtifact> {
  return db.insertInto('action_artifact').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateArtifact(db: DB, id: number, patch: Partial<Pick<ActionArtifact,
  'status' | 'file_size' | 'file_compressed_size' | 'storage_path' | 'updated_unix' | 'expired_unix'>>): Promise<void> {
  await db.updateTable('action_artifact').set(patch).where('id', '=', id).execute();
}

export const confirmedArtifactsOfRun = (db: DB, runId: number) =>
  db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('status', '=', 'confirmed')
    .orderBy('id').execute();
