import type { DB } from '../../db/connect';
import { lockRow } from '../../db/dialect';
import type { Milestone, User } from '../../db/schema';
import { parseRfc3339 } from '../../lib/dates';
import { ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import {
  deleteMilestoneRow, getMilestoneById, getMilestoneByName, insertMilestone, listMilestones,
  refreshRepoMilestoneCounts, updateMilestoneRow,
} from '../../models/milestone';
import { canWriteEither, issueCtx } from './issue-access';
import type { RepoAccess } from '../repo/repos';

// Milestones of a repository. Their issue counters are kept by the issue services; the
// repository's milestone counters here.

/** Gitea's default due date, 9999-12-31: "no due date", never shown. */
export const NO_DEADLINE = Math.floor(Date.UTC(9999, 11, 31) / 1000);

export type MilestoneState = 'open' | 'closed' | 'all';
export type CreateMilestoneInput = { title: string; description?: string; due_on?: string | null; state?: string };
export type EditMilestoneInput = { title?: string; description?: string; due_on?: string | null; state?: string };

/** A due date, or null for none (absent, or Go's zero time as clients send it). */
function dueOn(value: string | null | undefined): number | null {
  if (!value || /^0001-01-01/.test(value.trim())) return null;
  const unix = parseRfc3339(value);
  if (unix === null) throw new InvalidError('[due_on]: invalid date, expected RFC 3339', 'due_on');
  return unix;
}

async function assertWriter(db: DB, access: RepoAccess, doer: User): Promise<void> {
  if (!canWriteEither(await issueCtx(db, access, doer))) {
    throw new ForbiddenError('user should have write permission on the issues or pulls unit');
  }
}

export async function listRepoMilestones(
  db: DB, access: RepoAccess, q: { state?: string; name?: string; offset: number; limit: number },
): Promise<{ milestones: Milestone[]; total: number }> {
  const state: MilestoneState = q.state === 'closed' || q.state === 'all' ? q.state : 'open';
  return listMilestones(db, { repoId: access.repo.id, state, name: q.name, offset: q.offset, limit: q.limit });
}

/** `{id}` is an id or, when no milestone has that id, a name (Gitea's getMilestoneByIDOrName). */
export async function findMilestone(db: DB, repoId: number, idOrName: string): Promise<Milestone> {
  const id = /^\d+$/.test(idOrName) ? Number(idOrName) : 0;
  const found = (id && Number.isSafeInteger(id) ? await getMilestoneById(db, repoId, id) : undefined)
    ?? await getMilestoneByName(db, repoId, idOrName);
  if (!found) throw new NotFoundError(`milestone does not exist [id: ${idOrName}, repo_id: ${repoId}]`);
  return found;
}

export const getRepoMilestone = (db: DB, access: RepoAccess, idOrName: string) => findMilestone(db, access.repo.id, idOrName);

export async function createRepoMilestone(db: DB, access: RepoAccess, doer: User, input: CreateMilestoneInput): Promise<Milestone> {
  await assertWriter(db, access, doer);
  if (!input.title.trim()) throw new InvalidError('[title]: Required', 'title');
  const now = nowUnix();
  const closed = input.state === 'closed';
  return db.transaction().execute(async (trx) => {
    await lockRow(trx, 'repository', access.repo.id);
    const m = await insertMilestone(trx, {
      repo_id: access.repo.id, name: input.title, content: input.description ?? '',
      deadline_unix: dueOn(input.due_on) ?? NO_DEADLINE,
      is_closed: closed ? 1 : 0, closed_unix: closed ? now : 0, created_unix: now, updated_unix: now,
    });
    await refreshRepoMilestoneCounts(trx, access.repo.id);
    return m;
  });
}

/** Present fields change; a state other than `closed` opens (Gitea's ChangeMilestoneStatus). */
export async function editRepoMilestone(db: DB, access: RepoAccess, doer: User, idOrName: string, input: EditMilestoneInput): Promise<Milestone> {
  await assertWriter(db, access, doer);
  const m = await findMilestone(db, access.repo.id, idOrName);
  const now = nowUnix();
  const patch: Parameters<typeof updateMilestoneRow>[2] = { updated_unix: now };
  if (input.title) patch.name = input.title;
  if (input.description !== undefined) patch.content = input.description;
  const due = dueOn(input.due_on);
  if (due !== null) patch.deadline_unix = due;
  if (input.state !== undefined) {
    const closed = input.state === 'closed';
    patch.is_closed = closed ? 1 : 0;
    if (closed && !m.is_closed) patch.closed_unix = now;
  }
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'repository', access.repo.id);
    await updateMilestoneRow(trx, m.id, patch);
    await refreshRepoMilestoneCounts(trx, access.repo.id);
  });
  return (await getMilestoneById(db, access.repo.id, m.id))!;
}

/** Its issues lose the milestone (the foreign key sets it to null). */
export async function deleteRepoMilestone(db: DB, access: RepoAccess, doer: User, idOrName: string): Promise<void> {
  await assertWriter(db, access, doer);
  const m = await findMilestone(db, access.repo.id, idOrName);
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'repository', access.repo.id);
    await deleteMilestoneRow(trx, m.id);
    await refreshRepoMilestoneCounts(trx, access.repo.id);
  });
}
