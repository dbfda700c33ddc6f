import type { Config } from '../../config/schema';
import type { Package, PackageVersion, User } from '../../db/schema';
import { filePropertyMaps } from '../../models/package-index';
import { filesOf } from '../../models/package';
import type { Hearth } from '../../hearth';

// What a package page shows under "Installation": the client setup, once per owner (null when
// none is needed), and the command that installs one version. One entry per type; types without
// one yet answer null.

export type InstallCommand = { setup: string | null; command: string };
type Maker = (registry: string, owner: User, name: string, version: string) => InstallCommand;

const q = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

const MAKERS: Record<string, Maker> = {
  cargo: (url, owner, name, version) => ({
    setup: `# ~/.cargo/config.toml\n[registries.${owner.lower_name}]\nindex = "sparse+${url}/"`,
    command: `cargo add --registry ${owner.lower_name} ${name}@${version}`,
  }),
  go: (url, _o, name, version) => ({ setup: null, command: `GOPROXY=${url} go install ${name}@${version}` }),
  composer: (url, _o, name, version) => ({
    setup: JSON.stringify({ repositories: [{ type: 'composer', url }] }, null, 2),
    command: `composer require ${q(`${name}:${version}`)}`,
  }),
  rubygems: (url, _o, name, version) => ({
    setup: `# Gemfile\nsource ${q(url)} do\n  gem ${q(name)}, ${q(version)}\nend`,
    command: `gem install ${name} --version ${q(version)} --source ${q(url)}`,
  }),
  helm: (url, owner, name, version) => ({
    setup: `helm repo add ${owner.lower_name} ${url}\nhelm repo update`,
    command: `helm install ${name} ${owner.lower_name}/${name} --version ${version}`,
  }),
  pub: (url, _o, name, version) => ({ setup: `dart pub token add ${url}`, command: `dart pub add ${name}:${version} --hosted-url=${url}` }),
  swift: (url, _o, name, version) => ({
    setup: `swift package-registry set ${url}`,
    // In Package.swift's dependencies; `swift package resolve` then fetches it.
    command: `.package(id: ${q(name)}, from: ${q(version)})`,
  }),
  vagrant: (url, _o, name, version) => ({ setup: null, command: `vagrant box add --box-version ${version} ${q(`${url}/${name}`)}` }),
  chef: (url, _o, name, version) => ({ setup: `# knife.rb\nknife[:supermarket_site] = '${url}'`, command: `knife supermarket install ${name} ${version}` }),
};

/** The registry's base URL for an owner and type. */
export const registryUrl = (config: Config, owner: User, type: string) => `${config.server.root_url}api/packages/${encodeURIComponent(owner.name)}/${type}`;

/** How a client installs `name@version` of an owner's package of `type`; null for a type without one. */
export function installCommand(config: Config, owner: User, type: string, name: string, version: string): InstallCommand | null {
  const make = Object.hasOwn(MAKERS, type) ? MAKERS[type]! : null;
  return make ? make(registryUrl(config, owner, type), owner, name, version) : null;
}

// The repository registries (apt, dnf, pacman, apk, conda, R, conan, NuGet): their one-time setup
// (sources list, .repo file, pacman.conf section...) is in README's Packages section, and the
// command may need where the version sits (its first file's properties: distribution, channel...).
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
export async function packageInstallCommand(h: Hearth, owner: User, pkg: Package, version: PackageVersion): Promise<string | null> {
  if (!Object.hasOwn(COMMANDS, pkg.type)) return null;
  const first = (await filesOf(h.db, version.id))[0];
  const props = first ? ((await filePropertyMaps(h.db, [first.id])).get(first.id) ?? {}) : {};
  return installCommandFor(pkg.type, {
    registry: registryUrl(h.config, owner, pkg.type), owner: owner.name, name: pkg.name, version: version.version, props,
  });
}
