import type { DB } from '../../db/connect';
import type { Issue, Label, User } from '../../db/schema';
import { deadlineEndOfDay, parseRfc3339 } from '../../lib/dates';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { allocateIssueIndex, countNewIssue, deleteIssueNotifications, deleteIssueRow, insertIssue } from '../../models/issue';
import { addIssueAssignee, writersOfRepo } from '../../models/issue-assignee';
import { labelIdsOfIssue } from '../../models/issue-label';
import { getMilestoneById } from '../../models/milestone';
import { isBlockedBy } from '../../models/blocking';
import { usersByNames } from '../../models/user-lookup';
import { canRead, canWrite, issueCtx, readableIssue } from './issue-access';
import { assigneeEvent, milestoneEvent } from './issue-events';
import { applyLabels, labelSourceOf, resolveLabels } from './issue-labels';
import { changeIssueState, refreshIssueCounters } from './issue-state';
import { lockIssueCounters } from './issue-locks';
import { issueView, type IssueView } from './issue-views';
import { addCrossReferences } from './issue-references';
import { ACCESS, accessMode } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';
import { emit } from '../events/bus';

export type CreateIssueInput = {
  title: string; body?: string; ref?: string; assignee?: string; assignees?: string[];
  closed?: boolean; due_date?: string | null; labels?: (number | string)[]; milestone?: number;
  /** Set by the pull requests area: the row is a pull (pulls unit) and this runs in the same transaction. */
  pull?: (trx: DB, issue: Issue) => Promise<void>;
};

/** A due date (date only: the end of that day), or 422. */
/** A pull request's due date as given, to the second (Gitea's CreatePullRequest); the zero time is none. */
function parseDueInstant(value: string): number {
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError('[due_date]: invalid date, expected RFC 3339', 'due_date');
  return unix < 0 ? 0 : unix;
}

export function parseDueDate(value: string): number {
  const unix = deadlineEndOfDay(value);
  if (unix === null) throw new InvalidError('[due_date]: invalid date, expected RFC 3339', 'due_date');
  return unix;
}

/**
 * Gitea's MakeIDsFromAPIAssigneesToAdd and CanBeAssigned: users by name (unknown: 422) who
 * have write access to the repository (else 422).
 */
export async function resolveAssignees(db: DB, access: RepoAccess, names: (string | undefined | null)[]): Promise<User[]> {
  const wanted = [...new Set(names.filter((n): n is string => !!n).map((n) => n.toLowerCase()))];
  const users = await usersByNames(db, wanted);
  const missing = wanted.find((n) => !users.some((u) => u.lower_name === n));
  if (missing) throw new InvalidError(`Assignee does not exist: [name: ${missing}]`, 'assignees');
  for (const user of users) {
    if ((await accessMode(db, user, access.repo, access.owner)) < ACCESS.write) {
      throw new InvalidError(`user doesn't have access to repo [user_id: ${user.id}, repo_name: ${access.repo.name}]`, 'assignees');
    }
  }
  return wanted.map((n) => users.find((u) => u.lower_name === n)!);
}

type Extras = { labels: Label[]; assignees: User[]; milestoneId: number | null; deadline: number };

/**
 * What only writers may set on a new issue, silently dropped for others, as Gitea. A new pull
 * request keeps them whoever opens it (Gitea's CreatePullRequest), and names an unknown
 * milestone 404 where an issue drops it.
 */
async function writerExtras(db: DB, access: RepoAccess, input: CreateIssueInput, writer: boolean, isPull: boolean): Promise<Extras> {
  // The seed takes an issue's due date by its date only; a new pull request keeps the instant given.
  const deadline = input.due_date ? (isPull ? parseDueInstant(input.due_date) : parseDueDate(input.due_date)) : 0;
  if (!writer && !isPull) return { labels: [], assignees: [], milestoneId: null, deadline: 0 };
  const labels = input.labels?.length ? await resolveLabels(db, labelSourceOf(access), input.labels) : [];
  const assignees = await resolveAssignees(db, access, [input.assignee, ...(input.assignees ?? [])]);
  const milestone = input.milestone ? await getMilestoneById(db, access.repo.id, input.milestone) : undefined;
  if (isPull && input.milestone && !milestone) throw new NotFoundError(`milestone does not exist [id: ${input.milestone}]`);
  return { labels, assignees, milestoneId: milestone?.id ?? null, deadline };
}

