import type { DB } from '../../db/connect';
import type { Issue, Label, Milestone, User } from '../../db/schema';
import { textDigest } from '../../lib/task-list';
import { canWrite, issueCtx, readableIssue, type IssueCtx } from '../issue/issue-access';
import { linkedIssuesOf } from '../issue/issue-dependencies';
import { isWatchingIssue } from '../issue/issue-subscriptions';
import { issueView, type IssueView } from '../issue/issue-views';
import { listAssignees } from '../issue/issues';
import { listRepoMilestones } from '../issue/milestones';
import { ACCESS } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';
import { labelsPage } from './issue-pages-meta';
import { loadThread, renderStored, type Thread } from './issue-thread';
import type { Hearth } from '../../hearth';

// The issue page: the issue, its conversation, what the viewer may do with it, and for
// writers what the sidebar's forms choose from. Every read goes through the API's services, so
// the page shows what the API would answer this viewer.

/** Linked issues shown in the sidebar; an issue with more has a planning problem. */
const MAX_LINKS = 50;
/** Milestones offered in the sidebar (open ones; a closed one stays when it is the issue's). */
const MAX_MILESTONES = 100;

export type IssueRights = {
  /** Writer of the issue's unit: labels, assignees, milestone, due date, lock, dependencies. */
  write: boolean;
  /** May comment: signed in, and the conversation is not locked (writers comment anyway). */
  comment: boolean;
  /** May change the title, the body and the state (close, reopen): its poster or a writer. */
  edit: boolean;
  /** May pin: a repository admin. */
  pin: boolean;
  /** Signed in and not locked out: reactions and the subscription. */
  react: boolean;
};

export type SidebarChoices = { labels: Label[]; milestones: Milestone[]; assignees: User[] };
export type Links = { enabled: boolean; blockedBy: IssueView[]; blocks: IssueView[] };

export type IssueScreen = {
  ctx: IssueCtx; view: IssueView; body: string; bodyDigest: string; thread: Thread;
  rights: IssueRights; watching: boolean | null; links: Links; choices: SidebarChoices | null;
};

export type Moved = { kind: 'moved' };

function rightsOf(ctx: IssueCtx, view: IssueView, doer: User | null): IssueRights {
  const { issue } = view;
  const write = !!doer && canWrite(ctx, issue.is_pull) && !ctx.repo.is_archived;
  const open = !!doer && !ctx.repo.is_archived && (!issue.is_locked || write || !!doer.is_admin);
  return {
    write, comment: open, react: open,
    edit: !!doer && !ctx.repo.is_archived && (write || issue.poster_id === doer.id),
    pin: write && ctx.mode >= ACCESS.admin,
  };
}

async function linksOf(db: DB, ctx: IssueCtx, issue: Issue): Promise<Links> {
  if (!settingsOf(ctx.repo).internal_tracker.enable_issue_dependencies) return { enabled: false, blockedBy: [], blocks: [] };
  const page = { offset: 0, limit: MAX_LINKS };
  const [blockedBy, blocks] = await Promise.all([
    linkedIssuesOf(db, ctx, issue, 'dependencies', page),
    linkedIssuesOf(db, ctx, issue, 'blocks', page),
  ]);
  return { enabled: true, blockedBy, blocks };
}

async function choicesOf(db: DB, ctx: IssueCtx, view: IssueView): Promise<SidebarChoices> {
  const [labels, { milestones }, assignees] = await Promise.all([
    labelsPage(db, ctx),
    listRepoMilestones(db, ctx, { state: 'open', offset: 0, limit: MAX_MILESTONES }),
    listAssignees(db, ctx),
  ]);
  const current = view.milestone && !milestones.some((m) => m.id === view.milestone!.id) ? [view.milestone] : [];
  return { labels: [...labels.repo, ...labels.org].filter((l) => !l.is_archived || view.labels.some((x) => x.id === l.id)), milestones: [...current, ...milestones], assignees };
}

/** `/issues/{index}`; a pull request's index is the pull request page's (the route redirects). */
export async function issueScreen(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<IssueScreen | Moved> {
  const ctx = await issueCtx(h.db, access, doer);
  const issue = await readableIssue(h.db, ctx, index);
  if (issue.is_pull) return { kind: 'moved' };
  const [view, thread, links, watching] = await Promise.all([
    issueView(h.db, issue, access),
    loadThread(h, ctx, issue),
    linksOf(h.db, ctx, issue),
    doer ? isWatchingIssue(h.db, doer, issue) : Promise.resolve(null),
  ]);
  const rights = rightsOf(ctx, view, doer);
  return {
    ctx, view, thread, rights, watching, links,
    body: await renderStored(h, doer, access, issue.content, { kind: 'issue', id: issue.id, updatedUnix: issue.updated_unix }),
    bodyDigest: textDigest(issue.content),
    choices: rights.write ? await choicesOf(h.db, ctx, view) : null,
  };
}
