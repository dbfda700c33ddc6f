import { codeRegion } from './layout';
import { html, type SafeHtml } from '../../lib/html';

// A unified diff as a table of lines, coloured by kind through the stylesheet's classes.

const kindOf = (line: string): string => {
  if (line.startsWith('diff --git') || line.startsWith('index ') || line.startsWith('--- ') || line.startsWith('+++ ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
};

export function diffView(diff: { text: string; truncated: boolean }): SafeHtml {
  if (!diff.text) return html`<p class="meta">No changes.</p>`;
  const lines = diff.text.replace(/\n$/, '').split('\n');
  const rows = lines.map((l) => html`<tr class="${kindOf(l)}"><td>${l}</td></tr>`);
  return html`${codeRegion('Diff', html`<table class="code diff">${rows}</table>`)}${diff.truncated ? html`<p class="meta">The diff is too large to show in full.</p>` : ''}`;
}
