import { BadRequestError } from '../../../lib/errors';
import { zipEntries } from '../archive/zip';
import { parseSemver } from '../npm/semver';

// A Composer package zip's composer.json (getcomposer.org/doc/04-schema.md) as Gitea's
// modules/packages/composer reads it: in the zip's root, a vendor/project name, a version from
// the file or the upload's ?version=, and the metadata the p2 document repeats.

export type ComposerMetadata = {
  description?: string; readme?: string; keywords?: string[]; _comment?: string[]; homepage?: string;
  license?: string[]; authors?: { name?: string; email?: string; homepage?: string }[]; bin?: string[];
  autoload?: Record<string, unknown>; 'autoload-dev'?: Record<string, unknown>; extra?: Record<string, unknown>;
  require?: Record<string, string>; 'require-dev'?: Record<string, string>; suggest?: Record<string, string>;
  provide?: Record<string, string>;
};
export type ComposerPackage = { name: string; version: string; type: string; metadata: ComposerMetadata };

const NAME = /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]?|-{0,2})[a-z0-9]+)*$/;
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const strs = (v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const strMap = (v: unknown) => { const o = obj(v); return o && Object.fromEntries(Object.entries(o).filter(([, x]) => typeof x === 'string')) as Record<string, string>; };
const isUrl = (s: string | undefined) => { try { return !!s && /^https?:$/.test(new URL(s).protocol); } catch { return false; } };
const clean = (p: string) => p.replace(/^\.\//, '').replace(/\/+/g, '/');

function metadataOf(cj: Record<string, unknown>, readme: string | undefined): ComposerMetadata {
  const authors = Array.isArray(cj.authors) ? cj.authors.map((a) => {
    const o = obj(a) ?? {};
    return { name: str(o.name), email: str(o.email), homepage: str(o.homepage) };
  }) : undefined;
  const homepage = str(cj.homepage);
  return {
    description: str(cj.description), readme, keywords: strs(cj.keywords), _comment: strs(cj._comment),
    homepage: isUrl(homepage) ? homepage : undefined, license: strs(cj.license), authors, bin: strs(cj.bin),
    autoload: obj(cj.autoload), 'autoload-dev': obj(cj['autoload-dev']), extra: obj(cj.extra),
    require: strMap(cj.require), 'require-dev': strMap(cj['require-dev']), suggest: strMap(cj.suggest), provide: strMap(cj.provide),
  };
}

/** Reads a stored zip: 400 without a root composer.json, with a bad name or version. */
export async function parseComposerZip(file: string, queryVersion: string): Promise<ComposerPackage> {
  const isReadme = (n: string) => clean(n).toLowerCase() === 'readme.md';
  const entries = await zipEntries(file, (n) => (clean(n).toLowerCase() === 'composer.json' ? 10 << 20 : isReadme(n) ? 1 << 20 : null));
  const json = entries.find((e) => clean(e.name).toLowerCase() === 'composer.json' && e.data);
  if (!json) throw new BadRequestError('composer.json file is missing');
  let cj: Record<string, unknown>;
  try { cj = obj(JSON.parse(json.data!.toString('utf8'))) ?? {}; } catch { throw new BadRequestError('composer.json is not valid JSON'); }
  const name = str(cj.name) ?? '';
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  let version = str(cj.version) ?? '';
  if (!version) version = parseSemver(queryVersion)?.text ?? '';
  if (!version || !parseSemver(version)) throw new BadRequestError('package version is invalid');
  let readme = entries.find((e) => isReadme(e.name) && e.data)?.data?.toString('utf8');
  const named = str(cj.readme);
  if (named && clean(named).toLowerCase() !== 'readme.md') {
    const found = await zipEntries(file, (n) => (clean(n) === clean(named) ? 1 << 20 : null));
    readme = found.find((e) => e.data)?.data?.toString('utf8');
  }
  return { name, version, type: str(cj.type) ?? 'library', metadata: metadataOf(cj, readme || undefined) };
}
