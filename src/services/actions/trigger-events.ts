import type { Comment, Issue, Release } from '../../db/schema';
import type { RefUpdate } from '../../git/hooks';
import { resolveCommit } from '../../git/log';
import { getPullByIssueId } from '../../models/pull';
import { refreshPull } from '../pull/pull-git';
import { commentPayload, issuePayload, releasePayload, type PayloadContext } from '../webhook/payloads';
import { createPayload, deletePayload, isZero, pushPayload } from '../webhook/push-payloads';
import { commitMessage } from './enabled';
import type { Detection } from './detect';
import { changedFiles, listWorkflowFiles } from './workflow-files';

// What each domain event means for workflows (Gitea's actions notifier): the GitHub event name
// and activity type, the commit whose workflows run (push: the pushed commit; pull_request: the
// head; pull_request_target: the base; delete, issues, comments: the default branch; release:
// its tag) and the event payload (`github.event`), which is the webhook payload.

export type Base = Pick<Detection, 'repo' | 'owner' | 'doer' | 'dir'>;
type Out = Omit<Detection, keyof Base>;

/** Most repositories have no workflows: nothing is read or built for them. */
const hasWorkflows = async (b: Base, sha: string) => (await listWorkflowFiles(b.dir, sha)).length > 0;

/** The default branch's head, when it has workflows. */
async function defaultBranch(b: Base): Promise<{ ref: string; sha: string } | null> {
  const ref = `refs/heads/${b.repo.default_branch}`;
  const sha = await resolveCommit(b.dir, ref);
  return sha && (await hasWorkflows(b, sha)) ? { ref, sha } : null;
}

const skipped = (text: string, skip: string[]) => skip.some((s) => s && text.includes(s));

/** A moved ref: create / delete events and the push itself. */
export async function refDetections(b: Base, c: PayloadContext, u: RefUpdate, skip: string[]): Promise<Out[]> {
  const out: Out[] = [];
  const tag = u.ref.startsWith('refs/tags/');
  if (!tag && !u.ref.startsWith('refs/heads/')) return out;
  if (isZero(u.newId)) {
    const def = await defaultBranch(b);
    if (def) out.push({ ...def, trigger: { event: 'delete' }, payload: deletePayload(c, u) });
    return out;
  }
  if (!(await hasWorkflows(b, u.newId))) return out;
  if (isZero(u.oldId)) out.push({ ref: u.ref, sha: u.newId, trigger: { event: 'create' }, payload: createPayload(c, u) });
  if (skipped(await commitMessage(b.dir, u.newId), skip)) return out;
  const files = await changedFiles(b.dir, u.oldId, u.newId);
  out.push({
    ref: u.ref, sha: u.newId, trigger: { event: 'push', ref: u.ref, changedFiles: async () => files },
    payload: await pushPayload(c, b.dir, b.doer, u), touched: files,
  });
  return out;
}

// Gitea's hook actions to GitHub's activity types.
const GITHUB_ACTION: Record<string, string> = { synchronized: 'synchronize', label_updated: 'labeled', label_cleared: 'unlabeled' };

/** An issue or pull request event (Gitea action names: opened, closed, synchronized, label_updated...). */
export async function issueDetections(b: Base, c: PayloadContext, issue: Issue, action: string, skip: string[]): Promise<Out[]> {
  const ghAction = GITHUB_ACTION[action] ?? action;
  if (!issue.is_pull) {
    const def = await defaultBranch(b);
    return def ? [{ ...def, trigger: { event: 'issues', action: ghAction }, payload: await issuePayload(c, issue, action) }] : [];
  }
  const stored = await getPullByIssueId(c.db, issue.id);
  if (!stored || skipped(issue.title, skip)) return [];
  // refs/pull/N/head follows the head branch lazily: bring it up to date first.
  const pr = await refreshPull(c.h, stored);
  const out: Out[] = [];
  const headRef = `refs/pull/${pr.index}/head`;
  const headSha = (await resolveCommit(b.dir, headRef)) ?? pr.head_commit_id;
  const baseRef = `refs/heads/${pr.base_branch}`;
  const baseSha = await resolveCommit(b.dir, baseRef);
  const files = async () => (baseSha && headSha ? changedFiles(b.dir, pr.merge_base || baseSha, headSha) : []);
  const trigger = { action: ghAction, ref: pr.base_branch, changedFiles: files };
  const fork = pr.head_repo_id !== pr.base_repo_id;
  const payload = await issuePayload(c, issue, action);
  if (headSha && (await hasWorkflows(b, headSha))) out.push({ ref: headRef, sha: headSha, trigger: { event: 'pull_request', ...trigger }, payload, isForkPull: fork });
  if (baseSha && (await hasWorkflows(b, baseSha))) out.push({ ref: baseRef, sha: baseSha, trigger: { event: 'pull_request_target', ...trigger }, payload, isForkPull: fork });
  return out;
}

export async function commentDetections(b: Base, c: PayloadContext, issue: Issue, comment: Comment, action: string): Promise<Out[]> {
  const def = await defaultBranch(b);
  if (!def) return [];
  return [{ ...def, trigger: { event: 'issue_comment', action }, payload: await commentPayload(c, issue, comment, action) }];
}

export async function releaseDetections(b: Base, c: PayloadContext, release: Release, action: string): Promise<Out[]> {
  const ref = `refs/tags/${release.tag_name}`;
  const sha = (await resolveCommit(b.dir, ref)) ?? (await defaultBranch(b))?.sha;
  if (!sha || !(await hasWorkflows(b, sha))) return [];
  const ghAction = action === 'updated' ? 'edited' : action;
  return [{ ref, sha, trigger: { event: 'release', action: ghAction }, payload: await releasePayload(c, release, action) }];
}
