import type { DB } from '../db/connect';

/** Copies a repository's labels to another (counts start at zero). */
export async function copyRepoLabels(db: DB, fromRepoId: number, toRepoId: number, now: number): Promise<void> {
  const labels = await db.selectFrom('label').selectAll().where('repo_id', '=', fromRepoId).execute();
  if (!labels.length) return;
  await db.insertInto('label').values(labels.map((l) => ({
    repo_id: toRepoId, org_id: null, name: l.name, exclusive: l.exclusive, is_archived: l.is_archived,
    description: l.description, color: l.color, created_unix: now, updated_unix: now,
  }))).execute();
}

/** Copies a repository's branch protection rules to another. */
export async function copyProtectedBranches(db: DB, fromRepoId: number, toRepoId: number, now: number): Promise<void> {
  const rules = await db.selectFrom('protected_branch').selectAll().where('repo_id', '=', fromRepoId).execute();
  if (!rules.length) return;
  await db.insertInto('protected_branch').values(rules.map((r) => ({
    repo_id: toRepoId, rule_name: r.rule_name, priority: r.priority, settings: r.settings, created_unix: now, updated_unix: now,
  }))).execute();
}
