import { Readable } from 'node:stream';
import crypto from 'node:crypto';
import type { DB } from '../../../db/connect';
import type { PackageVersion, User } from '../../../db/schema';
import { findPackage, findVersion, setVersionMetadata } from '../../../models/package';
import { storeBlob } from '../blob-store';
import { addFileToExistingVersion, createPackageAndAddFile, deletePackageFile, deleteVersion } from '../packages';
import { getFileOfVersion, getFilesOfVersion, getProperties, getVersion } from '../queries';
import { PROPERTY_REF } from '../../../models/package';
import { digestHex, storedFromRow, type ImageRef } from './blobs';
import { OCI } from './errors';
import { findBlobFile, findManifestByDigest, MANIFEST_FILE, TYPE, versionsWithManifest } from '../../../models/package-container';
import type { Hearth } from '../../../hearth';

// Manifests (Gitea's routers/api/packages/container/manifest.go, services/packages/container):
// a tag is a version (an untagged manifest's version is its digest) holding `manifest.json`
// (the lead file) and the files of the blobs it references, with the media type and digest as
// file properties.

export const MEDIA = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
};
const INDEX_TYPES = new Set([MEDIA.ociIndex, MEDIA.dockerList]);
const KNOWN = new Set(Object.values(MEDIA));
export const PROP = { digest: 'container.digest', mediaType: 'container.mediatype', tagged: 'container.manifest.tagged', reference: 'container.manifest.reference' };
export const MAX_MANIFEST_SIZE = 10 * 1024 * 1024;

type Descriptor = { mediaType?: string; digest?: string; size?: number; platform?: { os?: string; architecture?: string; variant?: string } };
type Parsed = { mediaType: string; config?: Descriptor; layers?: Descriptor[]; manifests?: Descriptor[]; annotations?: Record<string, string> };
export const isDigest = (ref: string) => ref.startsWith('sha256:');
const TAG = /^[\w][\w.-]{0,127}$/;

function parseManifest(body: Buffer, contentType: string): Parsed {
  let doc: Parsed & { schemaVersion?: number };
  try { doc = JSON.parse(body.toString('utf8')); } catch { throw OCI.manifestInvalid('manifest is not valid JSON'); }
  if (!doc || typeof doc !== 'object' || doc.schemaVersion !== 2) throw OCI.manifestInvalid('unsupported schema version');
  const type = KNOWN.has(contentType) ? contentType : doc.mediaType ?? (doc.manifests ? MEDIA.ociIndex : MEDIA.ociManifest);
  if (!KNOWN.has(type)) throw OCI.manifestInvalid(`unsupported media type ${type}`);
  if (doc.mediaType && doc.mediaType !== type) throw OCI.manifestInvalid('media type does not match the manifest');
  const isIndex = INDEX_TYPES.has(type);
  if (isIndex ? !Array.isArray(doc.manifests) : !doc.config?.digest || !Array.isArray(doc.layers)) throw OCI.manifestInvalid();
  return { ...doc, mediaType: type };
}

/** Files to link: the config and layers of an image manifest (each must be a blob of the image). */
async function referencedBlobs(db: DB, ref: ImageRef, doc: Parsed) {
  if (INDEX_TYPES.has(doc.mediaType)) {
    for (const m of doc.manifests ?? []) {
      if (!m.digest || !(await findManifestByDigest(db, ref.owner.id, ref.image, digestHex(m.digest)))) throw OCI.manifestBlobUnknown();
    }
    return [];
  }
  const out = [];
  for (const d of [doc.config!, ...(doc.layers ?? [])]) {
    const found = d.digest ? await findBlobFile(db, ref.owner.id, ref.image, d.digest) : undefined;
    if (!found) throw OCI.manifestBlobUnknown(undefined, { digest: d.digest });
    out.push({ name: d.digest!, mediaType: d.mediaType ?? '', blob: found.blob });
  }
  return out;
}

function metadataOf(doc: Parsed, tagged: boolean) {
  const isIndex = INDEX_TYPES.has(doc.mediaType);
  return {
    type: 'oci', is_tagged: tagged, platform: isIndex ? '' : 'linux/amd64',
    description: doc.annotations?.['org.opencontainers.image.description'] ?? '',
    manifests: isIndex ? (doc.manifests ?? []).map((m) => ({ digest: m.digest, platform: [m.platform?.os, m.platform?.architecture, m.platform?.variant].filter(Boolean).join('/') })) : [],
  };
}

