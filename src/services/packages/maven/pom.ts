import { BadRequestError } from '../../../lib/errors';
import { childrenNamed, childText, parseXml } from './xml';

// The metadata of a pom file (Gitea's modules/packages/maven/metadata.go), stored as the
// version's metadata_json with Gitea's JSON names; empty fields are left out (omitempty).

export type MavenDependency = { group_id?: string; artifact_id?: string; version?: string };
export type MavenMetadata = {
  group_id?: string;
  artifact_id?: string;
  name?: string;
  description?: string;
  project_url?: string;
  licenses?: string[];
  dependencies?: MavenDependency[];
};

/** Poms are small; a larger one is refused rather than read into memory. */
export const MAX_POM_SIZE = 8 * 1024 * 1024;

/** Drops empty strings and empty lists, as Go's `omitempty`. */
function compact<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && !(Array.isArray(v) && v.length === 0))) as T;
}

/** Gitea's validation.IsValidURL: an absolute http(s) URL. */
function validUrl(s: string): boolean {
  try {
    const u = new URL(s.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && s.trim() === s;
  } catch { return false; }
}

/** Decodes the pom's bytes: UTF-8 unless the declaration names another charset Node can read. */
function decode(bytes: Buffer): string {
  const decl = /^\uFEFF?<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(bytes.subarray(0, 200).toString('latin1'));
  const label = decl?.[1]?.toLowerCase() ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    throw new BadRequestError(`xml: encoding "${decl?.[1]}" declared but not supported`);
  }
}

/** Parses a pom (400 when it is not well-formed XML or its root is not <project>). */
export function parsePom(bytes: Buffer): MavenMetadata {
  const root = parseXml(decode(bytes));
  if (root.name !== 'project') throw new BadRequestError(`expected element type <project> but have <${root.name}>`);
  const url = childText(root, 'url');
  const licenses = childrenNamed(root, 'licenses').flatMap((ls) => childrenNamed(ls, 'license'))
    .map((l) => childText(l, 'name')).filter((n) => n !== '');
  const dependencies = childrenNamed(root, 'dependencies').flatMap((ds) => childrenNamed(ds, 'dependency')).map((d) => compact({
    group_id: childText(d, 'groupId'), artifact_id: childText(d, 'artifactId'), version: childText(d, 'version'),
  }));
  return compact({
    group_id: childText(root, 'groupId'),
    artifact_id: childText(root, 'artifactId'),
    name: childText(root, 'name'),
    description: childText(root, 'description'),
    project_url: validUrl(url) ? url : '',
    licenses,
    dependencies,
  });
}
