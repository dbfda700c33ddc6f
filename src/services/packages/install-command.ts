import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { Package, PackageVersion, User } from '../../db/schema';
import { filePropertyMaps } from '../../models/package-index';
import { filesOf } from '../../models/package';

// The command that installs a package version with its client, for the web package page (which
// calls packageInstallCommand) and anyone else who shows one. The setup of the repository
// (sources list, .repo file, pacman.conf section...) is in README's Packages section.

export type InstallContext = {
  /** `{root}api/packages/{owner}/{type}` */
  registry: string;
  owner: string;
  name: string;
  version: string;
  /** The properties of the version's first file (where it sits: distribution, group, channel...). */
  props: Record<string, string>;
};

const COMMANDS: Record<string, (c: InstallContext) => string> = {
  debian: (c) => `apt install ${c.name}=${c.version}`,
  rpm: (c) => `dnf install ${c.name}-${c.version}`,
  arch: (c) => `pacman -S ${c.name}`,
  alpine: (c) => `apk add ${c.name}=${c.version}`,
  conda: (c) => `conda install --channel ${c.registry}${c.props['conda.channel'] ? `/${c.props['conda.channel']}` : ''} ${c.name}==${c.version}`,
  cran: (c) => `install.packages("${c.name}", repos = "${c.registry}")`,
  conan: (c) => `conan install --requires=${c.name}/${c.version} --remote=${c.owner}`,
  nuget: (c) => `dotnet add package --source ${c.registry}/index.json --version ${c.version} ${c.name}`,
};

/** The install command of a version for its type's client, or null for a type without one here. */
export function installCommandFor(type: string, c: InstallContext): string | null {
  return Object.hasOwn(COMMANDS, type) ? COMMANDS[type]!(c) : null;
}

/** installCommandFor with the context read from the database. */
export async function packageInstallCommand(db: DB, config: Config, owner: User, pkg: Package, version: PackageVersion): Promise<string | null> {
  if (!Object.hasOwn(COMMANDS, pkg.type)) return null;
  const first = (await filesOf(db, version.id))[0];
  const props = first ? ((await filePropertyMaps(db, [first.id])).get(first.id) ?? {}) : {};
  return installCommandFor(pkg.type, {
    registry: `${config.server.root_url}api/packages/${encodeURIComponent(owner.name)}/${pkg.type}`, owner: owner.name, name: pkg.name, version: version.version, props,
  });
}
