import path from 'node:path';
import { escapeHtml } from './html';
import { highlightJs } from './lazy-require';

// A file's text as highlighted HTML, one string per line, for code pages' numbered rows.
// highlight.js (its common languages, loaded on first use) marks up the whole text; spans
// that run over line ends (a block comment, a multi-line string) are closed at each line's end
// and opened again on the next, so every line stands alone in its table row.

const BY_NAME: Record<string, string> = { dockerfile: 'dockerfile', makefile: 'makefile', 'cmakelists.txt': 'cmake' };

/** The highlight.js language of a file name, or '' (shown as plain text). */
export function languageOf(fileName: string): string {
  const base = path.posix.basename(fileName).toLowerCase();
  if (BY_NAME[base]) return BY_NAME[base];
  const ext = path.posix.extname(base).slice(1);
  if (!ext) return '';
  return highlightJs().getLanguage(ext) ? ext : '';
}

/** Splits highlighted HTML at newlines, re-balancing the <span>s open across each line end. */
export function splitHighlighted(htmlText: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (const m of htmlText.matchAll(tag)) {
    line += htmlText.slice(last, m.index);
    last = m.index! + m[0].length;
    if (m[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      line += m[0];
    } else {
      open.push(m[0]);
      line += m[0];
    }
  }
  lines.push(line + htmlText.slice(last));
  return lines;
}

/** Per-line HTML of a text; every character escaped, highlighted when the language is known. */
export function highlightLines(text: string, fileName: string): string[] {
  const language = languageOf(fileName);
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (!language) return body.split('\n').map(escapeHtml);
  return splitHighlighted(highlightJs().highlight(body, { language, ignoreIllegals: true }).value);
}
