import type { Config } from '../../config/schema';
import { toApiPackage } from '../../convert/package';
import { toApiUser } from '../../convert/user';
import type { DB } from '../../db/connect';
import type { Package, PackageVersion, User } from '../../db/schema';
import { getUserById } from '../../models/user';
import { dispatchPackageEvent } from '../webhook/package-hooks';
import { packageView } from './queries';

// The `package` webhook event after a version was created or deleted, with Gitea's
// PackagePayload (repository and organization are null, as Gitea's notifier leaves them).

export async function notifyPackage(db: DB, config: Config, action: 'created' | 'deleted', doer: User, pkg: Package, version: PackageVersion): Promise<void> {
  // Internal versions (the container registry's `_upload`) are no packages to tell anyone about.
  if (version.is_internal) return;
  const owner = await getUserById(db, pkg.owner_id);
  if (!owner) return;
  const view = await packageView(db, pkg, version, owner, doer);
  await dispatchPackageEvent(db, config, { ownerId: owner.id, repoId: pkg.repo_id }, {
    action, repository: null, package: toApiPackage(config, view, null), organization: null, sender: toApiUser(config, doer, null),
  });
}
