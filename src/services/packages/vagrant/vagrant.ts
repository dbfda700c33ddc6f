import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { PROPERTY_REF } from '../../../models/package';
import { tarFileEntries } from '../archive/tar';
import type { StoredBlob } from '../blob-store';
import { compareVersions, parseSemver } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFilesOfVersion, getPackage, getProperties, getVersionsOfPackage } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Vagrant registry (routers/api/packages/vagrant, modules/packages/vagrant): a box per
// provider file ({provider}.box) of a version, and the box metadata document vagrant reads.

export const VAGRANT = 'vagrant';
const PROVIDER = 'vagrant.provider';
export type VagrantMetadata = { author?: string; description?: string; project_url?: string; repository_url?: string };

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** info.json of a box (a .tar.gz, or a plain tar), when it has one. */
async function boxInfo(file: string): Promise<VagrantMetadata> {
  const want = (n: string) => (n === 'info.json' ? 1 << 20 : null);
  const read = (gzip: boolean) => tarFileEntries(file, { gzip, want, done: (k) => k.length > 0, maxScan: 64 << 20 });
  let entries;
  try { entries = await read(true); } catch { entries = await read(false).catch(() => []); }
  if (!entries[0]) return {};
  try {
    const info = JSON.parse(entries[0].data.toString('utf8')) as Record<string, unknown>;
    return { author: str(info.author), description: str(info.description), project_url: str(info.website), repository_url: str(info.repository) };
  } catch {
    return {};
  }
}

/** Adds a provider's box to a version (created when missing): 409 when that provider's box exists. */
export async function uploadBox(h: Hearth, i: { owner: User; doer: User; name: string; version: string; provider: string; blob: StoredBlob }): Promise<void> {
  await withStoredBlob(h, i.blob, async () => {
    if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/.test(i.name)) throw new BadRequestError('box name is invalid');
    if (!parseSemver(i.version)) throw new BadRequestError('box version is invalid');
    if (!i.provider.endsWith('.box') || i.provider === '.box') throw new BadRequestError('the provider must be a .box file name');
    const metadata = await readStoredBlob(h, i.blob, boxInfo);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: VAGRANT, name: i.name, version: i.version, semverCompatible: true, versionMetadata: metadata,
      file: { name: i.provider.toLowerCase(), isLead: true, properties: { [PROVIDER]: i.provider.slice(0, -4) } }, blob: i.blob,
    });
  });
}

/** The box metadata document (vagrant's "box catalog" for one box); 404 without versions. */
export async function boxMetadata(h: Hearth, owner: User, name: string) {
  const pkg = await getPackage(h.db, owner, VAGRANT, name);
  const { versions } = await getVersionsOfPackage(h.db, pkg);
  if (!versions.length) throw new NotFoundError('package does not exist');
  versions.sort((a, b) => compareVersions(a.version, b.version));
  const base = `${h.config.server.root_url}api/packages/${encodeURIComponent(owner.name)}/vagrant/${encodeURIComponent(pkg.name)}`;
  const out = [];
  for (const v of versions) {
    const providers = [];
    for (const { file, blob } of await getFilesOfVersion(h.db, v)) {
      const provider = (await getProperties(h.db, PROPERTY_REF.file, file.id, PROVIDER))[0]?.value ?? file.name.replace(/\.box$/, '');
      providers.push({ name: provider, url: `${base}/${encodeURIComponent(v.version)}/${encodeURIComponent(file.name)}`, checksum: blob.hash_sha512, checksum_type: 'sha512' });
    }
    out.push({ version: v.version, status: 'active', providers });
  }
  let description: string | undefined;
  try { description = (JSON.parse(versions[versions.length - 1]!.metadata_json || '{}') as VagrantMetadata).description; } catch { description = undefined; }
  return { name: pkg.name, ...(description ? { description } : {}), versions: out };
}
