import type { DB } from '../db/connect';

// The "Viewed" marks of a pull request's files, per user and path, with the blob they saw.

/** path → blob id the user marked viewed. */
export async function viewedBlobs(db: DB, userId: number, issueId: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('pull_viewed_file').select(['path', 'blob_sha'])
    .where('user_id', '=', userId).where('issue_id', '=', issueId).execute();
  return new Map(rows.map((r) => [r.path, r.blob_sha]));
}

export async function markViewed(db: DB, row: { userId: number; issueId: number; path: string; blob: string; now: number }): Promise<void> {
  await db.insertInto('pull_viewed_file')
    .values({ user_id: row.userId, issue_id: row.issueId, path: row.path, blob_sha: row.blob, updated_unix: row.now })
    .onConflict((oc) => oc.columns(['user_id', 'issue_id', 'path']).doUpdateSet({ blob_sha: row.blob, updated_unix: row.now }))
    .execute();
}

export async function unmarkViewed(db: DB, userId: number, issueId: number, path: string): Promise<void> {
  await db.deleteFrom('pull_viewed_file').where('user_id', '=', userId).where('issue_id', '=', issueId).where('path', '=', path).execute();
}
