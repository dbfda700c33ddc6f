import type { DB } from '../../db/connect';
import type { Issue, Label, User } from '../../db/schema';
import { BadRequestError, InvalidError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  addIssueLabel, labelIdsOfIssue, labelsOfIssues, refreshLabelCounts, removeIssueLabel,
  usableLabelsByIds, usableLabelsByNames, type LabelSource,
} from '../../models/issue-label';
import { labelEvent } from './issue-events';
import { assertWriter, issueCtx, readableIssue, type IssueCtx } from './issue-access';
import { ORG_TYPE } from '../permissions';
import type { RepoAccess } from '../repo/repos';
import { changeWithEvents, emitIssueChanged } from './issue-changes';

// Labels on issues: add, replace, clear, remove, with Gitea's exclusive scopes (adding
// `scope/name` removes the issue's other exclusive labels of `scope`).

export const labelSourceOf = (access: RepoAccess): LabelSource =>
  ({ repoId: access.repo.id, orgId: access.owner.type === ORG_TYPE ? access.owner.id : null });

/** Gitea's ExclusiveScope: the part before the last `/` of an exclusive label. */
export function exclusiveScope(label: Pick<Label, 'name' | 'exclusive'>): string {
  if (!label.exclusive) return '';
  const i = label.name.lastIndexOf('/');
  return i <= 0 || i === label.name.length - 1 ? '' : label.name.slice(0, i);
}

/** Label ids or names (not both, as Gitea) to the repository's or its organization's labels; unknown ones are 422. */
export async function resolveLabels(db: DB, src: LabelSource, refs: readonly (number | string)[]): Promise<Label[]> {
  const ids = refs.filter((r): r is number => typeof r === 'number');
  const names = refs.filter((r): r is string => typeof r === 'string');
  if (ids.length && names.length) throw new BadRequestError('labels should be an array of strings or integers');
  const found = ids.length ? await usableLabelsByIds(db, src, ids) : await usableLabelsByNames(db, src, names);
  const missing = ids.length
    ? ids.filter((id) => !found.some((l) => l.id === id))
    : names.filter((n) => !found.some((l) => l.name === n));
  if (missing.length) throw new InvalidError(`[labels]: label does not exist [${missing.join(', ')}]`, 'labels');
  const order = (l: Label) => (ids.length ? ids.indexOf(l.id) : names.indexOf(l.name));
  return [...new Map(found.sort((a, b) => order(a) - order(b)).map((l) => [l.id, l])).values()];
}

/** Adds labels in order; returns the ids whose counters changed. Inside the caller's transaction. */
export async function applyLabels(db: DB, issue: Issue, labels: Label[], doerId: number, now: number): Promise<number[]> {
  const touched: number[] = [];
  for (const label of labels) {
    const scope = exclusiveScope(label);
    if (scope) {
      const current = (await labelsOfIssues(db, [issue.id])).map((r) => r.label);
      for (const other of current) {
        if (other.id !== label.id && exclusiveScope(other) === scope && (await removeIssueLabel(db, issue.id, other.id))) {
          await labelEvent(db, issue, doerId, other.id, false, now);
          touched.push(other.id);
        }
      }
    }
    if (await addIssueLabel(db, issue.id, label.id)) {
      await labelEvent(db, issue, doerId, label.id, true, now);
      touched.push(label.id);
    }
  }
  return touched;
}

async function detachLabels(db: DB, issue: Issue, labelIds: number[], doerId: number, now: number): Promise<number[]> {
  const removed: number[] = [];
  for (const id of labelIds) {
    if (await removeIssueLabel(db, issue.id, id)) {
      await labelEvent(db, issue, doerId, id, false, now);
      removed.push(id);
    }
  }
  return removed;
}

export type IssueLabelsView = { ctx: IssueCtx; issue: Issue; labels: Label[] };

async function labelsView(db: DB, ctx: IssueCtx, issue: Issue): Promise<IssueLabelsView> {
  return { ctx, issue, labels: (await labelsOfIssues(db, [issue.id])).map((r) => r.label) };
}

export async function listIssueLabels(db: DB, access: RepoAccess, doer: User | null, index: number): Promise<IssueLabelsView> {
  const ctx = await issueCtx(db, access, doer);
  return labelsView(db, ctx, await readableIssue(db, ctx, index));
}

type LabelChange = (db: DB, issue: Issue, labels: Label[], doerId: number, now: number) => Promise<number[]>;

async function changeLabels(
  db: DB, access: RepoAccess, doer: User, index: number, refs: readonly (number | string)[] | null, change: LabelChange,
): Promise<IssueLabelsView> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  assertWriter(ctx, issue.is_pull);
  const labels = refs ? await resolveLabels(db, labelSourceOf(access), refs) : [];
  const { events } = await changeWithEvents(db, issue, async (trx) => {
    const touched = await change(trx, issue, labels, doer.id, nowUnix());
    await refreshLabelCounts(trx, touched);
  }, { labelIds: labels.map((l) => l.id) });
  if (events.length) await emitIssueChanged(db, access.repo, doer, issue, events);
  return labelsView(db, ctx, issue);
}

/** POST .../issues/{index}/labels */
export const addIssueLabels = (db: DB, access: RepoAccess, doer: User, index: number, refs: readonly (number | string)[]) =>
  changeLabels(db, access, doer, index, refs, applyLabels);

/** PUT .../issues/{index}/labels: the issue ends with exactly these (exclusive scopes: the last wins). */
export const replaceIssueLabels = (db: DB, access: RepoAccess, doer: User, index: number, refs: readonly (number | string)[]) =>
  changeLabels(db, access, doer, index, refs, async (trx, issue, labels, doerId, now) => {
    const keep = new Set(labels.map((l) => l.id));
    const stale = (await labelIdsOfIssue(trx, issue.id)).filter((id) => !keep.has(id));
    return [...await detachLabels(trx, issue, stale, doerId, now), ...await applyLabels(trx, issue, labels, doerId, now)];
  });

/** DELETE .../issues/{index}/labels */
export const clearIssueLabels = (db: DB, access: RepoAccess, doer: User, index: number) =>
  changeLabels(db, access, doer, index, null, async (trx, issue, _labels, doerId, now) =>
    detachLabels(trx, issue, await labelIdsOfIssue(trx, issue.id), doerId, now));

/** DELETE .../issues/{index}/labels/{id}: an unknown label is 422 (Gitea); one not on the issue is a no-op. */
export async function removeIssueLabelById(db: DB, access: RepoAccess, doer: User, index: number, labelId: number): Promise<void> {
  const ctx = await issueCtx(db, access, doer);
  const issue = await readableIssue(db, ctx, index);
  assertWriter(ctx, issue.is_pull);
  const [label] = Number.isSafeInteger(labelId) ? await usableLabelsByIds(db, labelSourceOf(access), [labelId]) : [];
  if (!label) throw new InvalidError(`label does not exist [id: ${labelId}]`, 'id');
  const { events } = await changeWithEvents(db, issue, async (trx) => {
    await refreshLabelCounts(trx, await detachLabels(trx, issue, [label.id], doer.id, nowUnix()));
  });
  if (events.length) await emitIssueChanged(db, access.repo, doer, issue, events);
}
