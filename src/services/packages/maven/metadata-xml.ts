import crypto from 'node:crypto';
import type { PackageVersion } from '../../../db/schema';
import type { ChecksumExt } from './coordinates';
import type { MavenMetadata } from './pom';
import { escapeXmlText } from './xml';

// The artifact's maven-metadata.xml as Gitea generates it (routers/api/packages/maven/api.go,
// xml.Marshal after xml.Header): versions in upload order, <latest> the last uploaded,
// <release> the last one that is not a -SNAPSHOT. Gitea writes no <lastUpdated>.

const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const el = (name: string, text: string) => `<${name}>${escapeXmlText(text)}</${name}>`;

export const checksumAlgorithm = (ext: ChecksumExt) => ext.slice(1) as 'md5' | 'sha1' | 'sha256' | 'sha512';

function metadataOf(v: PackageVersion): MavenMetadata {
  try { return (v.metadata_json ? JSON.parse(v.metadata_json) : {}) as MavenMetadata; } catch { return {}; }
}

/**
 * The document for versions sorted oldest first (at least one). The group and artifact come from
 * the latest version's pom, else from the request's coordinates (no pom, or fields inherited).
 */
export function metadataDocument(versions: PackageVersion[], fallback: { groupId: string; artifactId: string }): Buffer {
  const latest = versions[versions.length - 1]!;
  const release = versions.filter((v) => !v.version.endsWith('-SNAPSHOT')).at(-1);
  const meta = metadataOf(latest);
  // A pom inheriting its groupId from a parent has none: the path's is the same coordinate.
  const groupId = meta.group_id || fallback.groupId;
  const artifactId = meta.artifact_id || fallback.artifactId;
  const versioning = (release ? el('release', release.version) : '') + el('latest', latest.version)
    + `<versions>${versions.map((v) => el('version', v.version)).join('')}</versions>`;
  return Buffer.from(`${HEADER}<metadata>${el('groupId', groupId)}${el('artifactId', artifactId)}<versioning>${versioning}</versioning></metadata>`);
}

export const hexDigest = (ext: ChecksumExt, data: Buffer) => crypto.createHash(checksumAlgorithm(ext)).update(data).digest('hex');
