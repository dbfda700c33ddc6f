import type { Config } from '../config/schema';
import type { Package, PackageBlob, PackageFile, PackageVersion, User } from '../db/schema';
import { isoTime } from '../lib/time';
import { toApiRepo, type ApiRepository, type RepoView } from './repo';
import { toApiUser, type ApiUser } from './user';

// Gitea's structs.Package and structs.PackageFile (modules/structs/package.go).

export type PackageView = {
  pkg: Package;
  version: PackageVersion;
  owner: User;
  creator: User | null;
  /** The linked repository, when the package is linked and the viewer may see it. */
  repo: RepoView | null;
};

export type ApiPackage = {
  id: number; owner: ApiUser; repository: ApiRepository | null; creator: ApiUser | null;
  type: string; name: string; version: string; html_url: string; created_at: string;
};

/** Gitea's package page: {owner}/-/packages/{type}/{name}/{version}. */
export const packageHtmlUrl = (config: Config, owner: User, pkg: Package, version: PackageVersion) =>
  `${config.server.root_url}${encodeURIComponent(owner.name)}/-/packages/${pkg.type}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`;

export function toApiPackage(config: Config, v: PackageView, viewer: User | null): ApiPackage {
  return {
    id: v.version.id,
    owner: toApiUser(config, v.owner, viewer),
    repository: v.repo ? toApiRepo(config, v.repo, viewer) : null,
    creator: v.creator ? toApiUser(config, v.creator, viewer) : null,
    type: v.pkg.type,
    name: v.pkg.name,
    version: v.version.version,
    html_url: packageHtmlUrl(config, v.owner, v.pkg, v.version),
    created_at: isoTime(v.version.created_unix),
  };
}

export function toApiPackageFile(file: PackageFile, blob: PackageBlob) {
  return {
    id: file.id, size: blob.size, name: file.name,
    md5: blob.hash_md5, sha1: blob.hash_sha1, sha256: blob.hash_sha256, sha512: blob.hash_sha512,
  };
}
