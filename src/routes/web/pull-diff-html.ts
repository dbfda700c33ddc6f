import { html, raw, type SafeHtml } from '../../lib/html';
import type { DiffLine, FileDiff } from '../../services/web/issue-pages-diff';
import { lineKey, type Thread } from '../../services/web/pull-threads-view';
import { codeRegion } from './layout';
import { commentForm, threadHtml, type FileCtx } from './pull-thread-html';

// A file's diff as a table, unified (one column of lines) or split (old left, new right), with
// each line number a link to the page state that opens the comment form under that line, and
// the threads on a line right under it.

const SIGN: Record<DiffLine['kind'], string> = { add: '+', del: '-', ctx: ' ', hunk: '', meta: '' };

/** A line's text, highlighted when its side's blob was (the highlighter's output is escaped). */
const textOf = (l: DiffLine): SafeHtml | string => (l.html !== undefined ? raw(l.html) : l.text);

/** The line-number cell: a link that opens the comment form under the line, for those who may comment. */
function numCell(f: FileCtx, side: 'old' | 'new', n: number | undefined): SafeHtml {
  if (n === undefined) return html`<td class="num"></td>`;
  const id = `${f.anchor}-${side === 'new' ? 'R' : 'L'}${n}`;
  const label = `${side === 'new' ? 'Line' : 'Old line'} ${n}`;
  return f.perms.comment
    ? html`<td class="num" id="${id}"><a href="${f.lineUrl(side, n)}#${id}" data-line-form aria-label="Comment on ${label.toLowerCase()} of ${f.path}" title="${label}">${String(n)}</a></td>`
    : html`<td class="num" id="${id}">${String(n)}</td>`;
}

/** The rows under a line: its threads, and the comment form when this line was asked for. */
function below(f: FileCtx, keys: string[], cols: number): SafeHtml[] {
  const out: SafeHtml[] = [];
  for (const key of keys) {
    const threads: Thread[] = f.placed.get(key) ?? [];
    if (threads.length) out.push(html`<tr class="threads"><td colspan="${String(cols)}">${threads.map((t) => threadHtml(f, t))}</td></tr>`);
    if (f.at === key) out.push(html`<tr class="threads"><td colspan="${String(cols)}">${commentForm(f, key)}</td></tr>`);
  }
  return out;
}

function unifiedRows(f: FileCtx, d: FileDiff): SafeHtml[] {
  return d.lines.flatMap((l) => {
    if (l.kind === 'hunk' || l.kind === 'meta') return [html`<tr class="${l.kind}"><td class="num"></td><td class="num"></td><td>${l.text}</td></tr>`];
    const keys = [l.kind !== 'add' && l.old !== undefined ? lineKey('old', l.old) : '', l.kind !== 'del' && l.new !== undefined ? lineKey('new', l.new) : ''].filter(Boolean);
    return [
      html`<tr class="${l.kind}">${numCell(f, 'old', l.kind === 'add' ? undefined : l.old)}${numCell(f, 'new', l.kind === 'del' ? undefined : l.new)}<td>${SIGN[l.kind]}${textOf(l)}</td></tr>`,
      ...below(f, keys, 3),
    ];
  });
}

type Pair = { left?: DiffLine; right?: DiffLine };

/** A hunk's lines side by side: context on both, a run of removals beside the additions that follow it. */
function pairs(lines: DiffLine[]): Array<Pair | DiffLine> {
  const out: Array<Pair | DiffLine> = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const l of lines) {
    if (l.kind === 'del') {
      if (adds.length) flush();
      dels.push(l);
    } else if (l.kind === 'add') adds.push(l);
    else {
      flush();
      out.push(l.kind === 'ctx' ? { left: l, right: l } : l);
    }
  }
  flush();
  return out;
}

function splitRows(f: FileCtx, d: FileDiff): SafeHtml[] {
  return pairs(d.lines).flatMap((p) => {
    if ('kind' in p) return [html`<tr class="${p.kind}"><td class="num"></td><td colspan="3">${p.text}</td></tr>`];
    const { left, right } = p;
    const cell = (l: DiffLine | undefined) => (l ? html`<td class="${l.kind}">${SIGN[l.kind]}${textOf(l)}</td>` : html`<td class="empty"></td>`);
    const keys = [left ? lineKey('old', left.old!) : '', right ? lineKey('new', right.new!) : ''].filter(Boolean);
    return [
      html`<tr>${numCell(f, 'old', left?.old)}${cell(left)}${numCell(f, 'new', right?.new)}${cell(right)}</tr>`,
      ...below(f, keys, 4),
    ];
  });
}

/** Whether the diff shows the line `key` (`new:12`), where its form and threads go. */
const shows = (d: FileDiff, key: string): boolean => d.lines.some((l) =>
  (l.kind !== 'add' && l.old !== undefined && lineKey('old', l.old) === key) || (l.kind !== 'del' && l.new !== undefined && lineKey('new', l.new) === key));

export function diffTable(f: FileCtx, d: FileDiff, split: boolean): SafeHtml {
  // A refused comment on a line the diff does not show comes back under the table, with its reason.
  const lost = f.at && !shows(d, f.at) ? commentForm(f, f.at) : '';
  if (!d.lines.length) return html`<p class="meta">No changes to show (only whitespace, or a change of mode).</p>${lost}`;
  const rows = split ? splitRows(f, d) : unifiedRows(f, d);
  if (lost) rows.push(html`<tr class="threads"><td colspan="${split ? '4' : '3'}">${lost}</td></tr>`);
  return codeRegion(`Diff of ${f.path}`, html`<table class="code diff${split ? raw(' split') : ''}">${rows}</table>`);
}
