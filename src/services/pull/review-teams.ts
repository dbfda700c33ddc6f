import type { DB } from '../../db/connect';
import type { Review, Team, TeamUnit, User } from '../../db/schema';
import { unitsOfTeams } from '../../models/team';
import { teamsByIds, usersByIds } from '../../models/user-lookup';
import type { ReviewView } from './pull-reviews';

// Teams asked for a review, with what the Team JSON needs (unit rows, the organization).
// A request whose team is gone is skipped rather than rendered half empty.

export type ReviewTeam = { team: Team; units: TeamUnit[]; org: User };

/** A review with its team when it is a team request. */
export type TeamReviewView = ReviewView & { team?: ReviewTeam };

export async function reviewTeamsByIds(db: DB, ids: number[]): Promise<Map<number, ReviewTeam>> {
  const teams = await teamsByIds(db, [...new Set(ids.filter((id) => id > 0))]);
  const units = await unitsOfTeams(db, teams.map((t) => t.id));
  const orgs = new Map((await usersByIds(db, [...new Set(teams.map((t) => t.org_id))])).map((o) => [o.id, o]));
  const out = new Map<number, ReviewTeam>();
  for (const team of teams) {
    const org = orgs.get(team.org_id);
    if (org) out.set(team.id, { team, units: units.filter((u) => u.team_id === team.id), org });
  }
  return out;
}

/** The teams of the team requests among `reviews`, in their order; missing teams left out. */
export function teamsOfRequests(reviews: Review[], teams: Map<number, ReviewTeam>): ReviewTeam[] {
  return reviews.map((r) => teams.get(r.reviewer_team_id)).filter((t): t is ReviewTeam => !!t);
}

/** Attaches the team to each team request; drops team requests whose team no longer exists. */
export async function withReviewTeams(db: DB, views: ReviewView[]): Promise<TeamReviewView[]> {
  const teams = await reviewTeamsByIds(db, views.map((v) => v.review.reviewer_team_id));
  const out: TeamReviewView[] = [];
  for (const v of views) {
    if (!v.review.reviewer_team_id) out.push(v);
    else if (teams.has(v.review.reviewer_team_id)) out.push({ ...v, team: teams.get(v.review.reviewer_team_id) });
  }
  return out;
}
