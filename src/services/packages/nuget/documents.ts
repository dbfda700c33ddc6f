import type { PackageVersion } from '../../../db/schema';
import type { NugetMetadata } from './nuspec';
import type { NugetVersions } from './nuget';

// The NuGet v3 documents (Gitea's routers/api/packages/nuget/api_v3.go shapes): the service
// index, registration index and leaf, the flat container's version list, search results.
// `base` is the registry's URL, `{root}api/packages/{owner}/nuget`.

const meta = (v: PackageVersion): NugetMetadata => { try { return JSON.parse(v.metadata_json || '{}') as NugetMetadata; } catch { return {}; } };
const lower = (s: string) => s.toLowerCase();

export function serviceIndex(base: string) {
  const r = (id: string, type: string) => ({ '@id': `${base}${id}`, '@type': type });
  return {
    version: '3.0.0',
    resources: [
      r('/query', 'SearchQueryService'), r('/query', 'SearchQueryService/3.0.0-beta'), r('/query', 'SearchQueryService/3.0.0-rc'),
      r('/registration', 'RegistrationsBaseUrl'), r('/registration', 'RegistrationsBaseUrl/3.0.0-beta'), r('/registration', 'RegistrationsBaseUrl/3.0.0-rc'),
      r('/package', 'PackageBaseAddress/3.0.0'), r('', 'PackagePublish/2.0.0'), r('/symbolpackage', 'SymbolPackagePublish/4.9.0'),
    ],
  };
}

const indexUrl = (base: string, id: string) => `${base}/registration/${lower(id)}/index.json`;
const leafUrl = (base: string, id: string, v: string) => `${base}/registration/${lower(id)}/${lower(v)}.json`;
const contentUrl = (base: string, id: string, v: string) => `${base}/package/${lower(id)}/${lower(v)}/${lower(id)}.${lower(v)}.nupkg`;

function catalogEntry(base: string, id: string, v: PackageVersion) {
  const m = meta(v);
  return {
    '@id': leafUrl(base, id, v.version), id, version: v.version, description: m.description ?? '', releaseNotes: m.release_notes ?? '',
    authors: m.authors ?? '', requireLicenseAcceptance: !!m.require_license_acceptance, projectUrl: m.project_url ?? '', summary: m.summary ?? '',
    tags: m.tags ?? '', title: m.title ?? '', packageContent: contentUrl(base, id, v.version), listed: true,
    dependencyGroups: Object.entries(m.dependencies ?? {}).map(([targetFramework, deps]) => ({ targetFramework, dependencies: deps.map((d) => ({ id: d.id, range: d.range })) })),
  };
}

export function registrationIndex(base: string, p: NugetVersions) {
  const items = p.versions.map((v) => ({ '@id': leafUrl(base, p.pkg.name, v.version), catalogEntry: catalogEntry(base, p.pkg.name, v), packageContent: contentUrl(base, p.pkg.name, v.version) }));
  return {
    '@id': indexUrl(base, p.pkg.name), count: 1,
    items: [{ '@id': indexUrl(base, p.pkg.name), count: items.length, lower: p.versions[0]!.version, upper: p.versions[p.versions.length - 1]!.version, items }],
  };
}

export function registrationLeaf(base: string, id: string, v: PackageVersion) {
  return {
    '@id': leafUrl(base, id, v.version), catalogEntry: leafUrl(base, id, v.version), listed: true, packageContent: contentUrl(base, id, v.version),
    published: new Date(v.created_unix * 1000).toISOString(), registration: indexUrl(base, id),
  };
}

export const flatVersions = (p: NugetVersions) => ({ versions: p.versions.map((v) => lower(v.version)) });

export function searchResults(base: string, total: number, packages: NugetVersions[]) {
  return {
    totalHits: total,
    data: packages.map((p) => {
      const latest = p.versions[p.versions.length - 1]!;
      const m = meta(latest);
      return {
        '@id': indexUrl(base, p.pkg.name), id: p.pkg.name, version: latest.version, registration: indexUrl(base, p.pkg.name),
        description: m.description ?? '', authors: m.authors ?? '', projectUrl: m.project_url ?? '', tags: m.tags ?? '', title: m.title ?? '',
        totalDownloads: p.versions.reduce((n, v) => n + v.download_count, 0),
        versions: p.versions.map((v) => ({ '@id': leafUrl(base, p.pkg.name, v.version), version: v.version, downloads: v.download_count })),
      };
    }),
  };
}
