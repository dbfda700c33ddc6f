// `on.schedule[].cron`: five fields (minute hour day-of-month month day-of-week) with `*`, lists,
// ranges, steps and month/day names, or a descriptor (@hourly, @daily...), in UTC as on GitHub.
// As robfig/cron (Gitea's parser): when both day fields are restricted, either may match.

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

type Field = { min: number; max: number; names?: string[]; offset?: number };
const FIELDS: Field[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, offset: 1 }, { min: 0, max: 7, names: DAYS, offset: 0 },
];

export type CronSpec = { sets: Set<number>[]; domStar: boolean; dowStar: boolean };

function value(s: string, f: Field): number {
  const i = f.names?.indexOf(s.toLowerCase()) ?? -1;
  const n = i >= 0 ? i + (f.offset ?? 0) : /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n < f.min || n > f.max) throw new Error(`invalid cron value "${s}"`);
  return n;
}

function parseField(text: string, f: Field): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`invalid cron step "${part}"`);
    let lo: number; let hi: number;
    if (range === '*' || range === '?') { lo = f.min; hi = f.max; } else if (range.includes('-')) {
      const [a, b] = range.split('-') as [string, string];
      lo = value(a, f); hi = value(b, f);
    } else { lo = value(range, f); hi = stepText === undefined ? lo : f.max; }
    if (lo > hi) throw new Error(`invalid cron range "${part}"`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses a spec; throws with a message on a malformed one. */
export function parseCron(spec: string): CronSpec {
  const s = spec.trim();
  const fields = (DESCRIPTORS[s.toLowerCase()] ?? s).split(/\s+/);
  if (fields.length !== 5) throw new Error(`invalid cron spec "${spec}": expected 5 fields`);
  const sets = fields.map((t, i) => parseField(t, FIELDS[i]!));
  if (sets[4]!.has(7)) sets[4]!.add(0);
  return { sets, domStar: fields[2] === '*' || fields[2] === '?', dowStar: fields[4] === '*' || fields[4] === '?' };
}

function dayMatches(c: CronSpec, d: Date): boolean {
  const dom = c.sets[2]!.has(d.getUTCDate());
  const dow = c.sets[4]!.has(d.getUTCDay());
  if (c.domStar || c.dowStar) return dom && dow;
  return dom || dow;
}

/** The first time strictly after `afterUnix` (seconds) the spec fires, in unix seconds. */
export function nextCron(c: CronSpec, afterUnix: number): number {
  const d = new Date((Math.floor(afterUnix / 60) + 1) * 60_000);
  const limit = afterUnix + 5 * 366 * 86400;
  while (d.getTime() / 1000 <= limit) {
    if (!c.sets[3]!.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1); d.setUTCHours(0, 0, 0, 0); continue;
    }
    if (!dayMatches(c, d)) { d.setUTCDate(d.getUTCDate() + 1); d.setUTCHours(0, 0, 0, 0); continue; }
    if (!c.sets[1]!.has(d.getUTCHours())) { d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0); continue; }
    if (!c.sets[0]!.has(d.getUTCMinutes())) { d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0); continue; }
    return d.getTime() / 1000;
  }
  throw new Error('the cron spec never fires');
}
