import path from 'node:path';
import { validateTemplate } from './issue-template-validate';
import { isMapping, parseYaml } from './yaml';

// Issue templates as Gitea reads them: markdown files with YAML front matter, and YAML issue
// forms. Decoding follows Go's yaml into Gitea's structs: scalars become strings where a string is
// expected, `labels` / `assignees` take a list or a comma-separated string, and a form field
// without an id gets its position.

export type IssueFormField = {
  type: string; id: string; attributes: Record<string, unknown>; validations: Record<string, unknown>; visible: string[];
};
export type IssueTemplate = {
  name: string; title: string; about: string; labels: string[]; assignees: string[]; ref: string;
  content: string; body: IssueFormField[]; file_name: string;
};

export type TemplateKind = 'md' | 'yaml' | '';

/** The kind a file name stands for; config.yaml/.yml is the directory's configuration, not a template. */
export function templateKind(fileName: string): TemplateKind {
  const base = path.posix.basename(fileName);
  if (base === 'config.yaml' || base === 'config.yml') return '';
  const ext = path.posix.extname(fileName);
  if (ext === '.md') return 'md';
  return ext === '.yaml' || ext === '.yml' ? 'yaml' : '';
}

function asString(v: unknown, field: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Error(`cannot unmarshal ${Array.isArray(v) ? '!!seq' : '!!map'} into string (${field})`);
}

/** Gitea's IssueTemplateStringSlice: a list, or one string split on commas. */
function asStringList(v: unknown, field: string): string[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.map((x) => asString(x, field));
  if (isMapping(v)) throw new Error(`cannot unmarshal !!map into IssueTemplateStringSlice (${field})`);
  return asString(v, field).split(',').map((s) => s.trim()).filter(Boolean);
}

function asMap(v: unknown, field: string): Record<string, unknown> {
  if (v === null || v === undefined) return {};
  if (!isMapping(v)) throw new Error(`cannot unmarshal into map (${field})`);
  return v;
}

function decodeField(raw: unknown, index: number): IssueFormField {
  const f = asMap(raw, `body[${index}]`);
  const type = asString(f.type, 'type');
  const visible = f.visible === undefined || f.visible === null
    // Shown on the form, and (except markdown, never submitted) in the issue's content.
    ? (type === 'markdown' ? ['form'] : ['form', 'content'])
    : asStringList(f.visible, 'visible');
  return {
    type, id: asString(f.id, 'id') || String(index),
    attributes: asMap(f.attributes, 'attributes'), validations: asMap(f.validations, 'validations'), visible,
  };
}

/** Fills the template's metadata from a decoded YAML mapping. */
function decodeMetadata(it: IssueTemplate, doc: unknown): void {
  if (doc === null || doc === undefined) return;
  if (!isMapping(doc)) throw new Error('yaml unmarshal: the document is not a mapping');
  it.name = asString(doc.name, 'name');
  it.title = asString(doc.title, 'title');
  // `description` is accepted for `about`, as GitHub names it.
  it.about = asString(doc.about, 'about') || asString(doc.description, 'description');
  it.labels = asStringList(doc.labels, 'labels');
  it.assignees = asStringList(doc.assignees, 'assignees');
  it.ref = asString(doc.ref, 'ref');
}

const isSeparator = (line: string) => /^-{3,}$/.test(line.trim());

/** Front matter between two `---` lines at the top, and the markdown after it. */
function splitFrontMatter(text: string): { front: string; body: string } | null {
  const lines = text.split('\n');
  if (!lines.length || !isSeparator(lines[0]!)) return null;
  const end = lines.findIndex((l, i) => i > 0 && isSeparator(l));
  if (end < 0) return null;
  return { front: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

const ellipsis = (s: string, limit: number) => {
  const chars = [...s];
  return chars.length <= limit ? s : `${chars.slice(0, limit - 1).join('')}…`;
};

function parseMarkdownTemplate(it: IssueTemplate, text: string): void {
  const parts = splitFrontMatter(text);
  let decoded = false;
  if (parts) {
    try {
      decodeMetadata(it, parseYaml(parts.front));
      it.content = parts.body;
      decoded = true;
    } catch { /* not front matter after all: a document with horizontal rules */ }
  }
  if (!decoded) {
    it.content = text;
    it.name = path.posix.basename(it.file_name);
    it.about = ellipsis(text, 80);
  }
}

/** Parses and validates one template file; throws with the reason it is not a valid template. */
export function parseIssueTemplate(fileName: string, text: string): IssueTemplate {
  const it: IssueTemplate = {
    name: '', title: '', about: '', labels: [], assignees: [], ref: '', content: '', body: [], file_name: fileName,
  };
  const kind = templateKind(fileName);
  if (kind === 'md') parseMarkdownTemplate(it, text);
  else if (kind === 'yaml') {
    let doc: unknown;
    try { doc = parseYaml(text); } catch (err) { throw new Error(`yaml unmarshal: ${(err as Error).message}`); }
    decodeMetadata(it, doc);
    const body = isMapping(doc) ? doc.body : undefined;
    if (body !== undefined && body !== null && !Array.isArray(body)) throw new Error('yaml unmarshal: body should be a list');
    it.body = (body ?? []).map(decodeField);
  } else throw new Error(`not a template file: ${fileName}`);
  validateTemplate(it, kind);
  return it;
}

export type IssueConfig = { blank_issues_enabled: boolean; contact_links: { name: string; url: string; about: string }[] };

export const defaultIssueConfig = (): IssueConfig => ({ blank_issues_enabled: true, contact_links: [] });

/** `config.yaml` of the template directory; throws Gitea's messages for invalid contact links. */
export function parseIssueConfig(text: string): IssueConfig {
  const doc = parseYaml(text);
  const config = defaultIssueConfig();
  if (doc === null || doc === undefined) return config;
  if (!isMapping(doc)) throw new Error('yaml: the configuration is not a mapping');
  if (doc.blank_issues_enabled !== undefined && doc.blank_issues_enabled !== null) {
    if (typeof doc.blank_issues_enabled !== 'boolean') throw new Error('yaml: blank_issues_enabled should be a bool');
    config.blank_issues_enabled = doc.blank_issues_enabled;
  }
  const links = doc.contact_links ?? [];
  if (!Array.isArray(links)) throw new Error('yaml: contact_links should be a list');
  links.forEach((raw, i) => {
    const link = asMap(raw, 'contact_links');
    const entry = { name: asString(link.name, 'name'), url: asString(link.url, 'url'), about: asString(link.about, 'about') };
    for (const key of ['name', 'url', 'about'] as const) {
      if (!entry[key]) throw new Error(`contact_link at position ${i + 1} is missing ${key} key`);
    }
    if (!isRequestUri(entry.url)) throw new Error(`${entry.url} is not a valid URL`);
    config.contact_links.push(entry);
  });
  return config;
}

/** Go's url.ParseRequestURI: an absolute URL or an absolute path. */
function isRequestUri(s: string): boolean {
  if (s.startsWith('/')) return !/\s/.test(s);
  return /^[a-z][a-z\d+.-]*:\S*$/i.test(s);
}
