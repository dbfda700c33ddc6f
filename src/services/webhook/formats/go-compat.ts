// Byte-compatible versions of the Go standard library encoders Gitea's webhook code relies on,
// so bodies, links and signatures come out the same as Gitea's.

const HEX = '0123456789ABCDEF';

function percentEncode(s: string, keep: (c: number) => boolean, spaceAsPlus: boolean): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (keep(byte)) out += String.fromCharCode(byte);
    else if (spaceAsPlus && byte === 0x20) out += '+';
    else out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

function isUnreserved(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
    || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

// Go's url.PathEscape also leaves the sub-delims `$ & + : = @` alone within a path segment.
const PATH_SEGMENT_EXTRA = new Set([...'$&+:=@'].map((c) => c.charCodeAt(0)));

/** Go's url.PathEscape. */
export function pathEscape(s: string): string {
  return percentEncode(s, (c) => isUnreserved(c) || PATH_SEGMENT_EXTRA.has(c), false);
}

/** Gitea's util.PathEscapeSegments: escapes each `/`-separated segment. */
export function pathEscapeSegments(s: string): string {
  return s.split('/').map(pathEscape).join('/');
}

/** Go's url.QueryEscape (space as `+`). */
export function queryEscape(s: string): string {
  return percentEncode(s, isUnreserved, true);
}

function queryUnescape(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Go's `u.Query(); vals[key] = value; u.RawQuery = vals.Encode()`: existing parameters are kept
 * but re-encoded and sorted by key, as Gitea does for GET hooks.
 */
export function setQueryParam(url: string, key: string, value: string): string {
  const hashAt = url.indexOf('#');
  const fragment = hashAt >= 0 ? url.slice(hashAt) : '';
  const rest = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = rest.indexOf('?');
  const base = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
  const params = new Map<string, string[]>();
  for (const part of (queryAt >= 0 ? rest.slice(queryAt + 1) : '').split('&')) {
    // Go's ParseQuery drops pairs with a `;` or a bad escape and keeps the rest.
    if (!part || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = queryUnescape(eq >= 0 ? part.slice(0, eq) : part);
    const v = queryUnescape(eq >= 0 ? part.slice(eq + 1) : '');
    if (k === null || v === null) continue;
    params.set(k, [...(params.get(k) ?? []), v]);
  }
  params.set(key, [value]);
  const encoded = [...params.keys()].sort()
    .flatMap((k) => params.get(k)!.map((v) => `${queryEscape(k)}=${queryEscape(v)}`))
    .join('&');
  return `${base}?${encoded}${fragment}`;
}

/** Go's json.MarshalIndent(v, "", "  "), which escapes <, >, & and U+2028/U+2029 inside strings. */
export function goJson(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '"': '&#34;' };
const HTML_UNESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Go's html.EscapeString. */
export function htmlEscape(s: string): string {
  return s.replace(/[&'<>"]/g, (c) => HTML_ESCAPES[c]);
}

/** The inverse of htmlEscape for named and numeric references (enough for text we escaped ourselves). */
export function htmlUnescape(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return HTML_UNESCAPES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Go's strings.TrimRight(s, cutset). */
export function trimRight(s: string, cutset: string): string {
  let end = s.length;
  while (end > 0 && cutset.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

/** Go's `fmt.Sprintf("%.Ns", s)`: the first n runes. */
export function firstRunes(s: string, n: number): string {
  return Array.from(s).slice(0, n).join('');
}

export function runeCount(s: string): number {
  return Array.from(s).length;
}

/** Gitea's git.RefName(ref).ShortName(). */
export function refShortName(ref: string): string {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/remotes/', 'refs/for/']) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  if (ref.startsWith('refs/pull/')) return ref.slice('refs/pull/'.length).replace(/\/head$/, '');
  return ref;
}

/** Gitea's git.RefURL: where a ref is browsed; a bare name is taken for a branch. */
export function refUrl(repoUrl: string, ref: string): string {
  const name = pathEscapeSegments(refShortName(ref));
  if (ref.startsWith('refs/heads/')) return `${repoUrl}/src/branch/${name}`;
  if (ref.startsWith('refs/tags/')) return `${repoUrl}/src/tag/${name}`;
  if (!/^[0-9a-f]{4,40}$/.test(ref)) return `${repoUrl}/src/branch/${name}`;
  return `${repoUrl}/src/commit/${name}`;
}

/** Go's fmt.Sprintf("%x", n). */
export function hexColor(n: number): string {
  return n.toString(16);
}
