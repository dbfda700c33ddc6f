// Gitea's [cron.*] durations are Go's (time.ParseDuration): "72h", "1h30m", "1.5s", "0".
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration in milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (t === '0') return 0;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  for (let m = part.exec(t); m; m = part.exec(t)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    at = part.lastIndex;
  }
  if (!t || at !== t.length) throw new Error(`invalid duration "${text}"`);
  return total;
}
