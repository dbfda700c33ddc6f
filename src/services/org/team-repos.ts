import type { DB } from '../../db/connect';
import type { Repository, User } from '../../db/schema';
import { ForbiddenError, InvalidError, NotAllowedError, NotFoundError } from '../../lib/errors';
import { getRepoByOwnerAndName } from '../../models/repo';
import {
  getTeamByName, hasTeamRepo, listRepoTeams, listTeamRepos, removeTeamRepo, teamIdsOfUser, teamMemberIds,
} from '../../models/team';
import { isOrgOwner } from '../../models/org';
import { isOrgMember } from '../../models/team-access';
import { addTeamRepo } from '../../models/team-rights';
import { getUserById, getUserByName } from '../../models/user';
import { teamFeed, type Feed, type FeedOptions } from '../activity/activity';
import { ACCESS, accessMode, ORG_TYPE } from '../permissions';
import { accessOf, withAccess, type RepoAccess, type RepoWithParent } from '../repo/repos';
import { dropUnreadableWatches } from './team-leave';
import { lookupTeam, viewOf, type TeamAccess, type TeamView } from './teams';

type Page = { offset: number; limit: number };

/** Callers inside the team (its members, owners, site admins) see its private repositories too. */
const insider = (a: TeamAccess) => a.manages || a.isTeamMember;

/** GET /teams/{id}/repos: X-Total-Count counts what the caller may list. */
export async function listReposOfTeam(db: DB, id: number, viewer: User, page: Page): Promise<{ repos: RepoWithParent[]; total: number }> {
  const access = await lookupTeam(db, id, viewer);
  const { repos, total } = await listTeamRepos(db, access.team.id, !insider(access), page.offset, page.limit);
  const views = await withAccess(db, repos, viewer);
  return { repos: views.filter((v) => v.mode > ACCESS.none), total };
}

/** `{org}/{repo}` of a team path: a repository of the team's organization, else 404. */
async function teamRepoOf(db: DB, access: TeamAccess, orgName: string, repoName: string): Promise<Repository> {
  const owner = await getUserByName(db, orgName);
  const repo = owner?.id === access.org.id ? await getRepoByOwnerAndName(db, owner.id, repoName) : undefined;
  if (!repo) throw new NotFoundError('The target couldn\'t be found.');
  return repo;
}

/** GET /teams/{id}/repos/{org}/{repo}: the repository when the team lists it (and the caller may see it). */
export async function getRepoOfTeam(db: DB, id: number, viewer: User, orgName: string, repoName: string): Promise<RepoAccess> {
  const access = await lookupTeam(db, id, viewer);
  const repo = await teamRepoOf(db, access, orgName, repoName);
  const view = await accessOf(db, repo, viewer);
  if (!(await hasTeamRepo(db, access.team.id, repo.id)) || view.mode === ACCESS.none) throw new NotFoundError();
  return view;
}

/**
 * PUT/DELETE /teams/{id}/repos/{org}/{repo}: as Gitea, the caller needs admin access to the
 * repository (403). A team covering all repositories keeps every one of them (422).
 */
export async function setTeamRepo(db: DB, id: number, viewer: User, orgName: string, repoName: string, add: boolean): Promise<void> {
  const access = await lookupTeam(db, id, viewer);
  const repo = await teamRepoOf(db, access, orgName, repoName);
  if ((await accessMode(db, viewer, repo, access.org)) < ACCESS.admin) {
    throw new ForbiddenError('Must have admin-level access to the repository');
  }
  await changeTeamRepo(db, access, repo, add, false);
}

