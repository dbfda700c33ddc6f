import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import { activeHooksFor } from '../../models/webhook';
import { queueDeliveries } from './dispatch';
import type { Payload } from './payloads';
import { hookWants, parseEventSettings } from './hook-events';

// The `package` event (Gitea's webhook notifier PackageCreate / PackageDelete): sent to the
// hooks of the linked repository (if any), of the package owner and of the site.

/** Queues a PackagePayload ({action, repository, package, organization, sender}) to the hooks that want `package`. */
export async function dispatchPackageEvent(db: DB, config: Config, source: { ownerId: number; repoId: number }, payload: Payload): Promise<void> {
  const hooks = (await activeHooksFor(db, source.repoId, source.ownerId))
    .filter((h) => hookWants(parseEventSettings(h.events), 'package'));
  await queueDeliveries(db, config, hooks, 'package', payload);
}
