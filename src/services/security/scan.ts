import type { DB } from '../../db/connect';
import { lockRow } from '../../db/dialect';
import type { DependencyAlert, Repository } from '../../db/schema';
import { blobsBytes } from '../../git/blob';
import { gitRun } from '../../git/exec';
import { repoDir } from '../../git/repo';
import { nowUnix } from '../../lib/time';
import { advisoriesFor } from '../../models/advisory';
import { alertsOfRepo, insertAlert, setAlertState } from '../../models/dependency-alert';
import { isAffected, type Affected } from './osv';
import { MANIFEST_NAMES, parseManifest, type Dependency } from './manifests';
import { notifyNewAlerts } from './notify';
import type { Ecosystem } from './versions';
import type { Hearth } from '../../hearth';

// Dependency alerts of a repository: the manifests at the tip of its default branch matched
// against the imported advisories. A match without an alert opens one; an open alert whose
// match is gone is fixed; a dismissed one stays dismissed (and is not opened again).

const MAX_MANIFESTS = 50;
const MAX_MANIFEST_BYTES = 20 * 1024 * 1024;
// Vendored trees name other projects' dependencies, not this one's.
const SKIPPED = /(^|\/)(node_modules|vendor|third_party)\//;

type Found = Dependency & { manifest: string };
type Match = Found & { advisoryId: number };

/** The manifests at `ref` and their dependencies. */
async function dependenciesAt(dir: string, ref: string): Promise<Found[]> {
  const ls = await gitRun(['ls-tree', '-r', '-z', '--long', ref], { gitDir: dir });
  if (ls.code !== 0) return [];
  const files: { path: string; sha: string }[] = [];
  for (const entry of ls.stdout.toString('utf8').split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\s+(\d+)\t(.+)$/.exec(entry);
    if (!m || Number(m[2]) > MAX_MANIFEST_BYTES || SKIPPED.test(m[3]!)) continue;
    if (MANIFEST_NAMES.has(m[3]!.slice(m[3]!.lastIndexOf('/') + 1))) files.push({ path: m[3]!, sha: m[1]! });
    if (files.length >= MAX_MANIFESTS) break;
  }
  const blobs = await blobsBytes(dir, files.map((f) => f.sha));
  return files.flatMap((f) => parseManifest(f.path, blobs.get(f.sha)?.toString('utf8') ?? '').map((d) => ({ ...d, manifest: f.path })));
}

/** Which dependencies an advisory affects. */
async function matchesOf(db: DB, deps: Found[]): Promise<Match[]> {
  const out: Match[] = [];
  const byEcosystem = new Map<Ecosystem, Found[]>();
  for (const d of deps) byEcosystem.set(d.ecosystem, [...(byEcosystem.get(d.ecosystem) ?? []), d]);
  for (const [ecosystem, list] of byEcosystem) {
    const advisories = await advisoriesFor(db, ecosystem, [...new Set(list.map((d) => d.package))]);
    for (const a of advisories) {
      const affected = JSON.parse(a.affected) as Affected;
      for (const d of list) {
        if (d.package === a.package && isAffected(ecosystem, d.version, affected)) out.push({ ...d, advisoryId: a.id });
      }
    }
  }
  return out;
}

const keyOf = (x: { advisory_id?: number; advisoryId?: number; package: string; version: string; manifest_path?: string; manifest?: string }) =>
  `${x.advisory_id ?? x.advisoryId}\0${x.package}\0${x.version}\0${x.manifest_path ?? x.manifest}`;

/** Opens and fixes the repository's alerts; answers the alerts opened. */
export async function scanRepository(h: Hearth, repo: Repository): Promise<DependencyAlert[]> {
  const dir = repoDir(h.config.repository.root, repo.owner_name, repo.name);
  const deps = repo.is_empty ? [] : await dependenciesAt(dir, `refs/heads/${repo.default_branch}`);
  const matches = deps.length ? await matchesOf(h.db, deps) : [];
  const opened = await h.db.transaction().execute(async (trx) => {
    // A push's scan and an import's may run at once: the repository's row first, so the second
    // sees the alerts the first opened (on PostgreSQL both read none and opened each its own).
    await lockRow(trx, 'repository', repo.id);
    const existing = new Map((await alertsOfRepo(trx, repo.id)).map((a) => [keyOf(a), a]));
    const now = nowUnix();
    const created: DependencyAlert[] = [];
    const current = new Set<string>();
    for (const m of matches) {
      const key = keyOf(m);
      if (current.has(key)) continue;
      current.add(key);
      const old = existing.get(key);
      if (old?.state === 'fixed') await setAlertState(trx, old.id, { state: 'open', fixed_unix: 0 }, now);
      if (old) continue;
      created.push(await insertAlert(trx, repo.id, {
        advisory_id: m.advisoryId, ecosystem: m.ecosystem, package: m.package, version: m.version, manifest_path: m.manifest,
      }, now));
    }
    for (const [key, a] of existing) {
      if (a.state === 'open' && !current.has(key)) await setAlertState(trx, a.id, { state: 'fixed', fixed_unix: now }, now);
    }
    return created;
  });
  if (opened.length) await notifyNewAlerts(h.db, repo);
  return opened;
}
