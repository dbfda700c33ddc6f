import { sql, type Insertable, type Updateable } from 'kysely';
import type { DB } from '../db/connect';
import { dialectOf } from '../db/dialect';
import type { Attachment, Issue, IssueTable } from '../db/schema';

// Issue rows (issues and pull requests share the table and the numbering).

/**
 * The next number of a repository: one above both its counter and every number in use (so rows
 * written by other code paths cannot collide). Call inside the creating transaction: the
 * single SQLite connection serializes transactions, so two creates never see the same value.
 */
export async function allocateIssueIndex(db: DB, repoId: number): Promise<number> {
  const inUse = sql`COALESCE((SELECT MAX("index") FROM issue WHERE repo_id = ${repoId}), 0)`;
  const { rows } = await sql<{ max_index: number }>`
    INSERT INTO issue_index (group_id, max_index) VALUES (${repoId}, ${inUse} + 1)
    ON CONFLICT (group_id) DO UPDATE SET max_index = ${dialectOf(db).greatest(sql`issue_index.max_index`, inUse)} + 1
    RETURNING max_index`.execute(db);
  return Number(rows[0]!.max_index);
}

export async function insertIssue(db: DB, row: Insertable<IssueTable>): Promise<Issue> {
  return db.insertInto('issue').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getIssueByIndex(db: DB, repoId: number, index: number): Promise<Issue | undefined> {
  return db.selectFrom('issue').selectAll().where('repo_id', '=', repoId).where('index', '=', index).executeTakeFirst();
}

export async function getIssueById(db: DB, id: number): Promise<Issue | undefined> {
  return db.selectFrom('issue').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function issuesByIds(db: DB, ids: number[]): Promise<Issue[]> {
  if (!ids.length) return [];
  return db.selectFrom('issue').selectAll().where('id', 'in', ids).execute();
}

export async function updateIssueRow(db: DB, id: number, patch: Updateable<IssueTable>): Promise<void> {
  await db.updateTable('issue').set(patch).where('id', '=', id).execute();
}

export async function deleteIssueRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('issue').where('id', '=', id).execute();
}

/** Recounts a repository's issue and pull counters from the rows (Gitea's UpdateRepoIssueNumbers). */
export async function refreshRepoIssueCounts(db: DB, repoId: number): Promise<void> {
  const count = (isPull: number, closedOnly: boolean) => sql<number>`(SELECT COUNT(*) FROM issue
    WHERE repo_id = ${repoId} AND is_pull = ${isPull} ${closedOnly ? sql`AND is_closed = 1` : sql``})`;
  await db.updateTable('repository').set({
    num_issues: count(0, false), num_closed_issues: count(0, true),
    num_pulls: count(1, false), num_closed_pulls: count(1, true),
  }).where('id', '=', repoId).execute();
}

/**
 * Counts one new issue or pull request in its repository's counters: an increment, where the
 * recount above reads every issue row of the repository (its cost grew with each issue).
 */
export async function countNewIssue(db: DB, repoId: number, isPull: boolean, closed: boolean): Promise<void> {
  const [all, done] = isPull ? (['num_pulls', 'num_closed_pulls'] as const) : (['num_issues', 'num_closed_issues'] as const);
  await db.updateTable('repository').set((eb) => ({
    [all]: eb(all, '+', 1),
    ...(closed ? { [done]: eb(done, '+', 1) } : {}),
  })).where('id', '=', repoId).execute();
}

/** Open issues (of either kind) this issue depends on, for the close rule. */
export async function countOpenDependencies(db: DB, issueId: number): Promise<number> {
  const row = await db.selectFrom('issue_dependency as d').innerJoin('issue as i', 'i.id', 'd.dependency_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('d.issue_id', '=', issueId).where('i.is_closed', '=', 0).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Files attached to the issues themselves (not to their comments). */
export async function issueAttachments(db: DB, issueIds: number[]): Promise<Attachment[]> {
  if (!issueIds.length) return [];
  return db.selectFrom('attachment').selectAll().where('issue_id', 'in', issueIds).where('comment_id', '=', 0).orderBy('id').execute();
}

/** Files attached to comments. */
export async function commentAttachments(db: DB, commentIds: number[]): Promise<Attachment[]> {
  if (!commentIds.length) return [];
  return db.selectFrom('attachment').selectAll().where('comment_id', 'in', commentIds).orderBy('id').execute();
}

/** Notification threads of a deleted issue (no foreign key holds them). */
export async function deleteIssueNotifications(db: DB, issueId: number): Promise<void> {
  await db.deleteFrom('notification').where('issue_id', '=', issueId).execute();
}
