// Slack incoming-webhook messages, as Gitea's services/webhook/slack.go writes them.

import type { Convertor } from './convert';
import {
  issueCommentPayloadInfo, issuesPayloadInfo, packagePayloadInfo, pullRequestPayloadInfo, releasePayloadInfo,
  reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo, workflowRunPayloadInfo,
  type LinkFormatter,
} from './general';
import { hexColor, refShortName, refUrl } from './go-compat';
import {
  repoOf, userUrl,
  type CommentPayload, type IssuePayload, type PRepo, type PullPayload, type PushPayload, type RepositoryPayload,
} from './payloads';
import type { HookEvent, HookMeta } from './types';

interface SlackAttachment {
  fallback: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
}

export interface SlackPayload {
  channel: string;
  text: string;
  username: string;
  icon_url: string;
  unfurl_links: number;
  link_names: number;
  attachments: SlackAttachment[] | null;
}

/** Gitea's SlackTextFormatter: Slack's three control characters as entities. */
export function slackText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function slackShortText(s: string): string {
  return slackText(s.split('\n')[0]);
}

export const slackLink: LinkFormatter = (url, text) => `<${url}|${slackText(text)}>`;

function repoLink(repo: PRepo): string {
  return slackLink(repo.html_url, repo.full_name);
}

function attachment(color: string, title: string, titleLink: string, text: string): SlackAttachment {
  return { fallback: '', color, title, title_link: titleLink, text };
}

function pushMessage(p: PushPayload): { text: string; commits: string } {
  const repo = repoOf(p);
  const desc = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
  const commitString = p.compare_url ? slackLink(p.compare_url, desc) : desc;
  const branchLink = slackLink(refUrl(repo.html_url, p.ref), refShortName(p.ref));
  const text = `[${repoLink(repo)}:${branchLink}] ${commitString} pushed by ${p.pusher?.login ?? ''}`;
  const commits = (p.commits ?? []).map((c) =>
    `${slackLink(c.url, c.id.slice(0, 7))}: ${slackShortText(c.message)} - ${slackText(c.author?.name ?? '')}`);
  return { text, commits: commits.join('\n') };
}

type Make = (text: string, attachments?: SlackAttachment[] | null) => SlackPayload;

function attachmentHandlers(make: Make, color: string) {
  return {
    push: (p: PushPayload) => {
      const { text, commits } = pushMessage(p);
      const repo = repoOf(p);
      return make(text, [attachment(color, repo.html_url, repo.html_url, commits)]);
    },
    issue: (p: IssuePayload) => {
      const info = issuesPayloadInfo(p, slackLink, true);
      if (!info.extraMarkdown) return make(info.text);
      const extra = attachment(hexColor(info.color), slackText(info.issueTitle), p.issue.html_url,
        slackText(info.extraMarkdown));
      return make(info.text, [extra]);
    },
    issueComment: (p: CommentPayload) => {
      const info = issueCommentPayloadInfo(p, slackLink, true);
      return make(info.text,
        [attachment(hexColor(info.color), info.issueTitle, p.comment.html_url, slackText(p.comment.body))]);
    },
    pullRequest: (p: PullPayload) => {
      const info = pullRequestPayloadInfo(p, slackLink, true);
      if (!info.extraMarkdown) return make(info.text);
      // Gitea shows the pull request's body here even when the extra text is a review's.
      const extra = attachment(hexColor(info.color), slackText(info.issueTitle), p.pull_request.html_url,
        slackText(p.pull_request.body));
      return make(info.text, [extra]);
    },
  };
}

function review(make: Make, p: PullPayload, event: HookEvent): SlackPayload | null {
  if (p.action !== 'reviewed') return make('');
  const action = reviewAction(event);
  if (!action) return null;
  const repo = repoOf(p);
  const senderLink = slackLink(userUrl(p.sender, p), p.sender.login);
  const title = `#${p.number} ${p.pull_request.title}`;
  const titleLink = `${repo.html_url}/pulls/${p.number}`;
  return make(`[${repoLink(repo)}] Pull request review ${action}: [${title}](${titleLink}) by ${senderLink}`);
}

function repository(make: Make, p: RepositoryPayload): SlackPayload {
  const senderLink = slackLink(userUrl(p.sender, p), p.sender.login);
  if (p.action === 'created') return make(`[${repoLink(repoOf(p))}] Repository created by ${senderLink}`);
  if (p.action === 'deleted') return make(`[${repoLink(repoOf(p))}] Repository deleted by ${senderLink}`);
  return make('');
}

/** The Slack converter for one hook's settings (channel, username, icon_url, color). */
export function slackConvertor(meta: HookMeta): Convertor<SlackPayload> {
  const make: Make = (text, attachments = null) => ({
    channel: meta.channel ?? '', text, username: meta.username ?? '', icon_url: meta.icon_url ?? '',
    unfurl_links: 0, link_names: 0, attachments,
  });
  return {
    ...attachmentHandlers(make, meta.color ?? ''),
    create: (p) => {
      const repo = repoOf(p);
      const refLink = slackLink(refUrl(repo.html_url, p.ref), refShortName(p.ref));
      return make(`[${repoLink(repo)}:${refLink}] ${p.ref_type} created by ${p.sender.login}`);
    },
    delete: (p) => make(`[${repoLink(repoOf(p))}:${refShortName(p.ref)}] ${p.ref_type} deleted by ${p.sender.login}`),
    fork: (p) => make(`${repoLink(p.forkee)} is forked to ${repoLink(repoOf(p))}`),
    review: (p, event) => review(make, p, event),
    repository: (p) => repository(make, p),
    release: (p) => make(releasePayloadInfo(p, slackLink, true).text),
    wiki: (p) => make(wikiPayloadInfo(p, slackLink, true).text),
    package: (p) => make(packagePayloadInfo(p, slackLink, true).text),
    status: (p) => make(statusPayloadInfo(p, slackLink, true).text),
    workflowRun: (p) => make(workflowRunPayloadInfo(p, slackLink, true).text),
    workflowJob: (p) => make(workflowJobPayloadInfo(p, slackLink, true).text),
  };
}

// Gitea's IsValidSlackChannel: Slack's naming rule, optionally prefixed with `#`.
const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;

export function isValidSlackChannel(name: string): boolean {
  return SLACK_CHANNEL.test(name);
}
