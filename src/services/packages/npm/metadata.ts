import crypto from 'node:crypto';
import { BadRequestError } from '../../../lib/errors';
import { parseSemver } from './semver';

// Parsing npm's publish document (Gitea's modules/packages/npm/creator.go ParsePackage): one
// version, a valid name and semver, one base64 attachment whose sha512 (or sha1) integrity and
// shasum match. Errors are 400 with Gitea's messages.

export const TAG_PROPERTY = 'npm.tag';
const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;

export type NpmRepository = { type: string; url: string };
/** Stored as the version's metadata_json (Gitea's npm Metadata, same keys). */
export type NpmMetadata = {
  scope: string; name: string; description: string; author: string; license: string; project_url: string;
  keywords: string[]; dependencies: Record<string, string>; development_dependencies: Record<string, string>;
  peer_dependencies: Record<string, string>; optional_dependencies: Record<string, string>;
  /** npm's peerDependenciesMeta ({"react": {"optional": true}}), kept as given (Gitea's map[string]any). */
  peer_dependencies_meta?: Record<string, unknown>;
  bundle_dependencies: string[]; bin: Record<string, string>; readme: string; repository: NpmRepository;
  engines?: unknown; os?: unknown; cpu?: unknown; deprecated?: string; has_install_script?: boolean;
};
export type NpmUpload = { name: string; version: string; distTags: string[]; metadata: NpmMetadata; filename: string; data: Buffer };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strMap = (v: unknown): Record<string, string> =>
  (isObj(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string> : {});
const strList = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
/** npm's people are "Name <mail> (url)" strings or {name, email, url}: Gitea keeps the name. */
const personName = (v: unknown) => (isObj(v) ? str(v.name) : str(v));
const validUrl = (u: string) => { try { return ['http:', 'https:'].includes(new URL(u).protocol); } catch { return false; } };

export const validNpmName = (n: string) => n.trim() === n && n.length > 0 && n.length <= 214 && NAME.test(n);

function repository(v: unknown): NpmRepository {
  if (typeof v === 'string') return { type: '', url: v };
  return isObj(v) ? { type: str(v.type), url: str(v.url) } : { type: '', url: '' };
}

function toMetadata(meta: Obj, scope: string, name: string): NpmMetadata {
  const homepage = str(meta.homepage);
  const bin = typeof meta.bin === 'string' ? { [name]: meta.bin } : strMap(meta.bin);
  return {
    scope, name, description: str(meta.description), author: personName(meta.author), license: str(meta.license),
    project_url: validUrl(homepage) ? homepage : '', keywords: strList(meta.keywords),
    dependencies: strMap(meta.dependencies), development_dependencies: strMap(meta.devDependencies),
    peer_dependencies: strMap(meta.peerDependencies), optional_dependencies: strMap(meta.optionalDependencies),
    peer_dependencies_meta: isObj(meta.peerDependenciesMeta) ? meta.peerDependenciesMeta : undefined,
    bundle_dependencies: strList(meta.bundleDependencies), bin, readme: str(meta.readme), repository: repository(meta.repository),
    engines: meta.engines, os: meta.os, cpu: meta.cpu, deprecated: str(meta.deprecated) || undefined,
    has_install_script: meta.hasInstallScript === true ? true : undefined,
  };
}

/** Checks the attachment against dist.integrity ("sha512-<base64>" or "sha1-...") and dist.shasum. */
function checkIntegrity(dist: Obj, data: Buffer): void {
  const fail = () => new BadRequestError('failed to validate integrity');
  const [algo, b64] = str(dist.integrity).split(/-(.*)/s, 2);
  if (!algo || b64 === undefined) throw fail();
  if (algo !== 'sha1' && algo !== 'sha512') throw fail();
  const want = Buffer.from(b64, 'base64');
  if (!want.equals(crypto.createHash(algo).update(data).digest())) throw fail();
  const shasum = str(dist.shasum);
  if (shasum && shasum.toLowerCase() !== crypto.createHash('sha1').update(data).digest('hex')) throw fail();
}

function attachmentData(doc: Obj): Buffer {
  const attachments = isObj(doc._attachments) ? Object.values(doc._attachments) : [];
  const a = attachments[0];
  const data = isObj(a) ? str(a.data) : '';
  if (attachments.length !== 1 || !data || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) {
    throw new BadRequestError('package attachment is invalid');
  }
  return Buffer.from(data, 'base64');
}

/** Parses a publish document already read as JSON; 400 for anything Gitea refuses. */
export function parseNpmUpload(doc: unknown): NpmUpload {
  if (!isObj(doc) || !isObj(doc.versions)) throw new BadRequestError('package is invalid');
  const metas = Object.values(doc.versions);
  const meta = metas[0];
  if (metas.length !== 1 || !isObj(meta)) throw new BadRequestError('package is invalid');
  const fullName = str(meta.name);
  if (!validNpmName(fullName)) throw new BadRequestError('package name is invalid');
  const semver = parseSemver(str(meta.version));
  if (!semver) throw new BadRequestError('package version is invalid');
  const [scope, name] = fullName.includes('/') ? fullName.split('/', 2) as [string, string] : ['', fullName];
  const data = attachmentData(doc);
  checkIntegrity(isObj(meta.dist) ? meta.dist : {}, data);
  return {
    name: fullName, version: semver.text, distTags: isObj(doc['dist-tags']) ? Object.keys(doc['dist-tags']) : [],
    metadata: toMetadata(meta, scope, name), filename: `${name}-${semver.text}.tgz`.toLowerCase(), data,
  };
}
