// The texts Gitea's chat formats share (services/webhook/general.go): one sentence per action,
// with links written by the format's link formatter.

import { htmlEscape, pathEscape, pathEscapeSegments, refShortName } from './go-compat';
import {
  repoOf, userUrl,
  type CommentPayload, type IssuePayload, type PackagePayload, type PullPayload, type PushPayload, type PUser, type ReleasePayload,
  type StatusPayload, type WikiPayload, type WorkflowJobPayload, type WorkflowRef, type WorkflowRunPayload,
} from './payloads';

export type LinkFormatter = (url: string, text: string) => string;

export const noneLink: LinkFormatter = (_url, text) => text;
export const htmlLink: LinkFormatter = (url, text) => `<a href="${htmlEscape(url)}">${htmlEscape(text)}</a>`;

// Gitea's colours (discord.go), shared by every format that shows one.
export const GREEN = 0x1ac600;
export const GREEN_LIGHT = 0xbfe5bf;
export const YELLOW = 0xffd930;
export const GREY = 0x4f545c;
export const PURPLE = 0x7289da;
export const ORANGE = 0xeb6420;
export const ORANGE_LIGHT = 0xe68d60;
export const RED = 0xff3232;

export interface IssueInfo { text: string; issueTitle: string; extraMarkdown: string; color: number }
export interface TextInfo { text: string; color: number }

type Sender = { sender: PUser; repository?: IssuePayload['repository']; repo?: IssuePayload['repo'] };

function bySender(p: Sender, link: LinkFormatter): string {
  return ` by ${link(userUrl(p.sender, p), p.sender.login)}`;
}

// Actions whose sentence is only "<label>: <title link>", with their colour.
const PLAIN_ISSUE_ACTIONS: Record<string, [string, number]> = {
  opened: ['opened', ORANGE], closed: ['closed', RED], reopened: ['re-opened', YELLOW],
  edited: ['edited', YELLOW], unassigned: ['unassigned', YELLOW], label_updated: ['labels updated', YELLOW],
  label_cleared: ['labels cleared', YELLOW], synchronized: ['synchronized', YELLOW],
  demilestoned: ['milestone cleared', YELLOW], reviewed: ['reviewed', YELLOW],
  review_requested: ['review requested', YELLOW], review_request_removed: ['review request removed', YELLOW],
};

interface Subject {
  kind: 'Issue' | 'Pull request';
  action: string;
  repoLink: string;
  titleLink: string;
  assignees: PUser[];
  milestone: { id: number; title: string } | null | undefined;
  repoUrl: string;
}

function actionSentence(s: Subject, link: LinkFormatter, p: Sender): { text: string; color: number } {
  const head = `[${s.repoLink}] ${s.kind}`;
  if (s.action === 'assigned') {
    const names = s.assignees.map((u) => link(userUrl(u, p), u.login)).join(', ');
    return { text: `${head} assigned to ${names}: ${s.titleLink}`, color: GREEN };
  }
  if (s.action === 'milestoned') {
    const milestone = link(`${s.repoUrl}/milestone/${s.milestone?.id ?? 0}`, s.milestone?.title ?? '');
    return { text: `${head} milestoned to ${milestone}: ${s.titleLink}`, color: YELLOW };
  }
  const plain = PLAIN_ISSUE_ACTIONS[s.action];
  // Issues know no review actions; an unknown action leaves the sentence empty, as in Gitea.
  if (!plain || (s.kind === 'Issue' && s.action.startsWith('review'))) return { text: '', color: YELLOW };
  return { text: `${head} ${plain[0]}: ${s.titleLink}`, color: plain[1] };
}

