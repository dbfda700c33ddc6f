import crypto from 'node:crypto';
import type { Request } from 'express';
import { isWhitespace, type Whitespace } from '../../git/diff-view';
import { html, raw, type SafeHtml } from '../../lib/html';
import type { DiffFile, DiffLine } from '../../services/web/diff-model';
import type { ShownDiff } from '../../services/web/diff-read';
import { codeRegion } from './layout';

// A diff as the commit and compare pages show it: the changed files with their +/- counts,
// then each file's lines, numbered on both sides, unified or split (side by side), each side
// highlighted. Style and whitespace are links (GET), so they work without the script.

export type DiffStyle = 'unified' | 'split';
export type DiffView = { style: DiffStyle; whitespace: Whitespace };

/** `?style=` over the user's setting (Gitea's diff_view_style), `?whitespace=` (Gitea's values). */
export function diffViewOf(req: Request): DiffView {
  const asked = req.query.style;
  const saved = req.ctx.doer?.diff_view_style;
  const style: DiffStyle = asked === 'split' || asked === 'unified' ? asked : saved === 'split' ? 'split' : 'unified';
  const ws = req.query.whitespace;
  return { style, whitespace: isWhitespace(ws) ? ws : 'show-all' };
}

/** Gitea's anchor of a file in a diff: `diff-` and the SHA-1 of its name. */
export const fileAnchor = (path: string): string => `diff-${crypto.createHash('sha1').update(path).digest('hex')}`;

const code = (l: DiffLine): SafeHtml => (l.html !== undefined ? raw(l.html) : html`${l.text}`);
const SIGN: Record<DiffLine['kind'], string> = { add: '+', del: '-', ctx: ' ', hunk: '', meta: '' };

function unifiedRows(lines: DiffLine[]): SafeHtml[] {
  return lines.map((l) => (l.kind === 'hunk' || l.kind === 'meta'
    ? html`<tr class="${l.kind}"><td class="num"></td><td class="num"></td><td colspan="2">${l.text}</td></tr>`
    : html`<tr class="${l.kind}"><td class="num">${l.old ?? ''}</td><td class="num">${l.new ?? ''}</td><td class="sign">${SIGN[l.kind]}</td><td>${code(l)}</td></tr>`));
}

const half = (l: DiffLine | undefined, side: 'old' | 'new'): SafeHtml => (l
  ? html`<td class="num ${l.kind}">${l[side] ?? ''}</td><td class="${l.kind}"><span class="sign">${SIGN[l.kind]}</span>${code(l)}</td>`
  : html`<td class="num empty"></td><td class="empty"></td>`);

/** Side by side: context on both sides, each run of removals paired row by row with the additions after it. */
function splitRows(lines: DiffLine[]): SafeHtml[] {
  const rows: SafeHtml[] = [];
  for (let i = 0; i < lines.length;) {
    const l = lines[i]!;
    if (l.kind === 'hunk' || l.kind === 'meta') {
      rows.push(html`<tr class="${l.kind}"><td class="num"></td><td colspan="3">${l.text}</td></tr>`);
      i++;
    } else if (l.kind === 'ctx') {
      rows.push(html`<tr>${half(l, 'old')}${half(l, 'new')}</tr>`);
      i++;
    } else {
      const dels: DiffLine[] = [];
      const adds: DiffLine[] = [];
      while (lines[i]?.kind === 'del') dels.push(lines[i++]!);
      while (lines[i]?.kind === 'add') adds.push(lines[i++]!);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push(html`<tr>${half(dels[k], 'old')}${half(adds[k], 'new')}</tr>`);
    }
  }
  return rows;
}

export type FileLinks = { view: (f: DiffFile) => string; load: (f: DiffFile) => string; raw: string };

function fileBody(f: DiffFile, d: ShownDiff, view: DiffView, links: FileLinks): SafeHtml {
  if (d.collapsed.has(f)) return html`<p class="meta">This file's diff is large. <a href="${links.load(f)}">Load the diff</a></p>`;
  if (f.binary) return html`<p class="meta">Binary file not shown.</p>`;
  if (!f.lines) {
    return d.truncated
      ? html`<p class="meta">Not shown: the diff is too large. See the <a href="${links.raw}">raw diff</a>.</p>`
      : html`<p class="meta">${view.whitespace === 'show-all' ? 'No changes to show.' : 'Only whitespace changed.'}</p>`;
  }
  if (!f.lines.some((l) => l.kind !== 'meta')) return html`<p class="meta">${f.lines.map((l) => l.text).join(' · ') || 'No content changes.'}</p>`;
  const rows = view.style === 'split' ? splitRows(f.lines) : unifiedRows(f.lines);
  return codeRegion(`Changes of ${f.path}`, html`<table class="code diff ${view.style}">${rows}</table>`);
}

const counts = (f: DiffFile): SafeHtml | string => (!f.lines ? '' : html`<span class="counts"><span class="plus">+${f.additions}</span> <span class="minus">−${f.deletions}</span></span>`);
const moved = (f: DiffFile): SafeHtml | string => (f.oldPath !== f.path ? html`<span class="meta">${f.oldPath} →</span> ` : '');

/** The toolbar (style, whitespace), the list of files with counts, and each file. */
export function diffBody(d: ShownDiff, view: DiffView, links: FileLinks & { toggle: (q: Record<string, string>) => string }): SafeHtml {
  const adds = d.files.reduce((n, f) => n + f.additions, 0);
  const dels = d.files.reduce((n, f) => n + f.deletions, 0);
  const other: DiffStyle = view.style === 'split' ? 'unified' : 'split';
  const ws = view.whitespace === 'show-all' ? 'ignore-all' : 'show-all';
  const toolbar = html`<p class="toolbar"><a href="${links.toggle({ style: other })}">${other === 'split' ? 'Split view' : 'Unified view'}</a> · <a href="${links.toggle({ whitespace: ws })}">${ws === 'show-all' ? 'Show whitespace changes' : 'Ignore whitespace'}</a></p>`;
  if (!d.files.length) return html`${toolbar}<p class="meta">No changes.</p>`;
  const list = d.files.map((f) => html`<li><a href="#${fileAnchor(f.path)}">${moved(f)}${f.path}</a> ${counts(f)}</li>`);
  const files = d.files.map((f) => html`<section class="file" id="${fileAnchor(f.path)}"><h3><span class="badge">${f.status}</span> ${moved(f)}${f.status === 'deleted' ? f.path : html`<a href="${links.view(f)}">${f.path}</a>`} ${counts(f)}</h3>
${fileBody(f, d, view, links)}</section>`);
  return html`${toolbar}<p class="meta">${d.files.length} changed file${d.files.length === 1 ? '' : 's'} with ${adds} addition${adds === 1 ? '' : 's'} and ${dels} deletion${dels === 1 ? '' : 's'}${d.truncated ? html` (the diff is too large to show in full: see the <a href="${links.raw}">raw diff</a>)` : ''}</p>
<details class="files" open><summary>Changed files</summary><ul class="list files">${list}</ul></details>
${files}`;
}
