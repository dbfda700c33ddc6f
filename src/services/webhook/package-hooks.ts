import { activeHooksFor } from '../../models/webhook';
import { queueDeliveries } from './dispatch';
import type { Payload } from './payloads';
import { hookWants, parseEventSettings } from './hook-events';
import type { Hearth } from '../../hearth';

// The `package` event (Gitea's webhook notifier PackageCreate / PackageDelete): sent to the
// hooks of the linked repository (if any), of the package owner and of the site.

/** Queues a PackagePayload ({action, repository, package, organization, sender}) to the hooks that want `package`. */
export async function dispatchPackageEvent(h: Hearth, source: { ownerId: number; repoId: number }, payload: Payload): Promise<void> {
  const hooks = (await activeHooksFor(h.db, source.repoId, source.ownerId))
    .filter((hook) => hookWants(parseEventSettings(hook.events), 'package'));
  await queueDeliveries(h, hooks, 'package', payload);
}
