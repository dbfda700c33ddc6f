import { BadRequestError } from '../../../lib/errors';
import { fastXmlParser } from '../../../lib/lazy-require';
import { readZipMembers } from '../archive/zip';

// A .nupkg's .nuspec (Gitea's modules/packages/nuget): the id, the normalized version and the
// metadata the registration documents and the search show.

export type NugetDependency = { id: string; range: string };
export type NugetMetadata = {
  description?: string; release_notes?: string; readme?: string; authors?: string; project_url?: string; summary?: string; title?: string;
  tags?: string; copyright?: string; require_license_acceptance?: boolean; dependencies?: Record<string, NugetDependency[]>;
};
export type NugetPackage = { id: string; version: string; metadata: NugetMetadata; nuspec: Buffer; symbols: boolean };

const ID = /^\w+(?:[.-]\w+)*$/;
const VERSION = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** NuGet's normalized version: three or four numbers without leading zeros, no build metadata. */
export function normalizeVersion(v: string): string | null {
  const m = VERSION.exec(v.trim());
  if (!m) return null;
  const nums = [m[1], m[2] ?? '0', m[3] ?? '0'].map((n) => String(Number(n)));
  if (m[4] !== undefined && Number(m[4]) !== 0) nums.push(String(Number(m[4])));
  return `${nums.join('.')}${m[5] ?? ''}`;
}

type Node = Record<string, unknown>;
const arr = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const text = (v: unknown) => (v === undefined || v === null ? undefined : typeof v === 'object' ? String((v as Node)['#text'] ?? '') : String(v));

function dependencies(md: Node): Record<string, NugetDependency[]> | undefined {
  const deps = md.dependencies as Node | undefined;
  if (!deps || typeof deps !== 'object') return undefined;
  const out: Record<string, NugetDependency[]> = {};
  const add = (fw: string, list: unknown) => {
    out[fw] = arr(list as Node[]).map((d) => ({ id: String(d['@_id'] ?? ''), range: String(d['@_version'] ?? '') })).filter((d) => d.id);
  };
  for (const g of arr(deps.group as Node[])) add(String(g['@_targetFramework'] ?? ''), g.dependency);
  if (deps.dependency) add('', deps.dependency);
  return out;
}

export function parseNuspec(xml: Buffer): Omit<NugetPackage, 'nuspec'> {
  const { XMLParser } = fastXmlParser();
  let doc: Node;
  try {
    doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: true }).parse(xml.toString('utf8')) as Node;
  } catch {
    throw new BadRequestError('invalid nuspec file');
  }
  const md = ((doc.package as Node | undefined)?.metadata ?? {}) as Node;
  const id = text(md.id) ?? '';
  const version = normalizeVersion(text(md.version) ?? '');
  if (!ID.test(id)) throw new BadRequestError('nuspec file contains an invalid id');
  if (!version) throw new BadRequestError('nuspec file contains an invalid version');
  const types = arr(((md.packageTypes as Node | undefined)?.packageType) as Node[]);
  return {
    id, version, symbols: types.some((t) => t['@_name'] === 'SymbolsPackage'),
    metadata: {
      description: text(md.description), release_notes: text(md.releaseNotes), authors: text(md.authors), project_url: text(md.projectUrl),
      summary: text(md.summary), title: text(md.title), tags: text(md.tags), copyright: text(md.copyright),
      require_license_acceptance: text(md.requireLicenseAcceptance) === 'true', dependencies: dependencies(md), readme: text(md.readme),
    },
  };
}

/** The .nuspec at the root of the package stored at `file`. */
export async function readNupkg(file: string): Promise<NugetPackage> {
  const found = await readZipMembers(file, (n) => !n.includes('/') && n.toLowerCase().endsWith('.nuspec'));
  const nuspec = [...found.values()][0];
  if (!nuspec) throw new BadRequestError('nuspec file is missing');
  return { ...parseNuspec(nuspec), nuspec };
}
