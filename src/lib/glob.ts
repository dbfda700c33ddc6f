// Glob patterns as Gitea compiles them (gobwas/glob): `*` matches within one segment (it stops at
// the separators given), `**` spans segments, `?` is one non-separator character, `[abc]`,
// `[!a-z]` are classes, `{a,b}` are alternatives and `\` escapes the next character.

const SPECIAL = new Set(['*', '?', '[', ']', '{', '}', '\\']);

/** True when `s` uses glob syntax (Gitea's IsRuleNameSpecial): otherwise it is a plain name. */
export const hasGlobSyntax = (s: string): boolean => [...s].some((c) => SPECIAL.has(c));

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

class GlobSyntaxError extends Error {}

/** Translates from `i` up to an unmatched `}` or `,` (inside alternatives) or the end. */
function translate(p: string, start: number, seps: string, inTerms: boolean): [string, number] {
  const notSep = seps ? `[^${escapeRe(seps)}]` : '[\\s\\S]';
  let out = '';
  let i = start;
  while (i < p.length) {
    const c = p[i]!;
    if (inTerms && (c === ',' || c === '}')) return [out, i];
    if (c === '\\') {
      if (i + 1 >= p.length) throw new GlobSyntaxError('trailing escape');
      out += escapeRe(p[i + 1]!);
      i += 2;
    } else if (c === '*') {
      const sup = p[i + 1] === '*';
      out += sup ? '[\\s\\S]*' : `${notSep}*`;
      i += sup ? 2 : 1;
    } else if (c === '?') {
      out += notSep;
      i += 1;
    } else if (c === '[') {
      const end = p.indexOf(']', i + 1);
      if (end < 0) throw new GlobSyntaxError('unclosed [');
      let body = p.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      if (!body) throw new GlobSyntaxError('empty class');
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end + 1;
    } else if (c === '{') {
      const alts: string[] = [];
      let j = i + 1;
      for (;;) {
        const [alt, next] = translate(p, j, seps, true);
        alts.push(alt);
        if (next >= p.length) throw new GlobSyntaxError('unclosed {');
        j = next + 1;
        if (p[next] === '}') break;
      }
      out += `(?:${alts.join('|')})`;
      i = j;
    } else if (c === ']' || c === '}') {
      throw new GlobSyntaxError(`unexpected ${c}`);
    } else {
      out += escapeRe(c);
      i += 1;
    }
  }
  if (inTerms) throw new GlobSyntaxError('unclosed {');
  return [out, i];
}

/** Compiles a glob to an anchored RegExp; throws on a syntax error. */
export function compileGlob(pattern: string, separators = ''): RegExp {
  const [body] = translate(pattern, 0, separators, false);
  return new RegExp(`^${body}$`);
}

/** As compileGlob, but an invalid pattern matches itself literally (Gitea's fallback). */
export function compileGlobOrLiteral(pattern: string, separators = ''): RegExp {
  try {
    return compileGlob(pattern, separators);
  } catch {
    return new RegExp(`^${escapeRe(pattern)}$`);
  }
}

export function isValidGlob(pattern: string): boolean {
  try {
    compileGlob(pattern);
    return true;
  } catch {
    return false;
  }
}
