import type { DB } from '../db/connect';
import { REVIEW_TYPE } from './review';

// Review requests addressed to teams: review rows of type REQUEST_REVIEW with reviewer_id 0 and
// reviewer_team_id set (Gitea's ReviewerTeamID).

export async function deleteTeamReviewRequest(db: DB, issueId: number, teamId: number): Promise<void> {
  await db.deleteFrom('review').where('issue_id', '=', issueId).where('reviewer_team_id', '=', teamId)
    .where('type', '=', REVIEW_TYPE.request).execute();
}

/** A deleted team's pending requests go with it (Gitea's DeleteTeam does the same). */
export async function deleteReviewRequestsOfTeam(db: DB, teamId: number): Promise<void> {
  await db.deleteFrom('review').where('reviewer_team_id', '=', teamId).where('type', '=', REVIEW_TYPE.request).execute();
}
