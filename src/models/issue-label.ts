import { sql } from 'kysely';
import type { DB } from '../db/connect';
import type { Label } from '../db/schema';

// Labels on issues (issue_label) and the labels a repository may use: its own and, for an
// organization's repository, the organization's.

/** Where a repository's usable labels live: the repository, and its owner when an organization. */
export type LabelSource = { repoId: number; orgId: number | null };

function usable(db: DB, src: LabelSource) {
  return db.selectFrom('label').selectAll().where((eb) => eb.or([
    eb('repo_id', '=', src.repoId),
    ...(src.orgId !== null ? [eb('org_id', '=', src.orgId)] : []),
  ]));
}

export async function usableLabelsByIds(db: DB, src: LabelSource, ids: number[]): Promise<Label[]> {
  if (!ids.length) return [];
  return usable(db, src).where('id', 'in', ids).execute();
}

export async function usableLabelsByNames(db: DB, src: LabelSource, names: string[]): Promise<Label[]> {
  if (!names.length) return [];
  return usable(db, src).where('name', 'in', names).execute();
}

/** Ids of labels with any of these names in any repository or organization (cross-repository search). */
export async function labelIdsByNames(db: DB, names: string[]): Promise<number[]> {
  if (!names.length) return [];
  const rows = await db.selectFrom('label').select('id').where('name', 'in', names).execute();
  return rows.map((r) => r.id);
}

export async function labelById(db: DB, id: number): Promise<Label | undefined> {
  return db.selectFrom('label').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The labels of each issue, by name (Gitea's LoadLabels order). */
export async function labelsOfIssues(db: DB, issueIds: number[]): Promise<{ issue_id: number; label: Label }[]> {
  if (!issueIds.length) return [];
  const rows = await db.selectFrom('issue_label as il').innerJoin('label as l', 'l.id', 'il.label_id')
    .selectAll('l').select('il.issue_id as issue_id')
    .where('il.issue_id', 'in', issueIds).orderBy('l.name').orderBy('l.id').execute();
  return rows.map(({ issue_id, ...label }) => ({ issue_id, label: label as Label }));
}

export async function labelIdsOfIssue(db: DB, issueId: number): Promise<number[]> {
  const rows = await db.selectFrom('issue_label').select('label_id').where('issue_id', '=', issueId).orderBy('id').execute();
  return rows.map((r) => r.label_id);
}

/** True when the pair was new. */
export async function addIssueLabel(db: DB, issueId: number, labelId: number): Promise<boolean> {
  const r = await db.insertInto('issue_label').values({ issue_id: issueId, label_id: labelId })
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when the pair existed. */
export async function removeIssueLabel(db: DB, issueId: number, labelId: number): Promise<boolean> {
  const r = await db.deleteFrom('issue_label').where('issue_id', '=', issueId).where('label_id', '=', labelId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Recounts open and closed issues of labels from the rows (Gitea's updateLabelCols). */
export async function refreshLabelCounts(db: DB, labelIds: number[]): Promise<void> {
  const ids = [...new Set(labelIds)];
  if (!ids.length) return;
  await db.updateTable('label').set({
    num_issues: sql`(SELECT COUNT(*) FROM issue_label WHERE issue_label.label_id = label.id)`,
    num_closed_issues: sql`(SELECT COUNT(*) FROM issue_label JOIN issue ON issue.id = issue_label.issue_id
      WHERE issue_label.label_id = label.id AND issue.is_closed = 1)`,
  }).where('id', 'in', ids).execute();
}
