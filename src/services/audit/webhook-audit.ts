import type { Kysely } from 'kysely';
import type { Database, Webhook } from '../../db/schema';
import { getRepoById } from '../../models/repo';
import { getUserById } from '../../models/user';
import { recordAudit } from './record';

/** The scheme and host a hook delivers to: its path and query may carry a token (Slack, Discord). */
function destination(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** A webhook created, changed or deleted: named by its id, type and destination host. */
export async function auditWebhook(
  trx: Kysely<Database>, op: 'webhook.create' | 'webhook.update' | 'webhook.delete', hook: Webhook,
): Promise<void> {
  const repo = hook.repo_id ? await getRepoById(trx, hook.repo_id) : undefined;
  const owner = !repo && hook.owner_id ? await getUserById(trx, hook.owner_id) : undefined;
  await recordAudit(trx, {
    op, target: { type: 'webhook', id: hook.id, name: `${hook.type} ${destination(hook.url)}` },
    repo: repo ?? null, owner: owner ?? null,
    extra: { scope: repo ? 'repo' : owner ? (owner.type === 1 ? 'org' : 'user') : 'site', system: !!hook.is_system_webhook },
  });
}
