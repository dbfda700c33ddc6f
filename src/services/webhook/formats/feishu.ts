// Feishu (Lark) bot text messages, as Gitea's services/webhook/feishu.go writes them.

import type { Convertor } from './convert';
import {
  noneLink, packagePayloadInfo, releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo,
  workflowJobPayloadInfo, workflowRunPayloadInfo,
} from './general';
import { refShortName, trimRight } from './go-compat';
import { repoOf, type CommentPayload, type IssuePayload, type PIssue, type PullPayload, type PushPayload } from './payloads';

export interface FeishuPayload {
  msg_type: string;
  content: { text: string };
}

function text(s: string): FeishuPayload {
  return { msg_type: 'text', content: { text: s.trim() } };
}

/**
 * Gitea's getIssuesInfo / getPullRequestInfo: a title line, the link, the author and operator
 * lines, and for (un)assignments and milestones what was done.
 */
function issueLines(kind: 'Issue' | 'PullRequest', p: IssuePayload | PullPayload, issue: PIssue): string[] {
  const repo = repoOf(p);
  const assignees = issue.assignees ?? [];
  const sender = p.sender.login;
  const action = p.action ?? '';
  let result = '';
  if (action === 'assigned') result = `${sender} assign this to ${assignees[assignees.length - 1]?.login ?? ''}`;
  if (action === 'unassigned') result = `${sender} unassigned this for someone`;
  if (action === 'milestoned') result = `${repo.html_url}/milestone/${issue.milestone?.id ?? 0}`;
  const lines = [
    `[${kind}-${repo.full_name} #${issue.number}]: ${action}\n${issue.title}`,
    issue.html_url, `${kind} by ${issue.user.login}`, `Operator: ${sender}`,
  ];
  if (assignees.length === 0) return lines;
  if (action === 'assigned' || action === 'unassigned' || action === 'milestoned') lines.push(result);
  lines.push(`Assignees: ${assignees.map((u) => u.login).join(', ')}`);
  return lines;
}

function issue(p: IssuePayload): FeishuPayload {
  return text(`${issueLines('Issue', p, p.issue).join('\n')}\n\n${p.issue.body}`);
}

function pullRequest(p: PullPayload): FeishuPayload {
  return text(`${issueLines('PullRequest', p, p.pull_request).join('\n')}\n\n${p.pull_request.body}`);
}

/** Gitea's getIssuesCommentInfo. */
function issueComment(p: CommentPayload): FeishuPayload {
  const title = `[Comment-${repoOf(p).full_name} #${p.issue.number}]: ${p.action ?? ''}\n${p.issue.title}`;
  const by = `${p.is_pull ? 'PullRequest' : 'Issue'} by ${p.issue.user.login}`;
  return text(`${title}\n${p.issue.html_url}\n${by}\nOperator: ${p.sender.login}\n\n${p.comment.body}`);
}

function push(p: PushPayload): FeishuPayload {
  // Gitea leaves the commit count out of the first line (its commitDesc stays empty).
  const head = `[${repoOf(p).full_name}:${refShortName(p.ref)}] \r\n`;
  const commits = (p.commits ?? []).map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${trimRight(c.message, '\r\n')}`
    + (c.author ? ` - ${c.author.name}` : ''));
  return text(head + commits.join('\r\n'));
}

export const feishuConvertor: Convertor<FeishuPayload> = {
  create: (p) => text(`[${repoOf(p).full_name}] ${p.ref_type} ${refShortName(p.ref)} created`),
  delete: (p) => text(`[${repoOf(p).full_name}] ${p.ref_type} ${refShortName(p.ref)} deleted`),
  fork: (p) => text(`${p.forkee.full_name} is forked to ${repoOf(p).full_name}`),
  push,
  issue,
  issueComment,
  pullRequest,
  review: (p, event) => {
    const action = reviewAction(event);
    if (!action) return null;
    const title = `[${repoOf(p).full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}`;
    return text(`${title}\r\n\r\n${p.review?.content ?? ''}`);
  },
  repository: (p) => {
    if (p.action === 'created') return text(`[${repoOf(p).full_name}] Repository created`);
    if (p.action === 'deleted') return text(`[${repoOf(p).full_name}] Repository deleted`);
    return { msg_type: '', content: { text: '' } };
  },
  wiki: (p) => text(wikiPayloadInfo(p, noneLink, true).text),
  release: (p) => text(releasePayloadInfo(p, noneLink, true).text),
  package: (p) => text(packagePayloadInfo(p, noneLink, true).text),
  status: (p) => text(statusPayloadInfo(p, noneLink, true).text),
  workflowRun: (p) => text(workflowRunPayloadInfo(p, noneLink, true).text),
  workflowJob: (p) => text(workflowJobPayloadInfo(p, noneLink, true).text),
};
