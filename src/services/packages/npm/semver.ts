// The little of semver the npm registry needs (Gitea parses with hashicorp/go-version's
// NewSemver): validate and normalise a version, order versions. No dependency on `semver`:
// it is only a transitive package here.

export type SemVer = { major: number; minor: number; patch: number; pre: string[]; build: string; text: string };

const SEMVER = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** A parsed version (missing minor/patch are 0, as go-version), or null when it is none. */
export function parseSemver(v: string): SemVer | null {
  const m = SEMVER.exec(v.trim());
  if (!m) return null;
  const [major, minor, patch] = [m[1], m[2] ?? '0', m[3] ?? '0'].map(Number) as [number, number, number];
  const pre = m[4] ? m[4].split('.') : [];
  const build = m[5] ?? '';
  const text = `${major}.${minor}.${patch}${pre.length ? `-${pre.join('.')}` : ''}${build ? `+${build}` : ''}`;
  return { major, minor, patch, pre, build, text };
}

function comparePre(a: string[], b: string[]): number {
  if (!a.length || !b.length) return (b.length ? 1 : 0) - (a.length ? 1 : 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]; const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x); const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Orders two parsed versions (<0, 0, >0); build metadata does not count. */
export const compareSemver = (a: SemVer, b: SemVer): number =>
  a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.pre, b.pre);

/** Orders version strings; unparsable ones sort first. */
export function compareVersions(a: string, b: string): number {
  const x = parseSemver(a); const y = parseSemver(b);
  if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
  return compareSemver(x, y);
}
