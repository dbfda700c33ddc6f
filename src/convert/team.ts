import type { Config } from '../config/schema';
import type { Team, TeamUnit, User } from '../db/schema';
import { ACCESS, accessName, UNITS } from '../services/permissions';
import { toApiOrg, type ApiOrg } from './org';

export type ApiTeam = {
  id: number; name: string; description: string; organization: ApiOrg; includes_all_repositories: boolean;
  permission: ReturnType<typeof accessName>; units: string[]; units_map: Record<string, string>; can_create_org_repo: boolean;
};

/**
 * Gitea's ToTeam. Admin and owner teams show every unit at the team's mode; other teams their
 * unit rows. The organization is always sent: Gitea leaves it null in some lists, which the
 * reference does not allow.
 */
export function toApiTeam(config: Config, team: Team, units: TeamUnit[], org: User): ApiTeam {
  const own = units.filter((u) => u.team_id === team.id);
  const all = team.authorize >= ACCESS.admin;
  const unitsMap: Record<string, string> = {};
  if (all) for (const u of UNITS) unitsMap[u] = accessName(team.authorize);
  else for (const u of own) unitsMap[u.type] = accessName(u.access_mode);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: toApiOrg(config, org),
    includes_all_repositories: team.includes_all_repositories === 1,
    // Gitea's teams below admin are unit-based: their level is `none`, the units say the rest.
    permission: all ? accessName(team.authorize) : 'none',
    units: all ? [...UNITS] : own.map((u) => u.type),
    units_map: unitsMap,
    can_create_org_repo: team.can_create_org_repo === 1,
  };
}

/** Teams of possibly several organizations, with their units loaded once. */
export function toApiTeams(config: Config, teams: Team[], units: TeamUnit[], orgs: Map<number, User>): ApiTeam[] {
  return teams.map((t) => toApiTeam(config, t, units, orgs.get(t.org_id)!));
}