/** Gitea's getIssuesPayloadInfo. */
export function issuesPayloadInfo(p: IssuePayload, link: LinkFormatter, withSender: boolean): IssueInfo {
  const repo = repoOf(p);
  const issueTitle = `#${p.number} ${p.issue.title}`;
  const subject: Subject = {
    kind: 'Issue', action: p.action ?? '', repoUrl: repo.html_url,
    repoLink: link(repo.html_url, repo.full_name),
    titleLink: link(`${repo.html_url}/issues/${p.number}`, issueTitle),
    assignees: p.issue.assignees ?? [], milestone: p.issue.milestone,
  };
  const { text, color } = actionSentence(subject, link, p);
  const extraMarkdown = p.action === 'opened' || p.action === 'edited' ? p.issue.body : '';
  return { text: withSender ? text + bySender(p, link) : text, issueTitle, extraMarkdown, color };
}

/** Gitea's getPullRequestPayloadInfo. */
export function pullRequestPayloadInfo(p: PullPayload, link: LinkFormatter, withSender: boolean): IssueInfo {
  const repo = repoOf(p);
  const pr = p.pull_request;
  const issueTitle = `#${p.number} ${pr.title}`;
  const subject: Subject = {
    kind: 'Pull request', action: p.action ?? '', repoUrl: repo.html_url,
    repoLink: link(repo.html_url, repo.full_name),
    titleLink: link(pr.url ?? pr.html_url, issueTitle),
    assignees: pr.assignees ?? [], milestone: pr.milestone,
  };
  let { text, color } = actionSentence(subject, link, p);
  if (p.action === 'opened') color = GREEN;
  if (p.action === 'closed' && pr.merged) {
    text = `[${subject.repoLink}] Pull request merged: ${subject.titleLink}`;
    color = PURPLE;
  }
  let extraMarkdown = '';
  if (p.action === 'opened' || p.action === 'edited') extraMarkdown = pr.body;
  if (p.action === 'reviewed') extraMarkdown = p.review?.content ?? '';
  return { text: withSender ? text + bySender(p, link) : text, issueTitle, extraMarkdown, color };
}

/** Gitea's getIssueCommentPayloadInfo. */
export function issueCommentPayloadInfo(p: CommentPayload, link: LinkFormatter, withSender: boolean) {
  const repo = repoOf(p);
  const repoLink = link(repo.html_url, repo.full_name);
  const issueTitle = `#${p.issue.number} ${p.issue.title}`;
  const typ = p.is_pull ? 'pull request' : 'issue';
  const titleLink = link((p.is_pull ? p.comment.pull_request_url : p.comment.issue_url) ?? '', issueTitle);
  let text = '';
  let color = YELLOW;
  if (p.action === 'created') {
    text = `[${repoLink}] New comment on ${typ} ${titleLink}`;
    color = p.is_pull ? GREEN_LIGHT : ORANGE_LIGHT;
  } else if (p.action === 'edited') {
    text = `[${repoLink}] Comment edited on ${typ} ${titleLink}`;
  } else if (p.action === 'deleted') {
    text = `[${repoLink}] Comment deleted on ${typ} ${titleLink}`;
    color = RED;
  }
  return { text: withSender ? text + bySender(p, link) : text, issueTitle, color };
}

const RELEASE_ACTIONS: Record<string, [string, number]> = {
  published: ['created', GREEN], updated: ['updated', YELLOW], deleted: ['deleted', RED],
};

/** Gitea's getReleasePayloadInfo. */
export function releasePayloadInfo(p: ReleasePayload, link: LinkFormatter, withSender: boolean): TextInfo {
  const repo = repoOf(p);
  const repoLink = link(repo.html_url, repo.full_name);
  const tag = p.release.tag_name;
  const refLink = link(`${repo.html_url}/releases/tag/${pathEscapeSegments(tag)}`, tag);
  const known = RELEASE_ACTIONS[p.action ?? ''];
  const text = known ? `[${repoLink}] Release ${known[0]}: ${refLink}` : '';
  return { text: withSender ? text + bySender(p, link) : text, color: known ? known[1] : 0 };
}

