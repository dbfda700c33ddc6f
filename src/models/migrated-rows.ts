import { sql } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';

// Rows written by a repository migration (services/migrate/upload): given numbers and dates, and
// the counters recounted once a kind is imported rather than bumped per row.

/** Name -> id of the repository's labels (a migration attaches issue labels by name). */
export async function repoLabelIdsByName(db: DB, repoId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom('label').select(['id', 'name']).where('repo_id', '=', repoId).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Title -> id of the repository's milestones. */
export async function repoMilestoneIdsByName(db: DB, repoId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom('milestone').select(['id', 'name']).where('repo_id', '=', repoId).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Numbers already taken in the repository among these (a re-run or a collision skips them). */
export async function takenIssueIndexes(db: DB, repoId: number, indexes: number[]): Promise<Set<number>> {
  if (!indexes.length) return new Set();
  const rows = await db.selectFrom('issue').select('index').where('repo_id', '=', repoId).where('index', 'in', indexes).execute();
  return new Set(rows.map((r) => r.index));
}

/** Raises the repository's issue counter to its highest number, so the next issue gets max+1. */
export async function syncIssueIndex(db: DB, repoId: number): Promise<void> {
  const inUse = sql`COALESCE((SELECT MAX("index") FROM issue WHERE repo_id = ${repoId}), 0)`;
  await sql`INSERT INTO issue_index (group_id, max_index) VALUES (${repoId}, ${inUse})
    ON CONFLICT (group_id) DO UPDATE SET max_index = ${dialectOf(db).greatest(sql`issue_index.max_index`, inUse)}`.execute(db);
}

export type MigratedReaction = {
  type: string; issue_id: number; comment_id: number; user_id: number; created_unix: number;
  original_author: string; original_author_id: number;
};

/** False when the row exists already (same type, issue, comment, user and original_author). */
export async function insertMigratedReaction(db: DB, row: MigratedReaction): Promise<boolean> {
  const r = await db.insertInto('reaction').values(row).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
  return r !== undefined;
}

/** Links an issue to labels, ignoring pairs that exist. */
export async function addIssueLabels(db: DB, issueId: number, labelIds: number[]): Promise<void> {
  if (!labelIds.length) return;
  await db.insertInto('issue_label').values(labelIds.map((label_id) => ({ issue_id: issueId, label_id })))
    .onConflict((oc) => oc.doNothing()).execute();
}

/** Recounts num_comments of every issue of the repository (after comments were imported). */
export async function refreshRepoNumComments(db: DB, repoId: number, countedTypes: readonly number[]): Promise<void> {
  await sql`UPDATE issue SET num_comments = (SELECT COUNT(*) FROM comment
    WHERE comment.issue_id = issue.id AND comment.type IN (${sql.join([...countedTypes])}))
    WHERE repo_id = ${repoId}`.execute(db);
}

/** Recounts open/closed issues of every label and milestone of the repository. */
export async function refreshRepoLabelAndMilestoneCounts(db: DB, repoId: number): Promise<void> {
  await sql`UPDATE label SET
    num_issues = (SELECT COUNT(*) FROM issue_label WHERE issue_label.label_id = label.id),
    num_closed_issues = (SELECT COUNT(*) FROM issue_label JOIN issue ON issue.id = issue_label.issue_id
      WHERE issue_label.label_id = label.id AND issue.is_closed = 1)
    WHERE repo_id = ${repoId}`.execute(db);
  await sql`UPDATE milestone SET
    num_issues = (SELECT COUNT(*) FROM issue WHERE issue.milestone_id = milestone.id),
    num_closed_issues = (SELECT COUNT(*) FROM issue WHERE issue.milestone_id = milestone.id AND issue.is_closed = 1)
    WHERE repo_id = ${repoId}`.execute(db);
}
