import type { Config } from '../../../config/schema';
import type { User } from '../../../db/schema';
import { NotFoundError } from '../../../lib/errors';
import { getFilesOfVersion, getPackage, getVersionsOfPackage } from '../queries';
import type { PypiMetadata } from './metadata';
import { normalizePypiName } from './names';
import { PYPI } from './upload';
import type { Hearth } from '../../../hearth';

// The PEP 503 project page (Gitea's PackageMetadata and templates/api/packages/pypi/simple.tmpl):
// one link per file of every version, ordered by version string as Gitea sorts them.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Percent-encodes what Go's html/template encodes in a URL attribute (spaces, non-ASCII, quotes...). */
const normalizeUrl = (s: string) => s.replace(/[^A-Za-z0-9\-._~!#$&*+,/:;=?@[\]()%']/gu, (c) => encodeURIComponent(c));

const metadataOf = (json: string): PypiMetadata => {
  try { return (JSON.parse(json || '{}') as PypiMetadata) ?? {}; } catch { return {}; }
};

export const pypiRegistryUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${owner.name}/pypi`;

/** The HTML page of a project by its (any-form) name; 404 when it has no versions. */
export async function pypiSimplePage(h: Hearth, owner: User, id: string): Promise<string> {
  const pkg = await getPackage(h.db, owner, PYPI, normalizePypiName(id));
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  const registry = pypiRegistryUrl(h.config, owner);
  const links: string[] = [];
  for (const v of versions) {
    const requires = metadataOf(v.metadata_json).requires_python;
    const attr = requires ? ` data-requires-python="${escapeHtml(requires)}"` : '';
    for (const { file, blob } of await getFilesOfVersion(h.db, v)) {
      const href = normalizeUrl(`${registry}/files/${pkg.lower_name}/${v.version}/${file.name}#sha256=${blob.hash_sha256}`);
      links.push(`\t\t\t\t<a href="${escapeHtml(href)}"${attr}>${escapeHtml(file.name)}</a><br>`);
    }
  }
  const title = escapeHtml(pkg.name);
  return `<!DOCTYPE html>\n<html>\n\t<head>\n\t\t<title>Links for ${title}</title>\n\t</head>\n\t<body>\n\t\t<h1>Links for ${title}</h1>\n${links.join('\n')}\n\t</body>\n</html>\n`;
}
