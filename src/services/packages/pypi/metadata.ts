// The version metadata Gitea stores for a PyPI upload (modules/packages/pypi/metadata.go), from
// the fields of twine's multipart form; empty fields are left out as Go's omitempty does.

export type PypiMetadata = {
  author?: string;
  description?: string;
  long_description?: string;
  summary?: string;
  project_url?: string;
  project_urls?: Record<string, string>;
  license?: string;
  requires_python?: string;
};

/** Form fields by name; a repeated field (project_urls, classifiers) keeps every value. */
export type PypiFields = Record<string, string | string[] | undefined>;

/** The first value of a form field ('' when missing). */
export const field = (f: PypiFields, name: string): string => {
  const v = f[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};
const fieldAll = (f: PypiFields, name: string): string[] => {
  const v = f[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** Gitea's validation.IsValidURL: an absolute http(s) URL with a host. */
function isValidUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch { return false; }
}

/** `project_urls` values are "Label, https://..." (core metadata Project-URL); invalid URLs are dropped. */
function projectUrls(f: PypiFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fieldAll(f, 'project_urls')) {
    const comma = entry.indexOf(',');
    if (comma < 0) continue;
    const label = entry.slice(0, comma).trim();
    const url = entry.slice(comma + 1).trim();
    if (isValidUrl(url)) out[label] = url;
  }
  return out;
}

/** The project URL: home_page when valid, else the project URL labelled as a home page. */
function projectUrl(f: PypiFields, urls: Record<string, string>): string {
  const home = field(f, 'home_page');
  if (isValidUrl(home)) return home;
  const key = Object.keys(urls).find((k) => ['homepage', 'home-page', 'home', 'source', 'source code', 'repository'].includes(k.toLowerCase()));
  return key ? urls[key]! : '';
}

export function pypiMetadata(f: PypiFields): PypiMetadata {
  const urls = projectUrls(f);
  const m: PypiMetadata = {
    author: field(f, 'author'),
    description: field(f, 'description'),
    long_description: field(f, 'long_description'),
    summary: field(f, 'summary'),
    project_url: projectUrl(f, urls),
    project_urls: Object.keys(urls).length ? urls : undefined,
    license: field(f, 'license'),
    requires_python: field(f, 'requires_python'),
  };
  for (const k of Object.keys(m) as (keyof PypiMetadata)[]) if (!m[k]) delete m[k];
  return m;
}
