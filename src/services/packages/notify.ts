import { toApiPackage } from '../../convert/package';
import { toApiUser } from '../../convert/user';
import type { Package, PackageVersion, User } from '../../db/schema';
import { getUserById } from '../../models/user';
import { dispatchPackageEvent } from '../webhook/package-hooks';
import { packageView } from './queries';
import type { Hearth } from '../../hearth';

// The `package` webhook event after a version was created or deleted, with Gitea's
// PackagePayload (repository and organization are null, as Gitea's notifier leaves them).

export async function notifyPackage(h: Hearth, action: 'created' | 'deleted', doer: User, pkg: Package, version: PackageVersion): Promise<void> {
  // Internal versions (the container registry's `_upload`) are no packages to tell anyone about.
  if (version.is_internal) return;
  const owner = await getUserById(h.db, pkg.owner_id);
  if (!owner) return;
  const view = await packageView(h.db, pkg, version, owner, doer);
  await dispatchPackageEvent(h, { ownerId: owner.id, repoId: pkg.repo_id }, {
    action, repository: null, package: toApiPackage(h.config, view, null), organization: null, sender: toApiUser(h.config, doer, null),
  });
}
