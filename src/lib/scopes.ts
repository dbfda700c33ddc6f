// Personal access token scopes, as Gitea defines them: `read:X` / `write:X` per category,
// `all` for everything and `public-only` to restrict a token to public resources.

export const SCOPE_CATEGORIES = [
  'activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user',
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];
export type ScopeLevel = 'read' | 'write';

export type ScopeSet = { all: boolean; publicOnly: boolean; granted: Map<ScopeCategory, ScopeLevel> };

const isCategory = (s: string): s is ScopeCategory => (SCOPE_CATEGORIES as readonly string[]).includes(s);

/** Parses scope names; returns the offending name when one is unknown. */
export function parseScopes(names: readonly string[]): ScopeSet | { invalid: string } {
  const set: ScopeSet = { all: false, publicOnly: false, granted: new Map() };
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    if (name === 'all') { set.all = true; continue; }
    if (name === 'public-only') { set.publicOnly = true; continue; }
    const [level, category, extra] = name.split(':');
    if (extra !== undefined || (level !== 'read' && level !== 'write') || !category || !isCategory(category)) {
      return { invalid: name };
    }
    if (set.granted.get(category) !== 'write') set.granted.set(category, level);
  }
  return set;
}

export const isEmptyScope = (s: ScopeSet) => !s.all && s.granted.size === 0;

/** Canonical list: `all` swallows per-category grants; write swallows read. */
export function scopeNames(s: ScopeSet): string[] {
  const out: string[] = [];
  if (s.all) out.push('all');
  else for (const c of SCOPE_CATEGORIES) { const l = s.granted.get(c); if (l) out.push(`${l}:${c}`); }
  if (s.publicOnly) out.push('public-only');
  return out;
}

export const parseStoredScopes = (stored: string): ScopeSet => {
  const parsed = parseScopes(stored.split(','));
  return 'invalid' in parsed ? { all: false, publicOnly: false, granted: new Map() } : parsed;
};

export function hasScope(s: ScopeSet, category: ScopeCategory, level: ScopeLevel): boolean {
  if (s.all) return true;
  const got = s.granted.get(category);
  return got === 'write' || (got === 'read' && level === 'read');
}
