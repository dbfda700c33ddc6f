import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { getIssueByIndex } from '../../models/issue';
import { ACCESS, type AccessMode } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import { unitModeOf, type RepoAccess } from '../repo/repos';

// Who may do what with issues and pulls of a repository: the unit modes (a disabled unit
// gives nothing), as Gitea's CanReadIssuesOrPulls / CanWriteIssuesOrPulls.

export type IssueUnits = { issues: AccessMode; pulls: AccessMode };

/** The repository, the caller and the caller's mode on each unit. */
export type IssueCtx = RepoAccess & { doer: User | null; units: IssueUnits };


export async function issueCtx(db: DB, access: RepoAccess, doer: User | null): Promise<IssueCtx> {
  const s = settingsOf(access.repo);
  const units: IssueUnits = {
    issues: s.has_issues ? await unitModeOf(db, access, doer, 'repo.issues') : ACCESS.none,
    pulls: s.has_pull_requests ? await unitModeOf(db, access, doer, 'repo.pulls') : ACCESS.none,
  };
  return { ...access, doer, units };
}

export const canRead = (ctx: IssueCtx, isPull: boolean | number) => (isPull ? ctx.units.pulls : ctx.units.issues) >= ACCESS.read;
export const canWrite = (ctx: IssueCtx, isPull: boolean | number) => (isPull ? ctx.units.pulls : ctx.units.issues) >= ACCESS.write;
/** Labels and milestones are shared by both units: a writer of either manages them. */
export const canWriteEither = (ctx: IssueCtx) => ctx.units.issues >= ACCESS.write || ctx.units.pulls >= ACCESS.write;
export const canReadEither = (ctx: IssueCtx) => canRead(ctx, false) || canRead(ctx, true);

/** Gitea's mustEnableIssuesOrPulls: 404 unless the caller reads issues or pulls here. */
export function assertIssuesOrPulls(ctx: IssueCtx): void {
  if (!canReadEither(ctx)) throw new NotFoundError();
}

/** Which kinds the caller may list: undefined is both. */
export function readableKind(ctx: IssueCtx, asked: boolean | undefined): boolean | undefined {
  if (asked !== undefined) {
    if (!canRead(ctx, asked)) throw new NotFoundError();
    return asked;
  }
  const issues = canRead(ctx, false);
  const pulls = canRead(ctx, true);
  if (!issues && !pulls) throw new NotFoundError();
  return issues && pulls ? undefined : pulls;
}

/** `{index}` of the repository, readable by the caller, else 404. */
export async function readableIssue(db: DB, ctx: IssueCtx, index: number): Promise<Issue> {
  const issue = Number.isSafeInteger(index) && index > 0 ? await getIssueByIndex(db, ctx.repo.id, index) : undefined;
  if (!issue || !canRead(ctx, issue.is_pull)) throw new NotFoundError(`issue does not exist [repo_id: ${ctx.repo.id}, index: ${index}]`);
  return issue;
}

export function assertWriter(ctx: IssueCtx, isPull: boolean | number): void {
  if (!canWrite(ctx, isPull)) throw new ForbiddenError('user should have write permission on the issues or pulls unit');
}

/** The signed-in caller; routes guard it, services refuse otherwise. */
export function doerOfCtx(ctx: IssueCtx): User {
  if (!ctx.doer) throw new ForbiddenError('sign in required');
  return ctx.doer;
}
