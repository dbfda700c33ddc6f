import type { DB } from '../db/connect';
import type { User } from '../db/schema';

// Assignees of issues (issue_assignee) and the users a repository's issues may be assigned to.

/** Assignees of each issue in assignment order. */
export async function assigneeIdsOfIssues(db: DB, issueIds: number[]): Promise<{ issue_id: number; assignee_id: number }[]> {
  if (!issueIds.length) return [];
  return db.selectFrom('issue_assignee').select(['issue_id', 'assignee_id'])
    .where('issue_id', 'in', issueIds).orderBy('id').execute();
}

export async function addIssueAssignee(db: DB, issueId: number, userId: number): Promise<void> {
  await db.insertInto('issue_assignee').values({ issue_id: issueId, assignee_id: userId })
    .onConflict((oc) => oc.doNothing()).execute();
}

export async function removeIssueAssignee(db: DB, issueId: number, userId: number): Promise<void> {
  await db.deleteFrom('issue_assignee').where('issue_id', '=', issueId).where('assignee_id', '=', userId).execute();
}

const READ = 1;
const WRITE = 2;
const ADMIN = 3;

/** Ids of users whose team on the owner organization gives at least `min` on one of `units` of the repository. */
function teamMembersWith(db: DB, repoId: number, ownerId: number, min: number, units: string[]) {
  return db.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id').select('tu.uid')
    .where('t.org_id', '=', ownerId)
    .where((e) => e.or([
      e('t.includes_all_repositories', '=', 1),
      e.exists(e.selectFrom('team_repo as tr').select('tr.id').whereRef('tr.team_id', '=', 't.id').where('tr.repo_id', '=', repoId)),
    ]))
    .where((e) => e.or([
      e('t.authorize', '>=', ADMIN),
      e.exists(e.selectFrom('team_unit as u').select('u.id').whereRef('u.team_id', '=', 't.id')
        .where('u.type', 'in', units).where('u.access_mode', '>=', min)),
      e.and([
        e('t.authorize', '>=', min),
        e.not(e.exists(e.selectFrom('team_unit as u2').select('u2.id').whereRef('u2.team_id', '=', 't.id'))),
      ]),
    ]));
}

/** Whether the user is on a team of the owner organization that reads the repository's pull requests. */
export async function isPullReaderByTeam(db: DB, repoId: number, ownerId: number, userId: number): Promise<boolean> {
  return !!(await teamMembersWith(db, repoId, ownerId, READ, ['repo.pulls']).where('tu.uid', '=', userId).executeTakeFirst());
}

/**
 * Active users with write access through a collaboration or an organization team (Gitea's
 * GetRepoAssignees), by name. The owner itself is the caller's to add.
 */
export async function writersOfRepo(db: DB, repoId: number, ownerId: number): Promise<User[]> {
  return db.selectFrom('user').selectAll()
    .where('is_active', '=', 1).where('type', '=', 0)
    .where((eb) => eb.or([
      eb('id', 'in', eb.selectFrom('collaboration').select('user_id').where('repo_id', '=', repoId).where('mode', '>=', WRITE)),
      eb('id', 'in', teamMembersWith(db, repoId, ownerId, WRITE, ['repo.code', 'repo.issues', 'repo.pulls'])),
    ]))
    .orderBy('lower_name').execute();
}

/**
 * Gitea's GetReviewers: readers of the pull requests (collaborators, teams, an individual
 * owner); for a public repository also its watchers and the owner organization's members.
 */
export async function reviewersOfRepo(db: DB, repoId: number, owner: Pick<User, 'id' | 'type'>, isPublic: boolean): Promise<User[]> {
  return db.selectFrom('user').selectAll()
    .where('is_active', '=', 1).where('type', '=', 0)
    .where((eb) => eb.or([
      eb('id', 'in', eb.selectFrom('collaboration').select('user_id').where('repo_id', '=', repoId).where('mode', '>=', READ)),
      eb('id', 'in', teamMembersWith(db, repoId, owner.id, READ, ['repo.pulls'])),
      ...(owner.type === 0 ? [eb('id', '=', owner.id)] : []),
      ...(isPublic ? [
        eb('id', 'in', eb.selectFrom('watch').select('uid').where('repo_id', '=', repoId)),
        eb('id', 'in', eb.selectFrom('org_user').select('uid').where('org_id', '=', owner.id)),
      ] : []),
    ]))
    .orderBy('lower_name').execute();
}
