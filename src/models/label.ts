import type { DB } from '../db/connect';
import type { Label } from '../db/schema';

// Labels belong to a repository (repo_id) or to an organization (org_id): every query is scoped.
export type LabelScope = { repoId: number } | { orgId: number };

export type LabelSort = 'alpha' | 'reversealphabetically' | 'leastissues' | 'mostissues';

export type LabelFields = { name: string; color: string; description: string; exclusive: boolean; archived: boolean };

function scoped(db: DB, scope: LabelScope) {
  const query = db.selectFrom('label');
  return 'repoId' in scope ? query.where('repo_id', '=', scope.repoId) : query.where('org_id', '=', scope.orgId);
}

export async function insertLabel(db: DB, scope: LabelScope, f: LabelFields, now: number): Promise<Label> {
  return db.insertInto('label').values({
    repo_id: 'repoId' in scope ? scope.repoId : null,
    org_id: 'orgId' in scope ? scope.orgId : null,
    name: f.name, color: f.color, description: f.description,
    exclusive: f.exclusive ? 1 : 0, is_archived: f.archived ? 1 : 0, created_unix: now, updated_unix: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function getLabelById(db: DB, scope: LabelScope, id: number): Promise<Label | undefined> {
  return scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getLabelByName(db: DB, scope: LabelScope, name: string): Promise<Label | undefined> {
  return scoped(db, scope).selectAll().where('name', '=', name).orderBy('id').executeTakeFirst();
}

/** Gitea's GetLabelsByRepoID/ByOrgID orders: by name unless asked otherwise. */
export async function listLabels(db: DB, scope: LabelScope, sort: LabelSort, offset: number, limit: number): Promise<Label[]> {
  let query = scoped(db, scope).selectAll();
  if (sort === 'reversealphabetically') query = query.orderBy('name', 'desc');
  else if (sort === 'leastissues') query = query.orderBy('num_issues', 'asc');
  else if (sort === 'mostissues') query = query.orderBy('num_issues', 'desc');
  else query = query.orderBy('name', 'asc');
  return query.orderBy('id').limit(limit).offset(offset).execute();
}

export async function countLabels(db: DB, scope: LabelScope): Promise<number> {
  const row = await scoped(db, scope).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateLabel(db: DB, id: number, f: LabelFields, now: number): Promise<void> {
  await db.updateTable('label').set({
    name: f.name, color: f.color, description: f.description,
    exclusive: f.exclusive ? 1 : 0, is_archived: f.archived ? 1 : 0, updated_unix: now,
  }).where('id', '=', id).execute();
}

export async function deleteLabelRow(db: DB, id: number): Promise<void> {
  await db.deleteFrom('label').where('id', '=', id).execute();
}
