import type { PackageVersion } from '../../../db/schema';
import type { NugetMetadata } from './nuspec';
import type { NugetVersions } from './nuget';

// The NuGet v2 (OData, Atom) documents NuGet 2.x clients read (Gitea's api_v2.go shapes): the
// service document, $metadata, package entries and feeds. `base` is the registry's URL.

const x = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
const meta = (v: PackageVersion): NugetMetadata => { try { return JSON.parse(v.metadata_json || '{}') as NugetMetadata; } catch { return {}; } };
const NS = 'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function serviceDocumentV2(base: string): string {
  return `${HEAD}<service xml:base="${x(base)}" xmlns="http://www.w3.org/2007/app" xmlns:atom="http://www.w3.org/2005/Atom"><workspace><atom:title type="text">Default</atom:title>`
    + '<collection href="Packages"><atom:title type="text">Packages</atom:title></collection></workspace></service>';
}

const PROPERTIES: [string, string, boolean][] = [
  ['Id', 'Edm.String', false], ['Version', 'Edm.String', false], ['NormalizedVersion', 'Edm.String', true], ['Authors', 'Edm.String', true],
  ['Created', 'Edm.DateTime', false], ['Dependencies', 'Edm.String', false], ['Description', 'Edm.String', false], ['DownloadCount', 'Edm.Int64', false],
  ['LastUpdated', 'Edm.DateTime', false], ['Published', 'Edm.DateTime', false], ['PackageSize', 'Edm.Int64', false], ['ProjectUrl', 'Edm.String', true],
  ['ReleaseNotes', 'Edm.String', true], ['RequireLicenseAcceptance', 'Edm.Boolean', false], ['Title', 'Edm.String', true], ['VersionDownloadCount', 'Edm.Int64', false],
];

export function metadataV2(): string {
  const props = PROPERTIES.map(([n, t, nullable]) => `<Property Name="${n}" Type="${t}" Nullable="${nullable}"/>`).join('');
  const fn = (name: string, param: string) => `<FunctionImport Name="${name}" ReturnType="Collection(NuGetGallery.OData.V2FeedPackage)" EntitySet="Packages"><Parameter Name="${param}" Type="Edm.String"/></FunctionImport>`;
  return `${HEAD}<edmx:Edmx xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" Version="1.0"><edmx:DataServices xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" m:DataServiceVersion="2.0" m:MaxDataServiceVersion="2.0">`
    + `<Schema xmlns="http://schemas.microsoft.com/ado/2006/04/edm" Namespace="NuGetGallery.OData"><EntityType Name="V2FeedPackage" m:HasStream="true"><Key><PropertyRef Name="Id"/><PropertyRef Name="Version"/></Key>${props}</EntityType></Schema>`
    + `<Schema xmlns="http://schemas.microsoft.com/ado/2006/04/edm" Namespace="NuGetGallery"><EntityContainer Name="V2FeedContext" m:IsDefaultEntityContainer="true"><EntitySet Name="Packages" EntityType="NuGetGallery.OData.V2FeedPackage"/>`
    + `${fn('Search', 'searchTerm')}${fn('FindPackagesById', 'id')}</EntityContainer></Schema></edmx:DataServices></edmx:Edmx>`;
}

const dependencies = (m: NugetMetadata) => Object.entries(m.dependencies ?? {}).flatMap(([fw, deps]) => deps.map((d) => `${d.id}:${d.range}:${fw}`)).join('|');

function entry(base: string, id: string, v: PackageVersion, size: number, withNamespaces: boolean): string {
  const m = meta(v);
  const self = `${base}/Packages(Id='${id}',Version='${v.version}')`;
  const when = new Date(v.created_unix * 1000).toISOString();
  const dt = (name: string) => `<d:${name} m:type="Edm.DateTime">${when}</d:${name}>`;
  const content = `${base}/package/${id}/${v.version}/${id}.${v.version}.nupkg`;
  return `<entry${withNamespaces ? ` ${NS} xml:base="${x(base)}"` : ''}><id>${x(self)}</id>`
    + '<category term="NuGetGallery.OData.V2FeedPackage" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>'
    + `<link rel="self" href="${x(self)}"/><link rel="edit" href="${x(self)}"/><title type="text">${x(id)}</title><updated>${when}</updated>`
    + `<author><name>${x(m.authors ?? '')}</name></author><summary></summary><content type="application/zip" src="${x(content)}"/>`
    + `<m:properties><d:Version>${x(v.version)}</d:Version><d:NormalizedVersion>${x(v.version)}</d:NormalizedVersion><d:Authors>${x(m.authors ?? '')}</d:Authors>`
    + `<d:Dependencies>${x(dependencies(m))}</d:Dependencies><d:Description>${x(m.description ?? '')}</d:Description>`
    + `<d:VersionDownloadCount m:type="Edm.Int64">${v.download_count}</d:VersionDownloadCount><d:DownloadCount m:type="Edm.Int64">${v.download_count}</d:DownloadCount>`
    + `<d:PackageSize m:type="Edm.Int64">${size}</d:PackageSize>${dt('Created')}${dt('LastUpdated')}${dt('Published')}`
    + `${m.project_url ? `<d:ProjectUrl>${x(m.project_url)}</d:ProjectUrl>` : ''}${m.release_notes ? `<d:ReleaseNotes>${x(m.release_notes)}</d:ReleaseNotes>` : ''}`
    + `<d:RequireLicenseAcceptance m:type="Edm.Boolean">${m.require_license_acceptance ? 'true' : 'false'}</d:RequireLicenseAcceptance><d:Title>${x(id)}</d:Title></m:properties></entry>`;
}

export const entryV2 = (base: string, id: string, v: PackageVersion, size: number) => HEAD + entry(base, id, v, size, true);

/** A feed of versions (each with its package's id and the size of its .nupkg). */
export function feedV2(base: string, total: number, items: { id: string; version: PackageVersion; size: number }[]): string {
  return `${HEAD}<feed ${NS} xml:base="${x(base)}"><id>http://schemas.datacontract.org/2004/07/</id><title type="text">Packages</title>`
    + `<updated>${new Date().toISOString()}</updated><link rel="self" href="${x(base)}"/>${items.map((i) => entry(base, i.id, i.version, i.size, false)).join('')}<m:count>${total}</m:count></feed>`;
}

export const flatten = (list: NugetVersions[]) => list.flatMap((p) => p.versions.map((version) => ({ id: p.pkg.name, version })));
