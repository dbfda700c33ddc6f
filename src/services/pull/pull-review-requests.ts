import type { DB } from '../../db/connect';
import type { Team, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { getCollaboration } from '../../models/collaboration';
import { isPullReaderByTeam } from '../../models/issue-assignee';
import { nowUnix } from '../../lib/time';
import { listProtectedBranches } from '../../models/protected-branch';
import { deleteReviewRequest, insertReview, REVIEW_TYPE, reviewRequests } from '../../models/review';
import { deleteTeamReviewRequest } from '../../models/review-team';
import { hasTeamRepo, listRepoTeams, teamMemberIds, unitsOfTeams } from '../../models/team';
import { teamsByNames, usersByNames } from '../../models/user-lookup';
import { usersByEmails } from '../../models/commit-users';
import { canWrite } from '../issue/issue-access';
import { recordEvent } from '../issue/issue-events';
import { loadPull, type LoadedPull } from './pull-views';
import { ACCESS, accessMode, ORG_TYPE } from '../permissions';
import { effectiveRule, toRule } from '../repo/protection-rules';
import { getPullReview, isOfficial, listPullReviews } from './pull-reviews';
import { reviewTeamsByIds, withReviewTeams, type TeamReviewView } from './review-teams';
import type { RepoAccess } from '../repo/repos';
import { emit } from '../events/bus';
import type { Hearth } from '../../hearth';

// POST/DELETE .../pulls/{index}/requested_reviewers: review requests are review rows of type
// REQUEST_REVIEW (as Gitea), addressed to a user (reviewer_id) or a team (reviewer_team_id).

export type ReviewRequestNames = { reviewers?: string[]; team_reviewers?: string[] };
export type ReviewRequests = { users: User[]; teams: Team[] };

const lowerSet = (names: string[]) => [...new Set(names.map((n) => n.toLowerCase()))];

/** Reviewers by name, or by e-mail address when the name holds an '@' (Gitea's apiReviewRequest). */
async function reviewersByName(db: DB, access: RepoAccess, posterId: number, names: string[], adding: boolean): Promise<User[]> {
  const wanted = lowerSet(names);
  const [byName, byEmail] = await Promise.all([
    usersByNames(db, wanted.filter((n) => !n.includes('@'))), usersByEmails(db, wanted.filter((n) => n.includes('@'))),
  ]);
  const found = (n: string) => (n.includes('@') ? byEmail.get(n) : byName.find((u) => u.lower_name === n));
  const missing = wanted.find((n) => !found(n));
  if (missing) throw new NotFoundError(`user does not exist [name: ${missing}]`);
  const users = [...new Map(wanted.map((n) => found(n)!).map((u) => [u.id, u])).values()];
  for (const u of adding ? users : []) {
    if (u.id === posterId) throw new InvalidError('poster of pr can\'t be reviewer', 'reviewers');
    if ((await accessMode(db, u, access.repo, access.owner)) < ACCESS.read) throw new InvalidError(`reviewer ${u.name} cannot read the repository`, 'reviewers');
  }
  return users;
}

/**
 * Gitea's parseReviewersByNames: teams of the repository's organization by name (404 when
 * unknown). A user's repository has no teams and Gitea ignores the names there, so does hearth.
 */
async function teamsByName(db: DB, access: RepoAccess, names: string[], adding: boolean): Promise<Team[]> {
  if (access.owner.type !== ORG_TYPE || !names.length) return [];
  const wanted = lowerSet(names);
  const teams = await teamsByNames(db, access.owner.id, wanted);
  const missing = wanted.find((n) => !teams.some((t) => t.lower_name === n));
  if (missing) throw new NotFoundError(`team does not exist [name: ${missing}]`);
  // Gitea's isValidTeamReviewRequest: only a private repository must be listed on the team.
  for (const t of adding && access.repo.is_private ? teams : []) {
    if (!t.includes_all_repositories && !(await hasTeamRepo(db, t.id, access.repo.id))) {
      throw new InvalidError(`reviewing team ${t.name} can't read the repository`, 'team_reviewers');
    }
  }
  return wanted.map((n) => teams.find((t) => t.lower_name === n)!);
}

/** Resolves and checks every name before anything is written (creating a pull uses it too). */
export async function resolveReviewRequests(db: DB, access: RepoAccess, posterId: number, names: ReviewRequestNames, adding = true): Promise<ReviewRequests> {
  return {
    users: await reviewersByName(db, access, posterId, names.reviewers ?? [], adding),
    teams: await teamsByName(db, access, names.team_reviewers ?? [], adding),
  };
}

/** Gitea's IsOfficialReviewerTeam: whitelisted on the base's rule, else a team writing code there. */
async function isOfficialTeam(db: DB, access: RepoAccess, baseBranch: string, team: Team): Promise<boolean> {
  const rule = effectiveRule((await listProtectedBranches(db, access.repo.id)).map(toRule), baseBranch);
  if (!rule) return false;
  if (rule.s.enable_approvals_whitelist) return rule.s.approvals_whitelist_team_ids.includes(team.id);
  if (team.authorize >= ACCESS.admin) return true;
  const code = (await unitsOfTeams(db, [team.id])).find((u) => u.type === 'repo.code');
  return (code?.access_mode ?? 0) >= ACCESS.write;
}

/** Gitea's review_request timeline event: the user in assignee_id, a team in meta; `removed` on cancel. */
const requestEvent = (db: DB, issueId: number, doerId: number, now: number, who: { userId?: number; teamId?: number }, removed: boolean) =>
  recordEvent(db, { id: issueId }, doerId, COMMENT_TYPE.reviewRequest, now, {
    assignee_id: who.userId ?? 0, removed_assignee: removed ? 1 : 0, meta: who.teamId ? JSON.stringify({ team_id: who.teamId }) : '{}',
  });

/** Inserts the requests not yet open (users first, then teams, as Gitea), each with its timeline event; the new ones. */
export async function addReviewRequests(db: DB, access: RepoAccess, loaded: LoadedPull, doer: User, wanted: ReviewRequests): Promise<TeamReviewView[]> {
  const open = await reviewRequests(db, [loaded.issue.id]);
  const base = { type: REVIEW_TYPE.request, issue_id: loaded.issue.id, commit_id: loaded.pr.head_commit_id };
  const teams = await reviewTeamsByIds(db, wanted.teams.map((t) => t.id));
  const officialOf = new Map<number, number>();
  for (const t of wanted.teams) officialOf.set(t.id, (await isOfficialTeam(db, access, loaded.pr.base_branch, t)) ? 1 : 0);
  const officialUsers = new Set<number>();
  for (const u of wanted.users) if (await isOfficial(db, access, loaded.pr.base_branch, u)) officialUsers.add(u.id);
  const now = nowUnix();
  const out = await db.transaction().execute(async (trx) => {
    const made: TeamReviewView[] = [];
    for (const u of wanted.users) {
      if (open.some((r) => r.reviewer_id === u.id)) continue;
      const official = officialUsers.has(u.id) ? 1 : 0;
      const review = await insertReview(trx, { ...base, reviewer_id: u.id, official, created_unix: now, updated_unix: now });
      await requestEvent(trx, loaded.issue.id, doer.id, now, { userId: u.id }, false);
      made.push({ review, reviewer: u, comments: [], loaded });
    }
    for (const t of wanted.teams) {
      if (open.some((r) => r.reviewer_team_id === t.id)) continue;
      const review = await insertReview(trx, { ...base, reviewer_id: 0, reviewer_team_id: t.id, official: officialOf.get(t.id) ?? 0, created_unix: now, updated_unix: now });
      await requestEvent(trx, loaded.issue.id, doer.id, now, { teamId: t.id }, false);
      made.push({ review, reviewer: undefined, comments: [], loaded, team: teams.get(t.id) });
    }
    return made;
  });
  const receivers = new Set(out.flatMap((v) => (v.reviewer ? [v.reviewer.id] : [])));
  // Gitea's teamReviewRequestNotify: every member of a requested team but the pull's poster.
  for (const v of out) {
    if (!v.team) continue;
    for (const id of await teamMemberIds(db, v.review.reviewer_team_id)) if (id !== loaded.issue.poster_id) receivers.add(id);
  }
  const reviewers = out.flatMap((v) => (v.reviewer ? [v.reviewer] : []));
  if (out.length) await emit(db, 'pull.review_requested', { repo: access.repo, doer, issue: loaded.issue, reviewers, removed: false, notify: [...receivers] });
  return out;
}

/**
 * Gitea's CanDoerChangeReviewRequests: the pull's poster, the owner, writers, collaborators, and
 * members of the organization's teams that read pull requests.
 */
export async function mayChangeRequests(db: DB, access: RepoAccess, loaded: LoadedPull, doer: User): Promise<boolean> {
  if (doer.id === loaded.issue.poster_id || doer.id === access.owner.id || canWrite(loaded.ctx, true)) return true;
  if (await getCollaboration(db, access.repo.id, doer.id)) return true;
  return access.owner.type === ORG_TYPE && isPullReaderByTeam(db, access.repo.id, access.owner.id, doer.id);
}

/** Teams that may be asked for a review: the organization's teams listing the repository (none for a user's). */
export async function teamReviewerCandidates(db: DB, access: RepoAccess): Promise<Team[]> {
  return access.owner.type === ORG_TYPE ? listRepoTeams(db, access.owner.id, access.repo.id) : [];
}

/** Gitea answers a reviewer the doer may not choose 422 (its ErrNotValidReviewRequest); an empty list passes. */
const notValid = (reason: string) => new InvalidError(`${reason}`, 'reviewers');

export async function requestReviews(h: Hearth, access: RepoAccess, doer: User, index: number, names: ReviewRequestNames): Promise<TeamReviewView[]> {
  const loaded = await loadPull(h, access, doer, index, false);
  const wanted = await resolveReviewRequests(h.db, access, loaded.issue.poster_id, names);
  if ((wanted.users.length || wanted.teams.length) && !(await mayChangeRequests(h.db, access, loaded, doer))) throw notValid('Doer can\'t choose reviewer');
  return addReviewRequests(h.db, access, loaded, doer, wanted);
}

/**
 * Cancelling a request that is not open is a no-op (204), as Gitea. Those who may not change
 * requests may still withdraw their own (Gitea's isValidReviewRequest).
 */
export async function cancelReviewRequests(h: Hearth, access: RepoAccess, doer: User, index: number, names: ReviewRequestNames): Promise<void> {
  const loaded = await loadPull(h, access, doer, index, false);
  const { users, teams } = await resolveReviewRequests(h.db, access, loaded.issue.poster_id, names, false);
  const open = await reviewRequests(h.db, [loaded.issue.id]);
  if (!(await mayChangeRequests(h.db, access, loaded, doer))) {
    const own = (u: User) => u.id === doer.id && open.some((r) => r.reviewer_id === u.id);
    if (teams.length || !users.every(own)) throw notValid('Doer can\'t remove reviewer');
  }
  const now = nowUnix();
  await h.db.transaction().execute(async (trx) => {
    for (const u of users.filter((x) => open.some((r) => r.reviewer_id === x.id))) {
      await deleteReviewRequest(trx, loaded.issue.id, u.id);
      await requestEvent(trx, loaded.issue.id, doer.id, now, { userId: u.id }, true);
    }
    for (const t of teams.filter((x) => open.some((r) => r.reviewer_team_id === x.id))) {
      await deleteTeamReviewRequest(trx, loaded.issue.id, t.id);
      await requestEvent(trx, loaded.issue.id, doer.id, now, { teamId: t.id }, true);
    }
  });
}

/** GET .../pulls/{index}/reviews with team requests carrying their team. */
export async function listPullReviewsWithTeams(h: Hearth, access: RepoAccess, doer: User | null, index: number, page: { offset: number; limit: number }) {
  const { views, total } = await listPullReviews(h, access, doer, index, page);
  return { views: await withReviewTeams(h.db, views), total };
}

/** GET .../pulls/{index}/reviews/{id}: a team request whose team is gone is 404. */
export async function getPullReviewWithTeam(h: Hearth, access: RepoAccess, doer: User | null, index: number, id: number): Promise<TeamReviewView> {
  const [view] = await withReviewTeams(h.db, [await getPullReview(h, access, doer, index, id)]);
  if (!view) throw new NotFoundError(`review does not exist [id: ${id}]`);
  return view;
}