async function changeTeamRepo(db: DB, access: TeamAccess, repo: Repository, add: boolean, strict: boolean): Promise<void> {
  const { team, org } = access;
  await db.transaction().execute(async (trx) => {
    const has = await hasTeamRepo(trx, team.id, repo.id);
    if (strict && has === add) {
      throw new InvalidError(add ? `team '${team.name}' is already added to repo` : `team '${team.name}' was not added to repo`);
    }
    if (add) return addTeamRepo(trx, team, repo.id);
    if (!has) return;
    if (team.includes_all_repositories) throw new InvalidError(`team '${team.name}' includes all repositories`);
    await removeTeamRepo(trx, team, repo.id);
    for (const uid of await teamMemberIds(trx, team.id)) {
      const user = await getUserById(trx, uid);
      if (user) await dropUnreadableWatches(trx, org, user, [repo.id]);
    }
  });
}

const notOrgRepo = () => new NotAllowedError('repo is not owned by an organization');

/** The `{team}` (by name) of a repository path, as the caller may see it. */
async function namedTeamOf(db: DB, access: RepoAccess, viewer: User, name: string): Promise<TeamAccess> {
  const team = await getTeamByName(db, access.owner.id, name);
  if (!team) throw new NotFoundError(`team does not exist [org_id ${access.owner.id}, team_id 0, name ${name}]`);
  try {
    return await lookupTeam(db, team.id, viewer);
  } catch (err) {
    if (err instanceof ForbiddenError) throw new NotFoundError();
    throw err;
  }
}

/** GET /repos/{owner}/{repo}/teams: the teams listing the repository that the caller may list; 405 for users' repositories. */
export async function listTeamsOfRepo(db: DB, access: RepoAccess, viewer: User): Promise<TeamView> {
  if (access.owner.type !== ORG_TYPE) throw notOrgRepo();
  const teams = await listRepoTeams(db, access.owner.id, access.repo.id);
  const isMember = await isOrgMember(db, access.owner.id, viewer.id);
  const all = viewer.is_admin === 1 || (isMember && (await isOrgOwner(db, access.owner.id, viewer.id)));
  const mine = new Set(await teamIdsOfUser(db, access.owner.id, viewer.id));
  const seen = teams.filter((t) => all || mine.has(t.id) || t.visibility === 'public' || (t.visibility === 'limited' && isMember));
  return viewOf(db, seen, [access.owner]);
}

/** GET /repos/{owner}/{repo}/teams/{team}: the team when it lists the repository, else 404. */
export async function getTeamOfRepo(db: DB, access: RepoAccess, viewer: User, name: string): Promise<TeamView> {
  if (access.owner.type !== ORG_TYPE) throw notOrgRepo();
  const { team } = await namedTeamOf(db, access, viewer, name);
  if (!(await hasTeamRepo(db, team.id, access.repo.id))) throw new NotFoundError();
  return viewOf(db, [team], [access.owner]);
}

/**
 * PUT/DELETE /repos/{owner}/{repo}/teams/{team}: repository admins only when the organization
 * lets them change team access, owners always (403); 422 when already (not) added, as Gitea.
 */
export async function setRepoTeam(db: DB, access: RepoAccess, viewer: User, name: string, add: boolean): Promise<void> {
  if (access.owner.type !== ORG_TYPE) throw notOrgRepo();
  if (!access.owner.repo_admin_change_team_access && access.mode < ACCESS.owner) {
    throw new ForbiddenError('user is nor repo admin nor owner');
  }
  const team = await getTeamByName(db, access.owner.id, name);
  if (!team) throw new NotFoundError(`team does not exist [org_id ${access.owner.id}, team_id 0, name ${name}]`);
  await changeTeamRepo(db, { team, org: access.owner, viewer, manages: true, isMember: true, isTeamMember: false }, access.repo, add, true);
}

/**
 * GET /teams/{id}/activities/feeds: the organization's activity on the team's repositories, for
 * the team's members, organization owners and site admins (Gitea's reqTeamMembership).
 */
export async function teamActivity(db: DB, id: number, viewer: User, o: FeedOptions): Promise<Feed> {
  const access = await lookupTeam(db, id, viewer);
  if (!insider(access)) throw new ForbiddenError('Must be a team member');
  return teamFeed(db, access.team, viewer, o);
}
