// GitHub's filter patterns (branches, tags, paths and their -ignore forms), as act's
// workflowpattern: `*` stays within a path segment, `**` spans segments (`**/` also matches
// nothing), `?` and `+` repeat the preceding character (zero-or-one, one-or-more), `[a-z0-9]`
// are classes, `\` escapes, and a leading `!` negates. The last matching pattern decides.

export type FilterPattern = { negative: boolean; regex: RegExp };

const quote = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const rangeChar = (c: string | undefined) => !!c && /[A-Za-z0-9]/.test(c);

/** The regular expression of one pattern (without its `!`); throws on an invalid pattern. */
export function patternToRegex(pattern: string): RegExp {
  let out = '^';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        if (pattern[i + 2] === '/') { out += '(.+/)?'; i += 3; } else { out += '.*'; i += 2; }
      } else { out += '[^/]*'; i += 1; }
    } else if (c === '+' || c === '?') {
      out += i > 0 ? c : quote(c);
      i += 1;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new Error(`missing closing bracket ']' in "${pattern}"`);
      const body = pattern.slice(i + 1, end);
      if (!body) throw new Error(`unexpected empty brackets in "${pattern}"`);
      let cls = '';
      for (let j = 0; j < body.length; j++) {
        if (body[j] === '-' && j > 0 && j + 1 < body.length) {
          if (!rangeChar(body[j - 1]) || !rangeChar(body[j + 1]) || body[j - 1]! > body[j + 1]!) {
            throw new Error(`invalid range in "${pattern}"`);
          }
          cls += `-${quote(body[j + 1]!)}`;
          j += 1;
        } else if (rangeChar(body[j])) cls += body[j];
        else throw new Error(`ranges can only include a-z, A-Z and 0-9 in "${pattern}"`);
      }
      out += `[${cls}]`;
      i = end + 1;
    } else if (c === '\\') {
      if (i + 1 >= pattern.length) throw new Error(`missing symbol after \\ in "${pattern}"`);
      out += quote(pattern[i + 1]!);
      i += 2;
    } else {
      out += quote(c);
      i += 1;
    }
  }
  return new RegExp(`${out}$`);
}

export function compilePatterns(patterns: string[]): FilterPattern[] {
  return patterns.map((p) => {
    const negative = p.startsWith('!');
    return { negative, regex: patternToRegex(negative ? p.slice(1) : p) };
  });
}

/** Whether the last pattern matching `value` is a positive one. */
function included(patterns: FilterPattern[], value: string): boolean {
  let yes = false;
  for (const p of patterns) if (p.regex.test(value)) yes = !p.negative;
  return yes;
}

/** `branches`, `tags`, `paths`: true when some input is included (nothing included: skip). */
export function matchesInclude(patterns: string[], inputs: string[]): boolean {
  const compiled = compilePatterns(patterns);
  if (!compiled.length) return true;
  return inputs.some((v) => included(compiled, v));
}

/** `branches-ignore`, `tags-ignore`, `paths-ignore`: true unless every input is ignored. */
export function matchesIgnore(patterns: string[], inputs: string[]): boolean {
  const compiled = compilePatterns(patterns);
  if (!compiled.length) return true;
  return inputs.some((v) => !included(compiled, v));
}
