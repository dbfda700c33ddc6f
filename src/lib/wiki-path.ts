import path from 'node:path';
import { BadRequestError } from './errors';

// Gitea's wiki names (services/wiki/wiki_path.go). A page has three spellings:
// - the title users see: "Home Page", "100% Free", "2000-01-02 meeting";
// - the web path (URLs, sub_url, webhook `page`): "Home-Page", "100%25+Free", "2000-01-02+meeting.-";
//   a segment ending in the dash marker ".-" keeps its dashes (no dash/space conversion);
// - the git path (file in the wiki repository; only spaces stay unescaped): "Home-Page.md",
//   "100%25 Free.md", "2000-01-02 meeting.-.md".

export type WebPath = string;

const RESERVED = ['_pages', '_new', '_edit', 'raw'];
const DASH_MARKER = '.-';

/** Go's url.QueryEscape: unreserved bytes kept, space as `+`, the rest %XX (upper case). */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's url.QueryUnescape (`plus`: `+` is a space) / PathUnescape; null on a bad escape. */
export function unescape(s: string, plus: boolean): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === '+' && plus) bytes.push(0x20);
    else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Gitea's util.PathJoinRelX: joined, cleaned, never absolute nor above the root. */
export function pathJoinRelX(...elems: string[]): string {
  const parts = elems.filter((e) => e !== '').map((e) => path.posix.normalize(`/${e.replaceAll('\\', '/')}`));
  if (!parts.length) return '';
  const joined = path.posix.join(...parts);
  return joined === '/' ? '.' : joined.replace(/^\//, '').replace(/\/$/, '');
}

function unescapeSegment(s: string): string {
  const plain = s.endsWith(DASH_MARKER) ? s.slice(0, -DASH_MARKER.length) : s.replaceAll('-', ' ');
  return unescape(plain, true) ?? plain;
}

function escapeSegToWeb(s: string, hadDashMarker: boolean): string {
  const marked = hadDashMarker || s.includes('-') || s.endsWith('.md') ? `${s}${DASH_MARKER}` : s.replaceAll(' ', '-');
  return queryEscape(marked);
}

export const webPathSegments = (s: WebPath): string[] => s.split('/').map(unescapeSegment);

export function validateWebPath(name: WebPath): void {
  const reserved = webPathSegments(name).find((s) => RESERVED.includes(s));
  if (reserved !== undefined) throw new BadRequestError(`wiki title is reserved: ${reserved}`);
}

export function webPathToGitPath(s: WebPath): string {
  if (s.endsWith('.md')) return pathJoinRelX(unescape(s, false) ?? s);
  return `${s.split('/').map((seg) => escapeSegToWeb(unescapeSegment(seg), seg.endsWith(DASH_MARKER))
    .replaceAll('%20', ' ').replaceAll('+', ' ')).join('/')}.md`;
}

/** The web path of a file of the wiki repository, or null for files that are not pages. */
export function gitPathToWebPath(s: string): WebPath | null {
  if (!s.endsWith('.md')) return null;
  const segs = s.slice(0, -3).split('/');
  const out: string[] = [];
  for (const seg of segs) {
    const plain = seg.endsWith(DASH_MARKER) ? seg.slice(0, -DASH_MARKER.length) : seg.replaceAll('-', ' ');
    const unescaped = unescape(plain, true);
    if (unescaped === null) return null;
    out.push(escapeSegToWeb(unescaped, seg.endsWith(DASH_MARKER)));
  }
  return out.join('/');
}

/** The title users see. */
export function webPathToUserTitle(s: WebPath): string {
  let display = path.posix.basename(s);
  if (display.endsWith('.md')) display = unescape(display.slice(0, -3), false) ?? display.slice(0, -3);
  return unescapeSegment(display);
}

/** A page name from the request path: subdirectories were always spelled %2F by Gitea's wiki. */
export const webPathFromRequest = (s: string): WebPath => pathJoinRelX(s).replaceAll('/', '%2F');

export function userTitleToWebPath(base: string, title: string): WebPath {
  const t = pathJoinRelX(base, escapeSegToWeb(title.trim(), false));
  return t === '' || t === '.' ? 'unnamed' : t;
}
