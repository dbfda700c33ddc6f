import type { DB } from '../db/connect';
import type { Issue } from '../db/schema';

// issue_dependency rows: `issue_id` depends on (is blocked by) `dependency_id`.

export async function dependencyExists(db: DB, issueId: number, dependencyId: number): Promise<boolean> {
  const row = await db.selectFrom('issue_dependency').select('id')
    .where('issue_id', '=', issueId).where('dependency_id', '=', dependencyId).executeTakeFirst();
  return !!row;
}

export async function insertDependency(db: DB, userId: number, issueId: number, dependencyId: number, now: number): Promise<void> {
  await db.insertInto('issue_dependency').values({ user_id: userId, issue_id: issueId, dependency_id: dependencyId, created_unix: now }).execute();
}

export async function deleteDependency(db: DB, issueId: number, dependencyId: number): Promise<number> {
  const res = await db.deleteFrom('issue_dependency').where('issue_id', '=', issueId).where('dependency_id', '=', dependencyId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Issues `issueId` depends on (`blockers`) or that depend on it (`blocking`), oldest link first. */
export async function linkedIssues(
  db: DB, issueId: number, which: 'blockers' | 'blocking', page?: { offset: number; limit: number },
): Promise<Issue[]> {
  const [mine, theirs] = which === 'blockers' ? (['d.issue_id', 'd.dependency_id'] as const) : (['d.dependency_id', 'd.issue_id'] as const);
  let q = db.selectFrom('issue_dependency as d').innerJoin('issue as i', 'i.id', theirs)
    .selectAll('i').where(mine, '=', issueId).orderBy('d.id');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return q.execute();
}
