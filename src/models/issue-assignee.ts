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

const WRITE = 2;
const ADMIN = 3;

/**
 * Active users with write access through a collaboration or an organization team (Gitea's
 * GetRepoAssignees), by name. The owner itself is the caller's to add.
 */
export async function writersOfRepo(db: DB, repoId: number, ownerId: number): Promise<User[]> {
  return db.selectFrom('user').selectAll()
    .where('is_active', '=', 1).where('type', '=', 0)
    .where((eb) => eb.or([
      eb('id', 'in', eb.selectFrom('collaboration').select('user_id').where('repo_id', '=', repoId).where('mode', '>=', WRITE)),
      eb('id', 'in', eb.selectFrom('team_user as tu').innerJoin('team as t', 't.id', 'tu.team_id').select('tu.uid')
        .where('t.org_id', '=', ownerId)
        .where((e) => e.or([
          e('t.includes_all_repositories', '=', 1),
          e.exists(e.selectFrom('team_repo as tr').select('tr.id').whereRef('tr.team_id', '=', 't.id').where('tr.repo_id', '=', repoId)),
        ]))
        .where((e) => e.or([
          e('t.authorize', '>=', ADMIN),
          e.exists(e.selectFrom('team_unit as u').select('u.id').whereRef('u.team_id', '=', 't.id')
            .where('u.type', 'in', ['repo.code', 'repo.issues', 'repo.pulls']).where('u.access_mode', '>=', WRITE)),
          e.and([
            e('t.authorize', '>=', WRITE),
            e.not(e.exists(e.selectFrom('team_unit as u2').select('u2.id').whereRef('u2.team_id', '=', 't.id'))),
          ]),
        ]))),
    ]))
    .orderBy('lower_name').execute();
}
