import type { DB } from '../../db/connect';
import type { Issue, User } from '../../db/schema';
import { COMMENT_TYPE } from '../../lib/comment-type';
import { ConflictError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { getIssueById, getIssueByIndex } from '../../models/issue';
import { deleteDependency, dependencyExists, insertDependency, linkedIssues } from '../../models/issue-dependency';
import { canRead, canWrite, issueCtx, readableIssue, type IssueCtx } from './issue-access';
import { recordEvent } from './issue-events';
import { issueView, issueViews, type IssueView } from './issue-views';
import { settingsOf } from '../repo/repo-settings';
import { getRepoById } from '../../models/repo';
import { accessOf, lookupRepo, type RepoAccess } from '../repo/repos';

// Issue dependencies (Gitea's issue_dependency.go): `target` depends on `dependency`, i.e. the
// dependency blocks the target. Both may live in different repositories the caller can read.

/** Gitea's IssueMeta: the other issue; owner and repo default to the route's repository. */
export type IssueMeta = { index: number; owner?: string; repo?: string };
export type LinkKind = 'dependencies' | 'blocks';

const enabled = (ctx: IssueCtx) => settingsOf(ctx.repo).internal_tracker.enable_issue_dependencies;

/** The issue named by the body, with the caller's context on its repository. */
async function metaIssue(db: DB, here: IssueCtx, doer: User, meta: IssueMeta): Promise<{ ctx: IssueCtx; issue: Issue }> {
  const owner = meta.owner ?? here.owner.name;
  const name = meta.repo ?? here.repo.name;
  let ctx = here;
  if (owner.toLowerCase() !== here.owner.name.toLowerCase() || name.toLowerCase() !== here.repo.lower_name) {
    const found = await lookupRepo(db, owner, name, doer);
    if ('redirectTo' in found) throw new NotFoundError('repository does not exist');
    ctx = await issueCtx(db, found, doer);
  }
  const issue = meta.index > 0 ? await getIssueByIndex(db, ctx.repo.id, meta.index) : undefined;
  if (!issue) throw new NotFoundError(`issue does not exist [repo_id: ${ctx.repo.id}, index: ${meta.index}]`);
  return { ctx, issue };
}

/** Caches the caller's context per repository while filtering a list. */
async function readableOnly(db: DB, here: IssueCtx, doer: User | null, issues: Issue[]): Promise<Issue[]> {
  const ctxs = new Map<number, IssueCtx>([[here.repo.id, here]]);
  const out: Issue[] = [];
  for (const issue of issues) {
    let ctx = ctxs.get(issue.repo_id);
    if (!ctx) {
      const repo = await getRepoById(db, issue.repo_id);
      if (!repo) continue;
      ctx = await issueCtx(db, await accessOf(db, repo, doer), doer);
      ctxs.set(issue.repo_id, ctx);
    }
    if (canRead(ctx, issue.is_pull)) out.push(issue);
  }
  return out;
}

/** GET .../dependencies (issues blocking this one) and .../blocks (issues it blocks). */
export async function listLinkedIssues(
  db: DB, access: RepoAccess, doer: User | null, index: number, kind: LinkKind, page: { offset: number; limit: number },
): Promise<IssueView[]> {
  const ctx = await issueCtx(db, access, doer);
  if (kind === 'dependencies' && !enabled(ctx)) throw new NotFoundError();
  return linkedIssuesOf(db, ctx, await readableIssue(db, ctx, index), kind, page);
}

/** As listLinkedIssues, of an issue its caller already read through `ctx` (the issue page's sidebar). */
export async function linkedIssuesOf(db: DB, ctx: IssueCtx, issue: Issue, kind: LinkKind, page: { offset: number; limit: number }): Promise<IssueView[]> {
  const linked = await linkedIssues(db, issue.id, kind === 'dependencies' ? 'blockers' : 'blocking', page);
  return issueViews(db, await readableOnly(db, ctx, ctx.doer, linked), ctx);
}

type Link = { target: Issue; targetCtx: IssueCtx; dep: Issue; depCtx: IssueCtx; here: Issue };

async function resolveLink(db: DB, access: RepoAccess, doer: User, index: number, kind: LinkKind, meta: IssueMeta): Promise<Link> {
  const ctx = await issueCtx(db, access, doer);
  const here = await readableIssue(db, ctx, index);
  const other = await metaIssue(db, ctx, doer, meta);
  const link = kind === 'dependencies'
    ? { target: here, targetCtx: ctx, dep: other.issue, depCtx: other.ctx, here }
    : { target: other.issue, targetCtx: other.ctx, dep: here, depCtx: ctx, here };
  // As Gitea: every refusal on the other side is a 404, never a hint of what exists.
  if (link.targetCtx.repo.is_archived || !enabled(link.targetCtx)) throw new NotFoundError();
  if (!canWrite(link.targetCtx, link.target.is_pull)) throw new NotFoundError();
  if (!canRead(link.depCtx, link.dep.is_pull)) throw new NotFoundError();
  if (link.target.id === link.dep.id) throw new InvalidError('[index]: an issue cannot depend on itself', 'index');
  return link;
}

/** Gitea writes the event on both issues, each naming the other. */
async function linkEvents(db: DB, l: Link, doerId: number, type: number, now: number): Promise<void> {
  await recordEvent(db, l.target, doerId, type, now, { dependent_issue_id: l.dep.id });
  await recordEvent(db, l.dep, doerId, type, now, { dependent_issue_id: l.target.id });
}

/** POST .../dependencies or .../blocks: answers the route's issue. */
export async function addLink(db: DB, access: RepoAccess, doer: User, index: number, kind: LinkKind, meta: IssueMeta): Promise<IssueView> {
  const l = await resolveLink(db, access, doer, index, kind, meta);
  const now = nowUnix();
  await db.transaction().execute(async (trx) => {
    if (await dependencyExists(trx, l.target.id, l.dep.id)) throw new ConflictError('dependency already exists');
    if (await dependencyExists(trx, l.dep.id, l.target.id)) throw new ConflictError('circular dependencies are not allowed');
    await insertDependency(trx, doer.id, l.target.id, l.dep.id, now);
    await linkEvents(trx, l, doer.id, COMMENT_TYPE.addDependency, now);
  });
  return issueView(db, (await getIssueById(db, l.here.id))!, access);
}

/** DELETE .../dependencies or .../blocks: 404 when the link does not exist. */
export async function removeLink(db: DB, access: RepoAccess, doer: User, index: number, kind: LinkKind, meta: IssueMeta): Promise<IssueView> {
  const l = await resolveLink(db, access, doer, index, kind, meta);
  const now = nowUnix();
  await db.transaction().execute(async (trx) => {
    if (!(await deleteDependency(trx, l.target.id, l.dep.id))) throw new NotFoundError('dependency does not exist');
    await linkEvents(trx, l, doer.id, COMMENT_TYPE.removeDependency, now);
  });
  return issueView(db, (await getIssueById(db, l.here.id))!, access);
}
