// RFC 3339 times as Gitea's JSON and query decoders read them, to unix seconds.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?$/;

type Parts = { y: number; mo: number; d: number; h: number; mi: number; s: number; offsetMin: number };

function parts(value: string): Parts | null {
  const m = RFC3339.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const zone = m[7];
  const offsetMin = !zone || /z/i.test(zone) ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  // The calendar must agree: 2024-02-30 is refused, not rolled over.
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 60) return null;
  return { y, mo, d, h, mi, s, offsetMin };
}

/** Unix seconds of an RFC 3339 time (a bare date is its UTC midnight); null when unreadable. */
export function parseRfc3339(value: string): number | null {
  const p = parts(value);
  if (!p) return null;
  return Math.floor(Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) / 1000) - p.offsetMin * 60;
}

/**
 * Gitea's ParseAPIDeadlineToEndOfDay: the date as written (its own offset), at 23:59:59 of
 * the server's zone (UTC: hearth renders every time in UTC). The zero time and the epoch mean
 * "no deadline" (0). Null when unreadable.
 */
export function deadlineEndOfDay(value: string): number | null {
  const p = parts(value);
  if (!p) return null;
  if (p.y === 1 && p.mo === 1 && p.d === 1) return 0;
  const unix = Math.floor(Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) / 1000) - p.offsetMin * 60;
  if (unix === 0) return 0;
  return Math.floor(Date.UTC(p.y, p.mo - 1, p.d, 23, 59, 59) / 1000);
}
