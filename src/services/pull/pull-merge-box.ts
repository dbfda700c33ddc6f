import type { DB } from '../../db/connect';
import type { CommitStatus, PullRequest, User } from '../../db/schema';
import { combineStates, type StatusState } from '../../lib/commit-state';
import { latestCommitStatuses } from '../../models/commit-status';
import { getUserById } from '../../models/user';
import { canWrite } from '../issue/issue-access';
import { ACCESS } from '../permissions';
import { settingsOf } from '../repo/repo-settings';
import type { RepoAccess } from '../repo/repos';
import { headRepoAccess } from './pull-merge-land';
import { defaultMergeMessage, isWip, MERGE_DO, styleAllowed, type MergeDo } from './pull-merge';
import { protectionFacts, type ProtectionFacts } from './pull-protection';
import type { LoadedPull } from './pull-views';
import type { Hearth } from '../../hearth';

// What the merge box of a pull request page shows: whether it merges cleanly (and which files
// conflict), the head's commit statuses, the base branch's protection and where the pull
// request stands against it, and what the visitor may do (the styles the repository allows
// with their default messages, scheduling, updating the head branch). The merge itself is the
// API's service (mergeOrSchedule), which checks all of this again.

export type MergeStyleChoice = { style: MergeDo; title: string; message: string };

export type MergeBox = {
  conflicts: string[];
  statuses: CommitStatus[];
  /** Combined state of the head's statuses; null when there are none. */
  statusState: StatusState | null;
  /** The base branch's rule as it applies to the visitor; null without a rule or a visitor. */
  protection: ProtectionFacts | null;
  /** The visitor writes pull requests and is on the merge whitelist. */
  canMerge: boolean;
  styles: MergeStyleChoice[];
  defaultStyle: MergeDo;
  deleteBranchDefault: boolean;
  /** The visitor may delete the head branch (writes the head repository; not its default branch). */
  canDeleteBranch: boolean;
  /** Who scheduled "merge when checks succeed", when it is. */
  scheduledBy: User | null;
  /** The visitor may cancel that schedule (its scheduler or an admin). */
  canCancelSchedule: boolean;
  /** The head is behind the base and the visitor may bring it up to date: with which styles. */
  updateStyles: ('merge' | 'rebase')[];
  wip: boolean;
};

function planDoer(stored: string): number {
  try {
    return Number((JSON.parse(stored) as { doer_id?: unknown }).doer_id) || 0;
  } catch {
    return 0;
  }
}

async function headWritable(db: DB, access: RepoAccess, loaded: LoadedPull, doer: User | null): Promise<{ write: boolean; isDefault: boolean }> {
  if (!doer) return { write: false, isDefault: false };
  const head = await headRepoAccess(db, loaded.pr, doer);
  if (!head) return { write: false, isDefault: false };
  const maintainer = loaded.pr.allow_maintainer_edit === 1 && access.mode >= ACCESS.write;
  const write = !head.repo.is_archived && !head.repo.is_mirror && (head.mode >= ACCESS.write || maintainer);
  return { write, isDefault: head.repo.default_branch === loaded.pr.head_branch };
}

/** The styles the repository allows, each with the message a merge in that style would write. */
function styleChoices(access: RepoAccess, loaded: LoadedPull, headLabel: string): MergeStyleChoice[] {
  const styles = MERGE_DO.filter((s) => s !== 'manually-merged' && styleAllowed(access, s));
  return styles.map((style) => {
    const [title, ...rest] = defaultMergeMessage({ Do: style }, loaded.issue, loaded.pr, headLabel).trimEnd().split('\n');
    return { style, title: title ?? '', message: rest.join('\n').trim() };
  });
}

export async function mergeBox(h: Hearth, access: RepoAccess, loaded: LoadedPull, headLabel: string): Promise<MergeBox> {
  const { pr, issue, ctx } = loaded;
  const doer = ctx.doer;
  const { rows: statuses } = await latestCommitStatuses(h.db, access.repo.id, pr.head_commit_id, { offset: 0, limit: 100 });
  const protection = doer ? await protectionFacts(h, access, doer, pr) : null;
  const head = await headWritable(h.db, access, loaded, doer);
  const settings = settingsOf(access.repo);
  const styles = styleChoices(access, loaded, headLabel);
  const scheduler = pr.auto_merge ? planDoer(pr.auto_merge) : 0;
  const open = !pr.has_merged && !issue.is_closed;
  return {
    conflicts: conflictsOf(pr),
    statuses, statusState: statuses.length ? combineStates(statuses.map((s) => s.state)) : null,
    protection: protection?.rule ? protection : null,
    canMerge: open && !access.repo.is_archived && canWrite(ctx, true) && (protection?.mayMerge ?? false),
    styles,
    defaultStyle: styles.find((s) => s.style === settings.default_merge_style)?.style ?? styles[0]?.style ?? 'merge',
    deleteBranchDefault: settings.default_delete_branch_after_merge,
    canDeleteBranch: head.write && !head.isDefault,
    scheduledBy: scheduler ? (await getUserById(h.db, scheduler)) ?? null : null,
    canCancelSchedule: !!pr.auto_merge && !!doer && (scheduler === doer.id || access.mode >= ACCESS.admin),
    updateStyles: open && pr.commits_behind > 0 && head.write ? (settings.allow_rebase_update ? ['merge', 'rebase'] : ['merge']) : [],
    wip: isWip(issue.title),
  };
}

function conflictsOf(pr: PullRequest): string[] {
  try {
    const files = JSON.parse(pr.conflicted_files) as unknown;
    return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}
