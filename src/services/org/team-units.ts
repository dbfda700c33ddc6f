import { InvalidError } from '../../lib/errors';
import { ACCESS, UNITS, type Unit } from '../permissions';

// How a team's level and unit modes follow from CreateTeamOption/EditTeamOption, as Gitea's
// API does it: an admin team has every unit at admin; otherwise `units_map` (when given) sets
// each unit and the team's level becomes the lowest granted unit mode, else `units` lists the
// units granted at the team's level. External trackers and wikis can only be read.

export type LevelName = 'read' | 'write' | 'admin';
export const MODE_NAMES = ['none', 'read', 'write', 'admin', 'owner'] as const;
type ModeName = (typeof MODE_NAMES)[number];

const READ_ONLY_UNITS: readonly string[] = ['repo.ext_issues', 'repo.ext_wiki'];
export const readOnlyUnits = (): string[] => [...READ_ONLY_UNITS];

const cap = (unit: string, mode: number) => (READ_ONLY_UNITS.includes(unit) ? Math.min(mode, ACCESS.read) : mode);

function assertUnit(key: string, field: string): asserts key is Unit {
  if (!(UNITS as readonly string[]).includes(key)) throw new InvalidError(`[${field}]: unknown unit ${key}`, field);
}

function parseUnitsMap(map: Record<string, string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(map)) {
    assertUnit(key, 'units_map');
    if (!(MODE_NAMES as readonly string[]).includes(value)) {
      throw new InvalidError(`[units_map]: invalid access mode ${value} for ${key}`, 'units_map');
    }
    out[key] = cap(key, MODE_NAMES.indexOf(value as ModeName));
  }
  return out;
}

/** Gitea's MinUnitAccessMode: the lowest mode above none, external units aside. */
function minUnitMode(units: Record<string, number>): number {
  let min = 0;
  for (const [key, mode] of Object.entries(units)) {
    if (READ_ONLY_UNITS.includes(key)) continue;
    if (mode > 0 && (min === 0 || mode < min)) min = mode;
  }
  return min;
}

export type UnitsInput = { permission?: LevelName; units?: string[]; units_map?: Record<string, string> };
export type ResolvedUnits = { level: number; units: Record<string, number> | null };

/** Every unit at admin (external ones at read): what an admin team holds. */
export function adminUnits(): Record<string, number> {
  return Object.fromEntries(UNITS.map((u) => [u, cap(u, ACCESS.admin)]));
}

/**
 * The team level and unit rows an option asks for. `units` is null when the option names no
 * units (an edit then keeps the team's). `current` is the team's level; as Gitea, a creation
 * always takes its level from `units_map`, an edit only along with a new `permission`.
 */
export function resolveUnits(input: UnitsInput, current: number, creating: boolean): ResolvedUnits {
  const map = input.units_map && Object.keys(input.units_map).length ? parseUnitsMap(input.units_map) : null;
  let level = input.permission ? ACCESS[input.permission] : current;
  if ((creating || input.permission) && level < ACCESS.admin && map) level = minUnitMode(map);
  if (level >= ACCESS.admin) return { level, units: adminUnits() };
  if (map) return { level, units: map };
  if (input.units?.length) {
    const units: Record<string, number> = {};
    for (const key of input.units) {
      assertUnit(key, 'units');
      units[key] = cap(key, level);
    }
    return { level, units };
  }
  return { level, units: null };
}
