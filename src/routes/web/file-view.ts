import type { Config } from '../../config/schema';
import { encodePath, html, raw, type SafeHtml } from '../../lib/html';
import type { RepoAccess } from '../../services/repo/repos';
import type { FilePage } from '../../services/web/code-pages';
import { refSegment, type WebTarget } from '../../services/web/refs';
import { codeRegion, repoLink } from './layout';
import { commitLine } from './repo-view';

// A file at a ref: its lines numbered and highlighted (each row's id is its anchor, `#L12`; the
// script highlights `#L10-L20` and extends a range on shift-click), a markdown file rendered
// with its source a link away, an image, or a link for a binary, large or LFS file; and the
// links Gitea's file header has: Raw, Permalink, Blame, History, and for writers Edit and Delete.

const size = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

/** `{view}/{kind}/{ref}/{path}` of the target. */
export const refPath = (view: string, t: WebTarget, path = t.path): string =>
  `${view}/${encodePath(refSegment(t.ref))}${path ? `/${encodePath(path)}` : ''}`;

/**
 * The numbered lines (already escaped, highlighted HTML); every row is its own anchor. A row
 * holds only its number besides: one plain template each, where html`` per row (2,000 of them,
 * each escaping three numbers) was most of a long file's page.
 */
export function numberedLines(lines: readonly string[], label: string): SafeHtml {
  const made = tables.get(lines);
  if (made?.label === label) return made.html;
  const rows = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    rows[i] = `<tr id="L${n}"><td class="num"><a href="#L${n}">${n}</a></td><td>${lines[i]!}</td></tr>`;
  }
  // Joined into one flat string once, so that every later page copies it whole, not in parts.
  const html = codeRegion(label, raw(`<table class="code">${rows.join('')}</table>`));
  tables.set(lines, { label, html });
  return html;
}

/**
 * The table of each highlighted blob's lines, as long as the highlighter's cache keeps those
 * lines (the same array on every warm view): a blob's rows are made once, not per view.
 */
const tables = new WeakMap<readonly string[], { label: string; html: SafeHtml }>();

function actions(config: Config, access: RepoAccess, page: FilePage, canEdit: boolean, source: boolean): SafeHtml {
  const t = page.target;
  const link = (rest: string, label: string) => html`<a class="button" href="${repoLink(config, access, rest)}">${label}</a>`;
  const edits = canEdit && t.ref.kind === 'branch'
    ? [link(`_edit/${encodePath(t.ref.name)}/${encodePath(t.path)}`, 'Edit'), link(`_delete/${encodePath(t.ref.name)}/${encodePath(t.path)}`, 'Delete')] : [];
  const markdown = page.display === 'markdown'
    ? [source ? link(refPath('src', t), 'Rendered') : link(`${refPath('src', t)}?display=source`, 'Source')] : [];
  const permalink = `src/commit/${t.ref.commit}/${encodePath(t.path)}`;
  return html`<nav class="file-actions" aria-label="File">${markdown}${link(refPath('raw', t), 'Raw')}${link(permalink, 'Permalink')}${link(refPath('blame', t), 'Blame')}${link(refPath('commits', t), 'History')}${edits}</nav>`;
}

function content(config: Config, access: RepoAccess, page: FilePage): SafeHtml {
  const t = page.target;
  const rawUrl = repoLink(config, access, refPath('raw', t));
  switch (page.display) {
    case 'image': return html`<p class="image"><img src="${rawUrl}" alt="${page.item.entry.name}"></p>`;
    case 'lfs': return html`<p>Stored with Git LFS (${size(page.item.lfs?.size ?? 0)}). <a href="${repoLink(config, access, refPath('media', t))}">Download it</a>.</p>`;
    case 'large': return html`<p>This file is too large to show. <a href="${rawUrl}">View it raw</a>.</p>`;
    case 'binary': return html`<p>This file is binary. <a href="${rawUrl}">Download it</a>.</p>`;
    default:
      if (page.rendered !== null) return html`<div class="markdown">${raw(page.rendered)}</div>`;
      return numberedLines(page.lines ?? [], `Content of ${page.item.entry.name}`);
  }
}

export function fileView(config: Config, access: RepoAccess, page: FilePage, canEdit: boolean, source: boolean): SafeHtml {
  const lines = page.lines ? html` · ${page.lines.length} line${page.lines.length === 1 ? '' : 's'}` : '';
  return html`${commitLine(config, access, page.latest)}<div class="file-head"><p class="meta">${size(page.item.entry.size)}${lines}</p>${actions(config, access, page, canEdit, source)}</div>
${content(config, access, page)}`;
}