/** POST /repos/{owner}/{repo}/issues: numbered in the creating transaction, never reusing a number. */
export async function createIssue(db: DB, access: RepoAccess, doer: User, input: CreateIssueInput): Promise<IssueView> {
  const ctx = await issueCtx(db, access, doer);
  const isPull = !!input.pull;
  if (!(isPull ? settingsOf(access.repo).has_pull_requests : settingsOf(access.repo).has_issues)) throw new NotFoundError();
  if (!canRead(ctx, isPull)) throw new ForbiddenError(`user should have read permission on the ${isPull ? 'pulls' : 'issues'} unit`);
  if (!input.title.trim()) throw new InvalidError('[title]: Required', 'title');
  // Gitea's NewIssue: one blocked by the repository's owner opens nothing there.
  if (await isBlockedBy(db, doer.id, [access.repo.owner_id])) throw new ForbiddenError('user is blocked by the repository owner');
  const extras = await writerExtras(db, access, input, canWrite(ctx, isPull), isPull);
  const now = nowUnix();
  const issue = await db.transaction().execute(async (trx) => {
    // Counted open first: on PostgreSQL the UPDATE holds the repository row until the commit, as
    // lockRow's SELECT ... FOR UPDATE would, one round trip fewer (closing it below recounts).
    await countNewIssue(trx, access.repo.id, isPull, false);
    await lockIssueCounters(trx, access.repo.id, null, {
      milestoneIds: [extras.milestoneId], labelIds: extras.labels.map((l) => l.id), repoHeld: true,
    });
    let issue = await insertIssue(trx, {
      repo_id: access.repo.id, index: await allocateIssueIndex(trx, access.repo.id), poster_id: doer.id,
      title: input.title, content: input.body ?? '', ref: input.ref ?? '', milestone_id: extras.milestoneId,
      deadline_unix: extras.deadline, created_unix: now, updated_unix: now, is_pull: isPull ? 1 : 0,
    });
    if (input.pull) await input.pull(trx, issue);
    const labelIds = await applyLabels(trx, issue, extras.labels, doer.id, now);
    for (const user of extras.assignees) {
      await addIssueAssignee(trx, issue.id, user.id);
      await assigneeEvent(trx, issue, doer.id, user.id, false, now);
    }
    if (extras.milestoneId) await milestoneEvent(trx, issue, doer.id, null, extras.milestoneId, now);
    if (input.closed) issue = await changeIssueState(trx, access.repo, issue, doer.id, true, now);
    else await refreshIssueCounters(trx, access.repo.id, labelIds, [extras.milestoneId], { repo: false });
    return issue;
  });
  await emit(db, 'issue.opened', { repo: access.repo, doer, issue });
  await addCrossReferences(db, access, doer, issue, `${issue.title}\n${issue.content}`);
  return newIssueView(db, issue, access, doer, extras);
}

/**
 * The view of an issue this request just created. With no labels, assignees or milestone it is
 * what the transaction wrote, read from nothing (PostgreSQL: a round trip for the labels,
 * assignees and files, and one for the poster, both saved); otherwise the users it holds (the
 * doer, the assignees) are not read again. A pull request's view reads its merge state.
 */
function newIssueView(db: DB, issue: Issue, access: RepoAccess, doer: User, extras: Extras): Promise<IssueView> {
  const bare = !issue.is_pull && !extras.labels.length && !extras.assignees.length && !issue.milestone_id && doer.id > 0;
  if (!bare) return issueView(db, issue, access, [doer, ...extras.assignees]);
  return Promise.resolve({
    issue, repo: access.repo, owner: access.owner, poster: doer, labels: [], milestone: undefined, assignees: [], assets: [], pull: undefined,
  });
}

/** GET /repos/{owner}/{repo}/issues/{index} */
export async function getIssue(db: DB, access: RepoAccess, doer: User | null, index: number): Promise<IssueView> {
  const ctx = await issueCtx(db, access, doer);
  return issueView(db, await readableIssue(db, ctx, index), access);
}

/** DELETE /repos/{owner}/{repo}/issues/{index}: its number stays used; counters follow. */
export async function deleteIssue(db: DB, access: RepoAccess, doer: User, index: number): Promise<void> {
  const ctx = await issueCtx(db, access, doer);
  const issue: Issue = await readableIssue(db, ctx, index);
  await db.transaction().execute(async (trx) => {
    await lockIssueCounters(trx, access.repo.id, issue.id);
    const labelIds = await labelIdsOfIssue(trx, issue.id);
    await deleteIssueNotifications(trx, issue.id);
    await deleteIssueRow(trx, issue.id);
    await refreshIssueCounters(trx, access.repo.id, labelIds, [issue.milestone_id]);
  });
}

/**
 * GET /repos/{owner}/{repo}/assignees: writers by name (collaborators and teams), then an
 * individual owner when not among them (Gitea's GetRepoAssignees).
 */
export async function listAssignees(db: DB, access: RepoAccess): Promise<User[]> {
  const users = await writersOfRepo(db, access.repo.id, access.owner.id);
  if (access.owner.type === 0 && !users.some((u) => u.id === access.owner.id)) users.push(access.owner);
  return users;
}
