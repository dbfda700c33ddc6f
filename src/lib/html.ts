// HTML built from template literals: every interpolated value is escaped unless it is already
// SafeHtml (the result of html`` or of raw()), so a page cannot take user text for markup.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string { return this.value; }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };

const SPECIAL = /[&<>"']/;

// Most values (names, paths, numbers) have nothing to escape: one test, no new string.
export const escapeHtml = (s: string): string => (SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s);

/** Trusted markup (rendered markdown, already-escaped text): passed through as is. */
export const raw = (s: string): SafeHtml => new SafeHtml(s);

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function piece(v: Value): string {
  if (v === null || v === undefined || v === false || v === true) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) {
    // Concatenated, not joined: V8 keeps the parts linked until the page is encoded, where
    // join copied them into one string first (a 200-comment page: one more 230 KB copy, in
    // the heap's large-object space, whose growth brings on full collections).
    let out = '';
    for (const x of v as readonly Value[]) out += piece(x);
    return out;
  }
  return escapeHtml(String(v));
}

/** A template whose values are escaped; arrays are joined; null, undefined and booleans vanish. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i] as Value) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** A path of URL segments, each percent-encoded, slashes kept between them. */
export const encodePath = (s: string): string => s.split('/').map(encodeURIComponent).join('/');
