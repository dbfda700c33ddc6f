import { listTemplates, readTemplate } from './templates';

export type TemplateLabel = { name: string; color: string; description: string; exclusive: boolean; priority: string };

// Label sets live in assets/options/label as Gitea ships them: `<Name>.yaml` (or `.yml`) in
// Gitea's YAML layout, or the legacy one-line-per-label `#color name ; description` format.
// The display name is the file name without its extension.

const displayName = (file: string) => file.replace(/\.(ya?ml)$/i, '');

/** Display names of the label templates, in file order (sorted). */
export const listLabelTemplates = (): string[] => listTemplates('label').map(displayName);

/** The labels of a template by display name, or undefined when there is none. */
export function loadLabelTemplate(name: string): TemplateLabel[] | undefined {
  const file = listTemplates('label').find((f) => displayName(f) === name);
  const text = file === undefined ? undefined : readTemplate('label', file);
  if (text === undefined) return undefined;
  return /\.ya?ml$/i.test(file!) ? parseYamlLabels(text) : parseLegacyLabels(text);
}

/** A YAML scalar as written in these files: quoted or plain, with trailing comments dropped. */
function scalar(raw: string): string {
  const v = raw.trim();
  const quote = v[0];
  if ((quote === '"' || quote === '\'') && v.length > 1) {
    const end = v.lastIndexOf(quote);
    const inner = v.slice(1, end > 0 ? end : undefined);
    return quote === '"' ? inner.replace(/\\(["\\])/g, '$1') : inner.replaceAll('\'\'', '\'');
  }
  if (v.startsWith('#')) return '';
  const comment = v.search(/\s#/);
  return (comment < 0 ? v : v.slice(0, comment)).trim();
}

const emptyLabel = (): TemplateLabel => ({ name: '', color: '', description: '', exclusive: false, priority: '' });

/** The subset of YAML Gitea's label files use: `labels:` then a list of flat maps. */
export function parseYamlLabels(text: string): TemplateLabel[] {
  const labels: TemplateLabel[] = [];
  let current: TemplateLabel | null = null;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+$/, '');
    if (!line.trim() || line.trim().startsWith('#') || /^labels:\s*$/.test(line)) continue;
    let body = line.trim();
    if (body.startsWith('- ')) {
      current = emptyLabel();
      labels.push(current);
      body = body.slice(2).trim();
    }
    const colon = body.indexOf(':');
    if (!current || colon < 0) continue;
    const key = body.slice(0, colon).trim();
    const value = scalar(body.slice(colon + 1));
    if (key === 'name' || key === 'color' || key === 'description' || key === 'priority') current[key] = value;
    else if (key === 'exclusive') current.exclusive = value === 'true';
  }
  return labels.map(normalize);
}

/** Gitea's first format: `#ee0701 bug ; Something is not working`. */
export function parseLegacyLabels(text: string): TemplateLabel[] {
  const labels: TemplateLabel[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const semi = line.indexOf(';');
    const head = semi < 0 ? line : line.slice(0, semi);
    const space = head.indexOf(' ');
    if (space < 0) continue;
    labels.push(normalize({
      ...emptyLabel(),
      color: head.slice(0, space).trim(),
      name: head.slice(space + 1).trim(),
      description: semi < 0 ? '' : line.slice(semi + 1).trim(),
    }));
  }
  return labels;
}

/** Colors are stored with their `#`, as Gitea normalizes them (`ee0701` → `#ee0701`). */
function normalize(label: TemplateLabel): TemplateLabel {
  const c = label.color.trim();
  return { ...label, color: /^[0-9a-f]{3}([0-9a-f]{3})?$/i.test(c) ? `#${c.toLowerCase()}` : c.toLowerCase() };
}
