import type { Ecosystem } from './versions';
import { normalizePackage } from './osv';

// The dependency files read at the default branch, each to (package, version) pairs: lock files
// pin exact versions; requirements.txt only counts `==` pins (a range names no one version).

export type Dependency = { ecosystem: Ecosystem; package: string; version: string };

export const MANIFEST_NAMES = new Set(['package-lock.json', 'requirements.txt', 'poetry.lock', 'go.sum', 'Cargo.lock']);

/** npm lock files v1 (nested `dependencies`) and v2/v3 (`packages` keyed by node_modules path). */
function packageLock(text: string): Dependency[] {
  const lock = JSON.parse(text) as { packages?: Record<string, { version?: string; name?: string; link?: boolean }>; dependencies?: Record<string, unknown> };
  const out: Dependency[] = [];
  if (lock.packages) {
    for (const [where, p] of Object.entries(lock.packages)) {
      const i = where.lastIndexOf('node_modules/');
      if (i < 0 || !p.version || p.link) continue;
      out.push({ ecosystem: 'npm', package: p.name ?? where.slice(i + 'node_modules/'.length), version: p.version });
    }
    return out;
  }
  const walk = (deps: Record<string, unknown> | undefined) => {
    for (const [name, d] of Object.entries(deps ?? {})) {
      const dep = d as { version?: string; dependencies?: Record<string, unknown> };
      if (dep.version && !/^(file|git|http|link):/.test(dep.version)) out.push({ ecosystem: 'npm', package: name, version: dep.version });
      walk(dep.dependencies);
    }
  };
  walk(lock.dependencies);
  return out;
}

function requirements(text: string): Dependency[] {
  const out: Dependency[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*===?\s*([^\s;,]+)\s*(?:;.*)?$/.exec(line);
    if (m) out.push({ ecosystem: 'PyPI', package: m[1]!, version: m[2]! });
  }
  return out;
}

/** `[[package]]` tables with name and version: poetry.lock and Cargo.lock alike. */
function tomlPackages(text: string, ecosystem: Ecosystem): Dependency[] {
  const out: Dependency[] = [];
  for (const block of text.split(/^\[\[package\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0]!;
    const name = /^name\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    const version = /^version\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    if (name && version) out.push({ ecosystem, package: name, version });
  }
  return out;
}

/** go.sum: `module version[/go.mod] hash`; the module's own line (not only its go.mod) is a dependency. */
function goSum(text: string): Dependency[] {
  const out: Dependency[] = [];
  for (const line of text.split(/\r?\n/)) {
    const [module, version] = line.trim().split(/\s+/);
    if (!module || !version || version.endsWith('/go.mod')) continue;
    out.push({ ecosystem: 'Go', package: module, version });
  }
  return out;
}

/** The dependencies a file names (its base name says how to read it); unreadable files give none. */
export function parseManifest(path: string, text: string): Dependency[] {
  const name = path.slice(path.lastIndexOf('/') + 1);
  let deps: Dependency[];
  try {
    if (name === 'package-lock.json') deps = packageLock(text);
    else if (name === 'requirements.txt') deps = requirements(text);
    else if (name === 'poetry.lock') deps = tomlPackages(text, 'PyPI');
    else if (name === 'Cargo.lock') deps = tomlPackages(text, 'crates.io');
    else if (name === 'go.sum') deps = goSum(text);
    else return [];
  } catch {
    return [];
  }
  const seen = new Set<string>();
  return deps.map((d) => ({ ...d, package: normalizePackage(d.ecosystem, d.package) })).filter((d) => {
    const key = `${d.package}@${d.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
