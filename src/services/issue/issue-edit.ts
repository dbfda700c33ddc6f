import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { BadRequestError, ConflictError, ForbiddenError, InvalidError, PreconditionFailedError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getIssueById, updateIssueRow } from '../../models/issue';
import { addIssueAssignee, assigneeIdsOfIssues, removeIssueAssignee } from '../../models/issue-assignee';
import { labelIdsOfIssue } from '../../models/issue-label';
import { getMilestoneById } from '../../models/milestone';
import { canWrite, issueCtx, readableIssue } from './issue-access';
import { assigneeEvent, deadlineEvent, milestoneEvent, refEvent, titleEvent } from './issue-events';
import { changeIssueState, refreshIssueCounters } from './issue-state';
import { issueView, type IssueView } from './issue-views';
import { parseDueDate, resolveAssignees } from './issues';
import { changeWithEvents, emitIssueChanged } from './issue-changes';
import type { RepoAccess } from '../repo/repos';

/**
 * EditIssueOption, plus `content_version`: when given it must be the issue's current version
 * (else 409), so two editors cannot overwrite each other's body unknowingly.
 */
export type EditIssueInput = {
  title?: string; body?: string; ref?: string; due_date?: string | null; unset_due_date?: boolean;
  assignee?: string | null; assignees?: string[] | null; milestone?: number | null; state?: string;
  content_version?: number;
};

/** Everything validated before the transaction: a refused edit changes nothing. */
type Plan = { deadline?: number; assignees?: User[]; milestoneId?: number | null; closed?: boolean };

async function plan(db: DB, access: RepoAccess, issue: Issue, input: EditIssueInput, writer: boolean): Promise<Plan> {
  const p: Plan = {};
  if (input.state !== undefined) {
    if (input.state !== 'open' && input.state !== 'closed') throw new PreconditionFailedError(`unknown state: ${input.state}`);
    p.closed = input.state === 'closed';
  }
  if (!writer) return p;
  if (input.due_date != null || input.unset_due_date !== undefined) {
    if (input.unset_due_date) p.deadline = 0;
    else if (input.due_date == null) throw new BadRequestError('The due_date cannot be empty');
    else p.deadline = parseDueDate(input.due_date);
  }
  if (input.assignees != null || input.assignee != null) {
    p.assignees = await resolveAssignees(db, access, [input.assignee, ...(input.assignees ?? [])]);
  }
  if (input.milestone != null && input.milestone !== (issue.milestone_id ?? 0)) {
    const m = input.milestone > 0 ? await getMilestoneById(db, access.repo.id, input.milestone) : undefined;
    if (input.milestone > 0 && !m) throw new InvalidError(`[milestone]: milestone does not exist [id: ${input.milestone}]`, 'milestone');
    p.milestoneId = m?.id ?? null;
  }
  return p;
}

async function setAssignees(db: DB, issue: Issue, users: User[], doerId: number, now: number): Promise<void> {
  const current = (await assigneeIdsOfIssues(db, [issue.id])).map((a) => a.assignee_id);
  const wanted = new Set(users.map((u) => u.id));
  for (const id of current.filter((c) => !wanted.has(c))) {
    await removeIssueAssignee(db, issue.id, id);
    await assigneeEvent(db, issue, doerId, id, true, now);
  }
  for (const id of [...wanted].filter((w) => !current.includes(w))) {
    await addIssueAssignee(db, issue.id, id);
    await assigneeEvent(db, issue, doerId, id, false, now);
  }
}

async function applyTextEdits(db: DB, issue: Issue, input: EditIssueInput, doerId: number, now: number): Promise<void> {
  if (input.title && input.title !== issue.title) {
    await updateIssueRow(db, issue.id, { title: input.title, updated_unix: now });
    await titleEvent(db, issue, doerId, issue.title, input.title, now);
  }
  if (input.body !== undefined && input.body !== issue.content) {
    await updateIssueRow(db, issue.id, { content: input.body, content_version: issue.content_version + 1, updated_unix: now });
  }
  if (input.ref !== undefined && input.ref !== issue.ref) {
    await updateIssueRow(db, issue.id, { ref: input.ref, updated_unix: now });
    await refEvent(db, issue, doerId, issue.ref, input.ref, now);
  }
}

/**
 * PATCH /repos/{owner}/{repo}/issues/{index}: the poster or a writer; due date, assignees and
 * milestone only change for writers (silently ignored for others, as Gitea).
 */
export async function editIssue(db: DB, access: RepoAccess, doer: User, index: number, input: EditIssueInput): Promise<IssueView> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  const writer = canWrite(ctx, issue.is_pull);
  if (issue.poster_id !== doer.id && !writer) throw new ForbiddenError('only the poster or a writer may edit this issue');
  if (input.content_version !== undefined && input.content_version !== issue.content_version) {
    throw new ConflictError(`issue content has been changed since version ${input.content_version} (now ${issue.content_version})`);
  }
  const p = await plan(db, access, issue, input, writer);
  const now = nowUnix();
  const { result: updated, events } = await changeWithEvents(db, issue, async (trx) => {
    await applyTextEdits(trx, issue, input, doer.id, now);
    if (p.deadline !== undefined && p.deadline !== issue.deadline_unix) {
      await updateIssueRow(trx, issue.id, { deadline_unix: p.deadline, updated_unix: now });
      await deadlineEvent(trx, issue, doer.id, issue.deadline_unix, p.deadline, now);
    }
    if (p.assignees) await setAssignees(trx, issue, p.assignees, doer.id, now);
    if (p.milestoneId !== undefined) {
      await updateIssueRow(trx, issue.id, { milestone_id: p.milestoneId, updated_unix: now });
      await milestoneEvent(trx, issue, doer.id, issue.milestone_id, p.milestoneId, now);
    }
    let current = (await getIssueById(trx, issue.id))!;
    if (p.closed !== undefined) current = await changeIssueState(trx, access.repo, current, doer.id, p.closed, now);
    await refreshIssueCounters(trx, access.repo.id, await labelIdsOfIssue(trx, issue.id), [issue.milestone_id, current.milestone_id]);
    return current;
  }, { milestoneIds: [p.milestoneId] });
  await emitIssueChanged(db, access.repo, doer, issue, events, updated);
  return issueView(db, updated, access);
}
