import type { DB } from '../../db/connect';
import type { Package, PackageVersion, User } from '../../db/schema';
import type { PackageView } from '../../convert/package';
import { NotFoundError } from '../../lib/errors';
import { packageAccessMode } from '../packages/access';
import { installCommand, packageInstallCommand, registryUrl } from '../packages/install-command';
import { getFilesOfVersion, getVersion, packageView, type FileWithBlob } from '../packages/queries';
import { packageVersionViews, visiblePackageOwner } from '../packages/views';
import { ACCESS } from '../permissions';
import type { Hearth } from '../../hearth';

// What the packages pages show, through the services the packages API reads: the owner (404
// when the visitor may not see it or read its packages, as the API's owner check), a version with
// its files, the package's versions and the install command of its client.

export type PackageOwner = { owner: User; writer: boolean };

export async function packageOwnerFor(db: DB, name: string, viewer: User | null): Promise<PackageOwner> {
  const owner = await visiblePackageOwner(db, name, viewer);
  const mode = await packageAccessMode(db, owner, viewer);
  if (mode < ACCESS.read) throw new NotFoundError('owner does not exist');
  return { owner, writer: !!viewer && mode >= ACCESS.write };
}

export type Install = { setup: string | null; command: string };

/**
 * The client's install command: the typed registries' own, else the repository registries' (apt,
 * dnf...); a generic package's is a download of its first file with curl, as Gitea's page shows.
 */
export async function installFor(h: Hearth, owner: User, pkg: Package, version: PackageVersion, files: FileWithBlob[] = []): Promise<Install | null> {
  if (pkg.type === 'generic') {
    const file = files[0]?.file.name;
    const url = `${registryUrl(h.config, owner, 'generic')}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`;
    return file ? { setup: null, command: `curl -OJ ${url}/${encodeURIComponent(file)}` } : null;
  }
  const made = installCommand(h.config, owner, pkg.type, pkg.name, version.version);
  if (made) return made;
  const command = await packageInstallCommand(h, owner, pkg, version);
  return command ? { setup: null, command } : null;
}

export type VersionPage = { view: PackageView; files: FileWithBlob[]; versions: PackageView[]; total: number; install: Install | null };

/** A version's page; without `version`, the newest one's. */
export async function versionPage(h: Hearth, owner: User, viewer: User | null, type: string, name: string, version?: string): Promise<VersionPage> {
  const { views: versions, total } = await packageVersionViews(h.db, owner, viewer, type, name, { offset: 0, limit: 50 });
  let view = versions[0];
  if (version !== undefined) {
    const found = await getVersion(h.db, owner, type, name, version);
    view = await packageView(h.db, found.pkg, found.version, owner, viewer);
  }
  if (!view) throw new NotFoundError('package does not exist');
  const files = await getFilesOfVersion(h.db, view.version);
  return { view, files, versions, total, install: await installFor(h, owner, view.pkg, view.version, files) };
}
