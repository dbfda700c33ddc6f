import { BadRequestError } from '../../../lib/errors';

// The coordinates in a Maven repository path (Gitea's extractPathParameters):
//   {group/path}/{artifactId}/maven-metadata.xml[.md5|.sha1|.sha256|.sha512]
//   {group/path}/{artifactId}/{version-SNAPSHOT}/maven-metadata.xml[.checksum]
//   {group/path}/{artifactId}/{version}/{file}

export const METADATA_FILE = 'maven-metadata.xml';
export const CHECKSUMS = ['.md5', '.sha1', '.sha256', '.sha512'] as const;
export type ChecksumExt = (typeof CHECKSUMS)[number];

export type MavenCoordinates = {
  groupId: string;
  artifactId: string;
  /** '' for the artifact's maven-metadata.xml (which lists the versions). */
  version: string;
  filename: string;
  /** maven-metadata.xml or one of its checksums. */
  isMeta: boolean;
};

const ILLEGAL = /[\\/:"<>|?*]/;

export const invalidParameters = () => new BadRequestError('request parameters are invalid');

/** The checksum extension a file name ends with (case-sensitive as Gitea's upload), or null. */
export const checksumExt = (filename: string): ChecksumExt | null =>
  CHECKSUMS.find((e) => filename.endsWith(e) && filename.length > e.length) ?? null;

/** The package name of a group and artifact: Gitea 1.22+ uses "groupId:artifactId". */
export const packageName = (c: { groupId: string; artifactId: string }) => `${c.groupId}:${c.artifactId}`;

function segments(rawPath: string): string[] {
  const parts = rawPath.replace(/^\/+/, '').split('/').map((p) => {
    try { return decodeURIComponent(p); } catch { throw invalidParameters(); }
  });
  // Empty, "." and ".." segments have no meaning in a repository layout (and no business in a name).
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw invalidParameters();
  return parts;
}

/** Parses a request path (relative to /api/packages/{owner}/maven); 400 for bad coordinates. */
export function parseCoordinates(rawPath: string): MavenCoordinates {
  const parts = segments(rawPath);
  const filename = parts.pop()!;
  const isMeta = filename === METADATA_FILE || CHECKSUMS.some((e) => filename === METADATA_FILE + e);
  if (!parts.length) throw invalidParameters();
  let version = parts[parts.length - 1]!;
  if (isMeta && !version.endsWith('-SNAPSHOT')) version = '';
  else parts.pop();
  if (ILLEGAL.test(version) || parts.length < 2) throw invalidParameters();
  const artifactId = parts[parts.length - 1]!;
  const groupId = parts.slice(0, -1).join('.');
  if (ILLEGAL.test(groupId) || ILLEGAL.test(artifactId) || ILLEGAL.test(filename)) throw invalidParameters();
  return { groupId, artifactId, version, filename, isMeta };
}
