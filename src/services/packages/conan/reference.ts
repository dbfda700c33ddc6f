import { BadRequestError } from '../../../lib/errors';

// Conan references (Gitea's modules/packages/conan): name/version@user/channel, `_` for an empty
// user or channel; revisions ("0" for the v1 protocol) and package references; the files a
// recipe and a package may have. A file's composite key names where it belongs.

export type RecipeRef = { name: string; version: string; user: string; channel: string };
export type FileKind = 'recipe' | 'package';

const PART = /^[a-zA-Z0-9_][a-zA-Z0-9_+.-]{1,50}$/;
const REVISION = /^[a-zA-Z0-9]{1,64}$/;
export const DEFAULT_REVISION = '0';
export const RECIPE_FILES = new Set(['conanfile.py', 'conanmanifest.txt', 'conan_sources.tgz', 'conan_export.tgz']);
export const PACKAGE_FILES = new Set(['conaninfo.txt', 'conanmanifest.txt', 'conan_package.tgz']);

const orEmpty = (s: string) => (s === '_' ? '' : s);
export const orUnderscore = (s: string) => s || '_';

export function recipeRef(name: string, version: string, user: string, channel: string): RecipeRef {
  const ref = { name, version, user: orEmpty(user), channel: orEmpty(channel) };
  if (!PART.test(ref.name) || !PART.test(ref.version) || (ref.user && !PART.test(ref.user)) || (ref.channel && !PART.test(ref.channel))) {
    throw new BadRequestError('invalid recipe reference');
  }
  return ref;
}

export function checkRevision(rev: string): string {
  if (!REVISION.test(rev)) throw new BadRequestError('invalid revision');
  return rev;
}

/** `name/version@user/channel` (or `name/version` without user and channel), as conan writes it. */
export const refString = (r: RecipeRef) => (r.user || r.channel ? `${r.name}/${r.version}@${orUnderscore(r.user)}/${orUnderscore(r.channel)}` : `${r.name}/${r.version}`);

export const recipeKey = (r: RecipeRef, rrev: string) => `r|${r.user}|${r.channel}|${rrev}`;
export const packageKey = (r: RecipeRef, rrev: string, pref: string, prev: string) => `p|${r.user}|${r.channel}|${rrev}|${pref}|${prev}`;

export type ParsedKey = { kind: FileKind; user: string; channel: string; rrev: string; pref?: string; prev?: string };
export function parseKey(key: string): ParsedKey | null {
  const p = key.split('|');
  if (p[0] === 'r' && p.length === 4) return { kind: 'recipe', user: p[1]!, channel: p[2]!, rrev: p[3]! };
  if (p[0] === 'p' && p.length === 6) return { kind: 'package', user: p[1]!, channel: p[2]!, rrev: p[3]!, pref: p[4]!, prev: p[5]! };
  return null;
}

/** The metadata Gitea reads from conanfile.py's class attributes. */
export function conanfileMetadata(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const attr = (name: string) => new RegExp(`^\\s*${name}\\s*=\\s*["'](.*?)["']`, 'm').exec(text)?.[1];
  for (const [key, name] of [['license', 'license'], ['author', 'author'], ['project_url', 'homepage'], ['repository_url', 'url'], ['description', 'description']] as const) {
    const v = attr(name);
    if (v !== undefined) out[key] = v;
  }
  const topics = /^\s*topics\s*=\s*\(([^)]*)\)/m.exec(text)?.[1];
  if (topics) out.keywords = [...topics.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
  return out;
}

/** conaninfo.txt's sections (settings, options, requires...), as the package search answers them. */
export function parseConaninfo(text: string): { settings: Record<string, string>; options: Record<string, string>; requires: string[]; recipe_hash: string } {
  const out = { settings: {} as Record<string, string>, options: {} as Record<string, string>, requires: [] as string[], recipe_hash: '' };
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const s = /^\[(.+)\]$/.exec(line);
    if (s) { section = s[1]!; continue; }
    if (section === 'settings' || section === 'options') {
      const i = line.indexOf('=');
      if (i > 0) out[section][line.slice(0, i).trim()] = line.slice(i + 1).trim();
    } else if (section === 'requires' || section === 'full_requires') {
      if (section === 'requires' || !out.requires.includes(line)) out.requires.push(line);
    } else if (section === 'recipe_hash') out.recipe_hash = line;
  }
  return out;
}
