import { BadRequestError } from '../../../lib/errors';
import { parseSemver } from '../npm/semver';

// The JSON part of `cargo publish`'s body (doc.rust-lang.org/cargo/reference/registries.html#publish),
// checked as Gitea's modules/packages/cargo: a crate name, a semver version, URLs that are URLs.

/** A dependency as the sparse index lists it (the index's names, not the publish request's). */
export type CargoDependency = {
  name: string; req: string; features: string[]; optional: boolean; default_features: boolean;
  target: string | null; kind: string; registry: string | null; package?: string;
};
export type CargoMetadata = {
  dependencies?: CargoDependency[]; features?: Record<string, string[]>; authors?: string[]; description?: string;
  documentation_url?: string; project_url?: string; readme?: string; keywords?: string[]; categories?: string[];
  license?: string; repository_url?: string; links?: string; rust_version?: string;
};
export type CargoPublish = { name: string; version: string; metadata: CargoMetadata };

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
const url = (v: unknown) => { const s = text(v); try { return /^https?:$/.test(new URL(s).protocol) ? s : ''; } catch { return ''; } };
const nullable = (v: unknown) => (typeof v === 'string' ? v : null);

/** A publish request's dependency in the index's shape: a renamed one keeps its crate in `package`. */
function dependency(raw: unknown): CargoDependency {
  const d = obj(raw);
  const explicit = text(d.explicit_name_in_toml);
  const dep: CargoDependency = {
    name: explicit || text(d.name), req: text(d.version_req), features: strings(d.features) ?? [],
    optional: d.optional === true, default_features: d.default_features !== false, target: nullable(d.target),
    kind: text(d.kind) || 'normal', registry: nullable(d.registry),
  };
  if (explicit) dep.package = text(d.name);
  return dep;
}

function features(v: unknown): Record<string, string[]> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  return Object.fromEntries(Object.entries(obj(v)).map(([k, list]) => [k, strings(list) ?? []]));
}

/** Checks and converts the publish JSON: 400 for a bad name or version. */
export function parseCargoPublish(json: unknown): CargoPublish {
  const m = obj(json);
  const name = text(m.name);
  const version = text(m.vers);
  if (!NAME.test(name)) throw new BadRequestError('package name is invalid');
  if (!parseSemver(version) || version.startsWith('v')) throw new BadRequestError('package version is invalid');
  const metadata: CargoMetadata = {
    dependencies: Array.isArray(m.deps) ? m.deps.map(dependency) : [], features: features(m.features),
    authors: strings(m.authors), description: text(m.description) || undefined,
    documentation_url: url(m.documentation) || undefined, project_url: url(m.homepage) || undefined,
    readme: text(m.readme) || undefined, keywords: strings(m.keywords), categories: strings(m.categories),
    license: text(m.license) || undefined, repository_url: url(m.repository) || undefined,
    links: text(m.links) || undefined, rust_version: text(m.rust_version) || undefined,
  };
  return { name, version, metadata };
}
