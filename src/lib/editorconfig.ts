// A small .editorconfig reader: sections of glob selectors with key = value properties, and
// the properties that apply to one file (later sections win), as Gitea's editorconfig library
// reports them.

export type EditorconfigSection = { selector: string; props: Map<string, string> };

/** The fields Gitea's Definition serialises (empty ones are left out). */
export type EditorconfigDefinition = Partial<Record<'charset' | 'indent_style' | 'indent_size' | 'end_of_line', string>>;

const REPORTED = ['charset', 'indent_style', 'indent_size', 'end_of_line'] as const;

export function parseEditorconfig(text: string): EditorconfigSection[] {
  const sections: EditorconfigSection[] = [];
  let current: EditorconfigSection | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      current = { selector: line.slice(1, -1), props: new Map() };
      sections.push(current);
      continue;
    }
    const eq = line.search(/[=:]/);
    if (eq < 0 || !current) continue; // the preamble (`root = true`) says nothing about files
    current.props.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim());
  }
  return sections;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

type Range = { lo: number; hi: number };

/** Index of the `}` closing the `{` at `open`, or -1. */
function closingBrace(p: string, open: number): number {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '{') depth++;
    else if (p[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits the body of `{a,b{c,d}}` on its top-level commas. */
function alternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** EditorConfig glob to regex source: `*`, `**`, `?`, `[...]`, `{a,b}`, `{1..5}` (ranges collected). */
function translate(p: string, ranges: Range[]): string {
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) out += escapeRe(p[++i]!);
    else if (p.startsWith('/**/', i)) { out += '(?:/|/.*/)'; i += 3; }
    else if (c === '*' && p[i + 1] === '*') { out += '.*'; i++; }
    else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[' && p.indexOf(']', i + 2) > 0) {
      const end = p.indexOf(']', i + 2);
      const body = p.slice(i + 1, end);
      out += body.startsWith('!') ? `[^${body.slice(1).replace(/\\/g, '\\\\')}]` : `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{' && closingBrace(p, i) > 0) {
      const end = closingBrace(p, i);
      const body = p.slice(i + 1, end);
      const range = /^([+-]?\d+)\.\.([+-]?\d+)$/.exec(body);
      if (range) {
        ranges.push({ lo: Math.min(Number(range[1]), Number(range[2])), hi: Math.max(Number(range[1]), Number(range[2])) });
        out += '([+-]?\\d+)';
      } else if (body.includes(',')) {
        out += `(?:${alternatives(body).map((a) => translate(a, ranges)).join('|')})`;
      } else {
        out += escapeRe(`{${body}}`);
      }
      i = end;
    } else out += escapeRe(c);
  }
  return out;
}

/** Whether `selector` (relative to the .editorconfig at the root) selects the file `path`. */
export function selectorMatches(selector: string, path: string): boolean {
  let s = selector;
  if (!s.startsWith('/')) s = s.includes('/') ? `/${s}` : `/**/${s}`;
  const ranges: Range[] = [];
  let re: RegExp;
  try {
    re = new RegExp(`^${translate(s, ranges)}$`);
  } catch {
    return false;
  }
  const m = re.exec(`/${path}`);
  if (!m) return false;
  // Capture groups are exactly the numeric ranges, in order.
  return ranges.every((r, i) => m[i + 1] === undefined || (Number(m[i + 1]) >= r.lo && Number(m[i + 1]) <= r.hi));
}

/** The merged definition for `path`; properties set to `unset` are dropped. */
export function definitionFor(sections: EditorconfigSection[], path: string): EditorconfigDefinition {
  const merged = new Map<string, string>();
  for (const section of sections) {
    if (!selectorMatches(section.selector, path)) continue;
    for (const [k, v] of section.props) merged.set(k, v);
  }
  const def: EditorconfigDefinition = {};
  for (const key of REPORTED) {
    const v = merged.get(key)?.toLowerCase();
    if (v && v !== 'unset') def[key] = v;
  }
  return def;
}
