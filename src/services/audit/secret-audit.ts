import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { recordAudit } from './record';

/**
 * An Actions secret created, replaced or deleted: named by its scope and name, never its value.
 * `scope`: the repository's (repoId), an owner's (ownerId) or the instance's (both 0).
 */
export async function auditSecret(
  trx: Kysely<Database>, op: 'actions.secret.create' | 'actions.secret.update' | 'actions.secret.delete',
  scope: { ownerId: number; repoId: number }, secret: { id: number; name: string },
): Promise<void> {
  const repo = scope.repoId ? await getRepoById(trx, scope.repoId) : undefined;
  const owner = !repo && scope.ownerId ? await getUserById(trx, scope.ownerId) : undefined;
  const where = repo ? `${repo.owner_name}/${repo.name}` : owner ? owner.name : '(instance)';
  await recordAudit(trx, {
    op, target: { type: 'secret', id: secret.id, name: `${where}:${secret.name}` }, repo: repo ?? null, owner: owner ?? null,
    extra: { scope: repo ? 'repo' : owner ? (owner.type === 1 ? 'org' : 'user') : 'instance' },
  });
}
