import { compareVersions, ECOSYSTEMS, type Ecosystem } from './versions';

// OSV (https://ossf.github.io/osv-schema/): an entry names affected packages, each with ranges
// (SEMVER or ECOSYSTEM: ordered events introduced / fixed / last_affected) and explicit versions.

type Event = { introduced?: string; fixed?: string; last_affected?: string; limit?: string };
type Range = { type: string; events: Event[] };
export type Affected = { ranges: Range[]; versions: string[] };

export type ParsedAdvisory = {
  osvId: string; summary: string; severity: string; ecosystem: Ecosystem; package: string;
  affected: Affected; publishedUnix: number; modifiedUnix: number;
};

type OsvEntry = {
  id?: unknown; summary?: unknown; details?: unknown; published?: unknown; modified?: unknown; withdrawn?: unknown;
  severity?: { type?: string; score?: string }[];
  database_specific?: { severity?: unknown };
  affected?: { package?: { ecosystem?: string; name?: string }; ranges?: Range[]; versions?: string[]; database_specific?: { severity?: unknown } }[];
};

const unix = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? Math.floor(Date.parse(v) / 1000) : 0);

/** GitHub's advisories carry a word (LOW ... CRITICAL); others a CVSS vector, kept as is. */
function severityOf(e: OsvEntry): string {
  const word = e.database_specific?.severity ?? e.affected?.find((a) => a.database_specific?.severity)?.database_specific?.severity;
  if (typeof word === 'string' && word) return word.toUpperCase();
  return e.severity?.[0]?.score ?? '';
}

/** Go's module names and PyPI's are compared normalized, as those ecosystems do. */
export function normalizePackage(ecosystem: Ecosystem, name: string): string {
  if (ecosystem === 'PyPI') return name.toLowerCase().replace(/[-_.]+/g, '-');
  return name;
}

/** One row per affected package of a supported ecosystem; withdrawn entries give none. */
export function parseOsv(text: string): ParsedAdvisory[] {
  const e = JSON.parse(text) as OsvEntry;
  if (typeof e.id !== 'string' || !e.id || e.withdrawn) return [];
  const out: ParsedAdvisory[] = [];
  for (const a of e.affected ?? []) {
    const ecosystem = ECOSYSTEMS.find((x) => x === a.package?.ecosystem);
    if (!ecosystem || !a.package?.name) continue;
    out.push({
      osvId: e.id, summary: typeof e.summary === 'string' ? e.summary : String(e.details ?? '').slice(0, 200),
      severity: severityOf(e), ecosystem, package: normalizePackage(ecosystem, a.package.name),
      affected: {
        ranges: (a.ranges ?? []).filter((r) => r.type === 'SEMVER' || r.type === 'ECOSYSTEM'),
        versions: a.versions ?? [],
      },
      publishedUnix: unix(e.published), modifiedUnix: unix(e.modified),
    });
  }
  return out;
}

/**
 * OSV's evaluation of one range: events sorted by version ("0" first); the version is affected
 * from an `introduced` up to (not including) the next `fixed`, or up to and including a
 * `last_affected`.
 */
function inRange(ecosystem: Ecosystem, version: string, range: Range): boolean {
  const cmp = (a: string, b: string) => (a === '0' ? (b === '0' ? 0 : -1) : b === '0' ? 1 : compareVersions(ecosystem, a, b));
  const at = (e: Event) => e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? '0';
  const events = [...range.events].sort((x, y) => cmp(at(x), at(y)) ?? 0);
  let affected = false;
  for (const ev of events) {
    const c = cmp(version, at(ev));
    if (c === null) return false;
    if (ev.introduced !== undefined && c >= 0) affected = true;
    else if (ev.fixed !== undefined && c >= 0) affected = false;
    else if (ev.last_affected !== undefined && c > 0) affected = false;
    else if (ev.limit !== undefined && c >= 0) affected = false;
  }
  return affected;
}

export function isAffected(ecosystem: Ecosystem, version: string, affected: Affected): boolean {
  if (affected.versions.includes(version) || affected.versions.includes(version.replace(/^v/, ''))) return true;
  return affected.ranges.some((r) => inRange(ecosystem, version, r));
}
