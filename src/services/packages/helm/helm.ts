import type { Config } from '../../../config/schema';
import type { DB } from '../../../db/connect';
import type { User } from '../../../db/schema';
import { BadRequestError, NotFoundError } from '../../../lib/errors';
import { yaml } from '../../../lib/lazy-require';
import { tarFileEntries } from '../archive/tar';
import type { StoredBlob } from '../blob-store';
import { parseSemver } from '../npm/semver';
import { createPackageAndAddFile } from '../packages';
import { getFileOfVersion, getFilesOfVersion, searchPackages } from '../queries';
import { readStoredBlob, withStoredBlob } from '../stored-upload';
import type { Hearth } from '../../../hearth';

// Gitea's Helm registry (routers/api/packages/helm, modules/packages/helm): chart archives
// (a .tgz whose {chart}/Chart.yaml says name and version) uploaded, and index.yaml built from
// the rows when read. A chart pushed again replaces the version's archive, as Gitea does.

export const HELM = 'helm';
/** The Chart.yaml fields the index repeats (helm's own names). */
const FIELDS = ['name', 'home', 'sources', 'version', 'description', 'keywords', 'maintainers', 'icon', 'apiVersion', 'condition',
  'tags', 'appVersion', 'deprecated', 'annotations', 'kubeVersion', 'dependencies', 'type'] as const;
export type ChartMetadata = Record<string, unknown> & { name: string; version: string };
const NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

/** Chart.yaml of a stored chart archive: 400 without one, or with a bad name or version. */
export async function parseChartArchive(file: string): Promise<ChartMetadata> {
  const [chart] = await tarFileEntries(file, { gzip: true, want: (n) => (/^[^/]+\/Chart\.yaml$/.test(n) ? 1 << 20 : null), done: (k) => k.length > 0 });
  if (!chart) throw new BadRequestError('Chart.yaml file is missing');
  let doc: Record<string, unknown>;
  try { doc = (yaml().parse(chart.data.toString('utf8'), { maxAliasCount: 100 }) ?? {}) as Record<string, unknown>; } catch { throw new BadRequestError('Chart.yaml is not valid YAML'); }
  const name = typeof doc.name === 'string' ? doc.name : '';
  const version = typeof doc.version === 'string' ? doc.version : typeof doc.version === 'number' ? String(doc.version) : '';
  if (!NAME.test(name)) throw new BadRequestError('chart name is invalid');
  if (!parseSemver(version)) throw new BadRequestError('chart version is invalid');
  if (typeof doc.apiVersion !== 'string' || !doc.apiVersion) throw new BadRequestError('chart apiVersion is missing');
  const meta: ChartMetadata = { name, version };
  for (const k of FIELDS) if (doc[k] !== undefined && doc[k] !== null && k !== 'name' && k !== 'version') meta[k] = doc[k];
  return meta;
}

export const chartFilename = (m: { name: string; version: string }) => `${m.name}-${m.version}.tgz`.toLowerCase();

/** Stores an uploaded chart (replacing the version's archive when pushed again). */
export async function uploadChart(h: Hearth, i: { owner: User; doer: User; blob: StoredBlob }): Promise<ChartMetadata> {
  return withStoredBlob(h, i.blob, async () => {
    const meta = await readStoredBlob(h, i.blob, parseChartArchive);
    await createPackageAndAddFile(h, {
      owner: i.owner, creator: i.doer, type: HELM, name: meta.name, version: meta.version, semverCompatible: true,
      versionMetadata: meta, file: { name: chartFilename(meta), isLead: true }, blob: i.blob, overwrite: true,
    });
    return meta;
  });
}

/** A version's stored Chart.yaml fields; null for an unreadable row (left out of the index). */
function chartMetadataOf(json: string): ChartMetadata | null {
  try { const m = JSON.parse(json) as ChartMetadata; return m && typeof m.name === 'string' ? m : null; } catch { return null; }
}

export const helmRegistryUrl = (config: Config, owner: User) => `${config.server.root_url}api/packages/${encodeURIComponent(owner.name)}/helm`;

/** index.yaml: every chart version with its download URL and digest. */
export async function helmIndex(h: Hearth, owner: User): Promise<string> {
  const { rows } = await searchPackages(h.db, { ownerId: owner.id, type: HELM, offset: 0, limit: 1_000_000 });
  const entries: Record<string, Record<string, unknown>[]> = {};
  for (const r of rows) {
    const meta = chartMetadataOf(r.metadata_json);
    if (!meta) continue;
    const [lead] = await getFilesOfVersion(h.db, r);
    (entries[meta.name] ??= []).push({
      ...meta, urls: [`${helmRegistryUrl(h.config, owner)}/${encodeURIComponent(chartFilename(meta))}`],
      created: new Date(r.created_unix * 1000).toISOString(), ...(lead ? { digest: lead.blob.hash_sha256 } : {}),
    });
  }
  const root = new URL(h.config.server.root_url).pathname.replace(/\/$/, '');
  return yaml().stringify({
    apiVersion: 'v1', entries, generated: new Date().toISOString(),
    serverInfo: { contextPath: `${root}/api/packages/${encodeURIComponent(owner.name)}/helm` },
  });
}

/** A chart archive by its file name. */
export async function chartFile(db: DB, owner: User, filename: string) {
  const { rows } = await searchPackages(db, { ownerId: owner.id, type: HELM, offset: 0, limit: 1_000_000 });
  for (const r of rows) {
    const m = chartMetadataOf(r.metadata_json);
    if (m && chartFilename(m) === filename.toLowerCase()) return { version: r, ...(await getFileOfVersion(db, r, filename)) };
  }
  throw new NotFoundError('package does not exist');
}