/** Stores a manifest under a tag or its digest; an existing tag moves to the new manifest. */
export async function putManifest(h: Hearth, ref: ImageRef, doer: User, reference: string, body: Buffer, contentType: string): Promise<string> {
  const doc = parseManifest(body, contentType.split(';')[0]!.trim());
  const hex = crypto.createHash('sha256').update(body).digest('hex');
  const digest = `sha256:${hex}`;
  if (isDigest(reference) && reference !== digest) throw OCI.digestInvalid();
  if (!isDigest(reference) && !TAG.test(reference)) throw OCI.manifestInvalid('invalid tag');
  const links = await referencedBlobs(h.db, ref, doc);
  const tagged = !isDigest(reference);
  const blob = await storeBlob(h.blobs, Readable.from([body]));
  const pkg = await findPackage(h.db, ref.owner.id, TYPE, ref.image);
  const existing = pkg && (await findVersion(h.db, pkg.id, reference));
  if (existing) {
    // A tag moving to another manifest: its old files go, the version (and its id) stays.
    for (const f of await getFilesOfVersion(h.db, existing)) await deletePackageFile(h.db, f.file);
    await setVersionMetadata(h.db, existing.id, JSON.stringify(metadataOf(doc, tagged)));
  }
  const common = { owner: ref.owner, creator: doer, type: TYPE, name: ref.image, version: reference };
  const created = await createPackageAndAddFile(h, {
    ...common, versionMetadata: metadataOf(doc, tagged), versionProperties: tagged ? { [PROP.tagged]: 'true' } : {},
    file: { name: MANIFEST_FILE, isLead: true, properties: { [PROP.digest]: digest, [PROP.mediaType]: doc.mediaType, [PROP.reference]: reference } },
    blob, overwrite: true,
  });
  try {
    for (const l of links) {
      await addFileToExistingVersion(h, {
        ...common, file: { name: l.name, isLead: false, properties: { [PROP.digest]: l.name, [PROP.mediaType]: l.mediaType } },
        blob: storedFromRow(l.blob), overwrite: true,
      });
    }
  } catch (err) {
    // No half-linked tag: a new version goes again (an existing one keeps its new manifest).
    if (created.versionCreated) await deleteVersion(h, doer, created.version);
    throw err;
  }
  return digest;
}

export type ManifestFound = { version: PackageVersion; digest: string; mediaType: string } & Awaited<ReturnType<typeof getFileOfVersion>>;

/** A manifest by tag or digest, with its digest and media type, or MANIFEST_UNKNOWN. */
export async function getManifest(db: DB, ref: ImageRef, reference: string): Promise<ManifestFound> {
  let hit;
  if (isDigest(reference)) {
    const hex = /^sha256:[a-f0-9]{64}$/.test(reference) ? reference.slice(7) : '';
    hit = hex ? await findManifestByDigest(db, ref.owner.id, ref.image, hex) : undefined;
  } else {
    const v = await getVersion(db, ref.owner, TYPE, ref.image, reference).catch(() => null);
    const f = v && (await getFileOfVersion(db, v.version, MANIFEST_FILE).catch(() => null));
    hit = f && v ? { ...f, version: v.version } : undefined;
  }
  if (!hit) throw OCI.manifestUnknown();
  const props = await getProperties(db, PROPERTY_REF.file, hit.file.id, PROP.mediaType);
  return { ...hit, digest: `sha256:${hit.blob.hash_sha256}`, mediaType: props[0]?.value || MEDIA.ociManifest };
}

/** Deletes a tag, or (by digest) every version whose manifest it is. */
export async function deleteManifest(h: Hearth, ref: ImageRef, doer: User, reference: string): Promise<void> {
  const found = await getManifest(h.db, ref, reference);
  const versions = isDigest(reference) ? await versionsWithManifest(h.db, ref.owner.id, ref.image, found.blob.hash_sha256) : [found.version];
  for (const v of versions) await deleteVersion(h, doer, v);
}