/** Gitea's getWikiPayloadInfo; also answers the page link. */
export function wikiPayloadInfo(p: WikiPayload, link: LinkFormatter, withSender: boolean) {
  const repo = repoOf(p);
  const repoLink = link(repo.html_url, repo.full_name);
  const pageLink = link(`${repo.html_url}/wiki/${pathEscape(p.page)}`, p.page);
  let text = '';
  let color = GREEN;
  if (p.action === 'created') text = `[${repoLink}] New wiki page '${pageLink}'`;
  if (p.action === 'edited') [text, color] = [`[${repoLink}] Wiki page '${pageLink}' edited`, YELLOW];
  if (p.action === 'deleted') [text, color] = [`[${repoLink}] Wiki page '${pageLink}' deleted`, RED];
  if (p.action !== 'deleted' && p.comment) text += ` (${p.comment})`;
  return { text: withSender ? text + bySender(p, link) : text, color, pageLink };
}

/** Gitea's getPackagePayloadInfo. */
export function packagePayloadInfo(p: PackagePayload, link: LinkFormatter, withSender: boolean): TextInfo {
  const refLink = link(p.package.html_url, `${p.package.name}:${p.package.version}`);
  let text = '';
  let color = 0;
  if (p.action === 'created') [text, color] = [`Package created: ${refLink}`, GREEN];
  if (p.action === 'deleted') [text, color] = [`Package deleted: ${refLink}`, RED];
  return { text: withSender ? text + bySender(p, link) : text, color };
}

/** Gitea's getStatusPayloadInfo. */
export function statusPayloadInfo(p: StatusPayload, link: LinkFormatter, withSender: boolean): TextInfo {
  const refLink = link(p.target_url ?? '', `${p.context}[${p.sha}]:${p.description ?? ''}`);
  const text = `Commit Status changed: ${refLink}`;
  return { text: withSender ? text + bySender(p, link) : text, color: GREEN };
}

const WORKFLOW_COLORS: Record<string, number> = {
  waiting: ORANGE, queued: ORANGE_LIGHT, success: GREEN, failure: RED, cancelled: YELLOW, skipped: PURPLE,
};

function workflowInfo(kind: string, w: WorkflowRef, label: string, p: Sender & { action?: string },
  link: LinkFormatter, withSender: boolean): TextInfo {
  const description = w.conclusion || w.status || '';
  const refLink = link(w.html_url ?? '', `${label}[${(w.head_sha ?? '').slice(0, 10)}]:${description}`);
  const text = `Workflow ${kind} ${p.action ?? ''}: ${refLink}`;
  return { text: withSender ? text + bySender(p, link) : text, color: WORKFLOW_COLORS[description] ?? GREY };
}

/** Gitea's getWorkflowRunPayloadInfo. */
export function workflowRunPayloadInfo(p: WorkflowRunPayload, link: LinkFormatter, withSender: boolean): TextInfo {
  const run = p.workflow_run;
  return workflowInfo('Run', run, `${run.display_title ?? ''}(#${run.id ?? 0})`, p, link, withSender);
}

/** Gitea's getWorkflowJobPayloadInfo. */
export function workflowJobPayloadInfo(p: WorkflowJobPayload, link: LinkFormatter, withSender: boolean): TextInfo {
  const job = p.workflow_job;
  return workflowInfo('Job', job, `${job.name ?? ''}(#${job.run_id ?? 0})`, p, link, withSender);
}

/** Gitea's parseHookPullRequestEventType: the review verb, or null for other events. */
export function reviewAction(event: string): string | null {
  if (event === 'pull_request_review_approved') return 'approved';
  if (event === 'pull_request_review_rejected') return 'rejected';
  if (event === 'pull_request_review_comment') return 'comment';
  return null;
}

/** What every chat format's push message starts from (Gitea repeats it in each): the branch, "N new commits", the link. */
export function pushSummary(p: PushPayload) {
  const repo = repoOf(p);
  const commits = p.commits ?? [];
  const branchName = refShortName(p.ref);
  const single = p.total_commits === 1;
  const commitDesc = single ? '1 new commit' : `${p.total_commits} new commits`;
  const titleLink = (single ? commits[0]?.url : p.compare_url) || `${repo.html_url}/src/${pathEscapeSegments(branchName)}`;
  return { repo, commits, branchName, commitDesc, titleLink, single };
}
