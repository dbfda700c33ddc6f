import type { DB } from '../db/connect';
import type { ActionArtifact } from '../db/schema';

// Artifacts of the v3 upload protocol (@actions/artifact 1.x): one row per uploaded file, keyed
// by (run, artifact name, path in the artifact), as Gitea's getArtifactByNameAndPath.

export const artifactByNameAndPath = (db: DB, runId: number, name: string, filePath: string) =>
  db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('artifact_name', '=', name)
    .where('artifact_path', '=', filePath).orderBy('id').executeTakeFirst();

export const artifactById = (db: DB, id: number) =>
  db.selectFrom('action_artifact').selectAll().where('id', '=', id).executeTakeFirst();

/** Every row of an artifact of a run (each file), oldest first; only `status` ones when given. */
export function rowsOfArtifact(db: DB, runId: number, name: string, status?: string): Promise<ActionArtifact[]> {
  let q = db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('artifact_name', '=', name);
  if (status) q = q.where('status', '=', status);
  return q.orderBy('id').execute();
}

export async function updateV3Artifact(db: DB, id: number, patch: Partial<Pick<ActionArtifact,
  'status' | 'file_size' | 'file_compressed_size' | 'content_encoding' | 'storage_path' | 'updated_unix' | 'expired_unix'>>): Promise<void> {
  await db.updateTable('action_artifact').set(patch).where('id', '=', id).execute();
}
