// Version comparison good enough for advisories' ranges: SemVer (npm, Go with its "v", crates.io)
// and a PEP 440 subset (PyPI: epochs, release segments, a/b/rc, post, dev). A version that does
// not parse compares as text, so it never matches a range by accident of parsing.

export type Ecosystem = 'npm' | 'PyPI' | 'Go' | 'crates.io';
export const ECOSYSTEMS: readonly Ecosystem[] = ['npm', 'PyPI', 'Go', 'crates.io'];

type Key = (number | string)[];

/** SemVer 2: release numbers, then a prerelease sorts before the release; build metadata ignored. */
function semverKey(v: string): Key | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
  if (!m) return null;
  const key: Key = [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  // A release outranks its prereleases: 1 after 0 in this slot; prerelease parts follow.
  if (!m[4]) return [...key, 1];
  return [...key, 0, ...m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
}

const PRE: Record<string, number> = { a: 1, alpha: 1, b: 2, beta: 2, c: 3, rc: 3, pre: 3, preview: 3 };

/** PEP 440: [N!]N(.N)*[{a|b|rc}N][.postN][.devN], normalized loosely. */
function pep440Key(v: string): Key | null {
  const m = /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:[-_.]?(?:post|rev|r)[-_.]?(\d*))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+[a-z0-9.]+)?$/i
    .exec(v.trim());
  if (!m) return null;
  const release = m[2]!.split('.').map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  // Padded so releases of different lengths compare segment by segment.
  while (release.length < 6) release.push(0);
  const pre = m[3] ? [PRE[m[3].toLowerCase()]!, Number(m[4] || 0)] : [m[6] !== undefined && !m[5] ? 0 : 9, 0];
  const post = m[5] !== undefined ? Number(m[5] || 0) : -1;
  const dev = m[6] !== undefined ? Number(m[6] || 0) : Number.MAX_SAFE_INTEGER;
  return [Number(m[1] ?? 0), ...release, ...pre, post, dev];
}

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    // SemVer: numeric identifiers sort before alphanumeric ones.
    if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

const keyOf = (ecosystem: Ecosystem, v: string): Key | null => (ecosystem === 'PyPI' ? pep440Key(v) : semverKey(v));

/** <0, 0, >0 as `a` is before, equal to or after `b`; null when either does not parse. */
export function compareVersions(ecosystem: Ecosystem, a: string, b: string): number | null {
  const ka = keyOf(ecosystem, a);
  const kb = keyOf(ecosystem, b);
  if (!ka || !kb) return null;
  return compareKeys(ka, kb);
}
