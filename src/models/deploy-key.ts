import type { DB } from '../db/connect';
import type { DeployKey, PublicKey } from '../db/schema';

// Deploy keys: a repository's link to a public_key row of key_type 'deploy' (one row per key
// content, shared by the repositories it is added to).

export type DeployKeyRow = DeployKey & { content: string };

const withContent = (db: DB) => db.selectFrom('deploy_key')
  .innerJoin('public_key', 'public_key.id', 'deploy_key.key_id')
  .selectAll('deploy_key').select('public_key.content');

export const deployKeyById = (db: DB, id: number): Promise<DeployKeyRow | undefined> =>
  withContent(db).where('deploy_key.id', '=', id).executeTakeFirst();

export type DeployKeyQuery = { repoId: number; keyId?: number; fingerprint?: string; page: { offset: number; limit: number } };

export async function listDeployKeys(db: DB, q: DeployKeyQuery): Promise<{ keys: DeployKeyRow[]; total: number }> {
  let base = withContent(db).where('deploy_key.repo_id', '=', q.repoId);
  if (q.keyId !== undefined) base = base.where('deploy_key.key_id', '=', q.keyId);
  if (q.fingerprint) base = base.where('deploy_key.fingerprint', '=', q.fingerprint);
  const keys = await base.orderBy('deploy_key.id').limit(q.page.limit).offset(q.page.offset).execute();
  let count = db.selectFrom('deploy_key').select((eb) => eb.fn.countAll<number>().as('n')).where('repo_id', '=', q.repoId);
  if (q.keyId !== undefined) count = count.where('key_id', '=', q.keyId);
  if (q.fingerprint) count = count.where('fingerprint', '=', q.fingerprint);
  return { keys, total: Number((await count.executeTakeFirstOrThrow()).n) };
}

export async function deployKeyExists(db: DB, where: { repoId: number; keyId?: number; name?: string }): Promise<boolean> {
  let q = db.selectFrom('deploy_key').select('id').where('repo_id', '=', where.repoId);
  if (where.keyId !== undefined) q = q.where('key_id', '=', where.keyId);
  if (where.name !== undefined) q = q.where('name', '=', where.name);
  return !!(await q.executeTakeFirst());
}

export async function insertDeployKey(
  db: DB, k: { keyId: number; repoId: number; name: string; fingerprint: string; readOnly: boolean; now: number },
): Promise<DeployKey> {
  return db.insertInto('deploy_key').values({
    key_id: k.keyId, repo_id: k.repoId, name: k.name, fingerprint: k.fingerprint,
    read_only: k.readOnly ? 1 : 0, created_unix: k.now, updated_unix: k.now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function insertDeployPublicKey(
  db: DB, k: { ownerId: number; name: string; fingerprint: string; content: string; readOnly: boolean; now: number },
): Promise<PublicKey> {
  return db.insertInto('public_key').values({
    owner_id: k.ownerId, name: k.name, fingerprint: k.fingerprint, content: k.content,
    key_type: 'deploy', read_only: k.readOnly ? 1 : 0, created_unix: k.now, updated_unix: k.now,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Removes the link, and the public key once no repository uses it. */
export async function deleteDeployKey(db: DB, key: DeployKey): Promise<void> {
  await db.deleteFrom('deploy_key').where('id', '=', key.id).execute();
  const other = await db.selectFrom('deploy_key').select('id').where('key_id', '=', key.key_id).executeTakeFirst();
  if (!other) await db.deleteFrom('public_key').where('id', '=', key.key_id).where('key_type', '=', 'deploy').execute();
}

/** The link of a key to one repository (the (key_id, repo_id) unique index), if there is one. */
export const deployKeyOf = (db: DB, keyId: number, repoId: number): Promise<DeployKey | undefined> =>
  db.selectFrom('deploy_key').selectAll().where('key_id', '=', keyId).where('repo_id', '=', repoId).executeTakeFirst();
