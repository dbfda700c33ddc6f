import { BadRequestError } from '../../../lib/errors';
import { yaml } from '../../../lib/lazy-require';
import { gunzipCapped, tarFileEntries } from '../archive/tar';

// A .gem (a tar holding metadata.gz, the gemspec as YAML with Ruby tags) read as Gitea's
// modules/packages/rubygems does: name, version, platform and what the indexes repeat.

export type Requirement = { restriction: string; version: string };
export type GemDependency = { name: string; version: Requirement[] };
export type GemMetadata = {
  platform: string; description?: string; summary?: string; authors?: string[]; licenses?: string[];
  required_ruby_version?: Requirement[]; required_rubygems_version?: Requirement[]; project_url?: string;
  runtime_dependencies?: GemDependency[]; development_dependencies?: GemDependency[];
};
export type GemPackage = { name: string; version: string; metadata: GemMetadata };

const NAME = /^[a-zA-Z0-9._-]+$/;
const VERSION = /^[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const strs = (v: unknown) => (Array.isArray(v) ? v.map(str).filter(Boolean) : undefined);
const versionOf = (v: unknown) => str(obj(v).version ?? v);

function requirements(v: unknown): Requirement[] {
  const list = obj(v).requirements;
  if (!Array.isArray(list)) return [];
  return list.filter(Array.isArray).map((r) => ({ restriction: str(r[0]), version: versionOf(r[1]) }));
}

/** A Gem::Platform object is cpu-os[-version]; a string stays as it is. */
function platformOf(v: unknown): string {
  if (typeof v === 'string') return v || 'ruby';
  const p = obj(v);
  return [p.cpu, p.os, p.version].map(str).filter(Boolean).join('-') || 'ruby';
}

function dependencies(v: unknown, type: string): GemDependency[] {
  if (!Array.isArray(v)) return [];
  return v.map(obj).filter((d) => str(d.type).replace(/^:/, '') === type)
    .map((d) => ({ name: str(d.name), version: requirements(d.requirement ?? d.version_requirements) }));
}

/** The gemspec of a stored .gem: 400 when it is no gem or its name or version is invalid. */
export async function parseGemFile(file: string): Promise<GemPackage> {
  const [meta] = await tarFileEntries(file, { want: (n) => (n === 'metadata.gz' ? 16 << 20 : null), done: (k) => k.length > 0 });
  if (!meta) throw new BadRequestError('metadata.gz is missing');
  let spec: Record<string, unknown>;
  try {
    spec = obj(yaml().parse(gunzipCapped(meta.data, 32 << 20).toString('utf8'), { logLevel: 'silent', maxAliasCount: 100 }));
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError('the gemspec is not valid YAML');
  }
  const name = str(spec.name);
  const version = versionOf(spec.version);
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  if (!VERSION.test(version)) throw new BadRequestError('package version is invalid');
  const homepage = str(spec.homepage);
  return {
    name, version,
    metadata: {
      platform: platformOf(spec.platform), description: str(spec.description) || undefined, summary: str(spec.summary) || undefined,
      authors: strs(spec.authors), licenses: strs(spec.licenses), required_ruby_version: requirements(spec.required_ruby_version),
      required_rubygems_version: requirements(spec.required_rubygems_version), project_url: /^https?:\/\//.test(homepage) ? homepage : undefined,
      runtime_dependencies: dependencies(spec.dependencies, 'runtime'), development_dependencies: dependencies(spec.dependencies, 'development'),
    },
  };
}

/** Gem::Version's order: numeric segments by number, a letter segment (a pre-release) before any number. */
export function compareGemVersions(a: string, b: string): number {
  const seg = (v: string) => v.match(/[0-9]+|[a-zA-Z]+/g) ?? [];
  const x = seg(a); const y = seg(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? '0'; const q = y[i] ?? '0';
    const pn = /^\d/.test(p); const qn = /^\d/.test(q);
    if (pn && qn) { if (Number(p) !== Number(q)) return Number(p) - Number(q); continue; }
    if (pn !== qn) return pn ? 1 : -1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

export const isPrerelease = (v: string) => /[a-zA-Z]/.test(v);
