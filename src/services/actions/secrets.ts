import type { DB } from '../../db/connect';
import type { ActionSecret } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { seal, unseal } from '../../lib/secret-box';
import { nowUnix } from '../../lib/time';
import * as m from '../../models/actions-secrets';
import { validActionsName } from './names';
import { auditSecret } from '../audit/secret-audit';

// Actions secrets at repository, owner (user or organization) and instance level. Values are
// sealed (AES-256-GCM under a key derived from the instance secret) and never leave the server
// except inside a task handed to a runner.

export type { ActionsScope } from '../../models/actions-secrets';
const PURPOSE = 'actions-secret';

export async function listSecrets(db: DB, scope: m.ActionsScope, page: m.PageWindow): Promise<{ rows: ActionSecret[]; total: number }> {
  return m.listSecrets(db, scope, page);
}

/** Gitea's CreateOrUpdateSecret: true when it was created, false when an existing one was replaced. */
export async function putSecret(
  db: DB, instanceSecret: string, scope: m.ActionsScope, rawName: string, input: { data: string; description?: string },
): Promise<boolean> {
  const name = validActionsName(rawName, 'secret');
  const data = seal(instanceSecret, PURPOSE, input.data.replace(/\r\n/g, '\n'));
  const description = input.description ?? '';
  return db.transaction().execute(async (trx) => {
    const existing = await m.getSecret(trx, scope, name);
    if (existing) {
      await m.updateSecret(trx, existing.id, { data, description });
      await auditSecret(trx, 'actions.secret.update', scope, existing);
      return false;
    }
    await m.insertSecret(trx, scope, { name, data, description, created_unix: nowUnix() });
    await auditSecret(trx, 'actions.secret.create', scope, (await m.getSecret(trx, scope, name))!);
    return true;
  });
}

export async function deleteSecret(db: DB, scope: m.ActionsScope, rawName: string): Promise<void> {
  const name = validActionsName(rawName, 'secret');
  const existing = await m.getSecret(db, scope, name);
  if (!existing) throw new NotFoundError('secret not found');
  await db.transaction().execute(async (trx) => {
    await m.deleteSecret(trx, existing.id);
    await auditSecret(trx, 'actions.secret.delete', scope, existing);
  });
}

/**
 * The plain secrets a task of the repository gets, as Gitea's getSecretsOfTask: the owner's,
 * overridden by the repository's of the same name. Values that no longer unseal are skipped.
 */
export async function secretsForTask(db: DB, instanceSecret: string, ownerId: number, repoId: number): Promise<Record<string, string>> {
  const rows = await m.secretsForRepo(db, ownerId, repoId);
  const out: Record<string, string> = {};
  for (const r of [...rows.filter((x) => x.repo_id === 0), ...rows.filter((x) => x.repo_id !== 0)]) {
    try { out[r.name] = unseal(instanceSecret, PURPOSE, r.data); } catch { /* sealed under another key */ }
  }
  return out;
}
