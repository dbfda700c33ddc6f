// Discord webhook messages (one embed), as Gitea's services/webhook/discord.go writes them.

import type { Convertor } from './convert';
import {
  GREEN, GREY, RED, YELLOW,
  issueCommentPayloadInfo, issuesPayloadInfo, noneLink, packagePayloadInfo, pullRequestPayloadInfo,
  releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo,
  workflowRunPayloadInfo, pushSummary,
} from './general';
import { firstRunes, pathEscape, pathEscapeSegments, refShortName, runeCount } from './go-compat';
import {
  repoOf, userUrl,
  type CommentPayload, type IssuePayload, type PackagePayload, type PullPayload, type PushPayload, type PUser,
  type RefPayload, type ReleasePayload, type RepositoryPayload, type StatusPayload, type WikiPayload,
  type WorkflowJobPayload, type WorkflowRunPayload,
} from './payloads';
import type { HookEvent, HookMeta } from './types';

interface DiscordEmbed {
  title: string;
  description: string;
  url: string;
  color: number;
  footer: { text: string };
  author: { name: string; url: string; icon_url: string };
  fields: null;
}

export interface DiscordPayload {
  wait: boolean;
  content: string;
  username: string;
  avatar_url?: string;
  tts: boolean;
  embeds: DiscordEmbed[];
}

type Make = (sender: PUser, title: string, text: string, url: string, color: number) => DiscordPayload;

// Discord refuses embeds over its limits (256 for a title, 4096 for a description); cut them instead.
function limit(s: string, max: number): string {
  return runeCount(s) > max ? `${firstRunes(s, max - 3)}...` : s;
}

function refMessage(make: Make, p: RefPayload, verb: string, color: number): DiscordPayload {
  const repo = repoOf(p);
  const refName = refShortName(p.ref);
  const title = `[${repo.full_name}] ${p.ref_type} ${refName} ${verb}`;
  return make(p.sender, title, '', `${repo.html_url}/src/${pathEscapeSegments(refName)}`, color);
}

function push(make: Make, p: PushPayload): DiscordPayload {
  const { repo, commits, branchName, commitDesc, titleLink } = pushSummary(p);
  const text = commits.map((c) => {
    // Only the summary line, cut at 50 like GitHub does, keeps the list readable.
    let message = c.message.split('\n')[0].replace(/\r+$/, '');
    if (runeCount(message) > 50) message = `${firstRunes(message, 47)}...`;
    return `[${c.id.slice(0, 7)}](${c.url}) ${message} - ${c.author?.name ?? ''}`;
  }).join('\n');
  return make(p.sender, `[${repo.full_name}:${branchName}] ${commitDesc}`, text, titleLink, GREEN);
}

const REVIEW_COLORS: Record<string, number> = {
  pull_request_review_approved: GREEN, pull_request_review_rejected: RED, pull_request_review_comment: GREY,
};

function review(make: Make, p: PullPayload, event: HookEvent): DiscordPayload | null {
  if (p.action !== 'reviewed') return make(p.sender, '', '', p.pull_request.html_url, 0);
  const action = reviewAction(event);
  if (!action) return null;
  const title = `[${repoOf(p).full_name}] Pull request review ${action}: #${p.number} ${p.pull_request.title}`;
  return make(p.sender, title, p.review?.content ?? '', p.pull_request.html_url, REVIEW_COLORS[event] ?? YELLOW);
}

function infoHandlers(make: Make) {
  return {
    issue: (p: IssuePayload) => {
      const info = issuesPayloadInfo(p, noneLink, false);
      return make(p.sender, info.text, info.extraMarkdown, p.issue.html_url, info.color);
    },
    issueComment: (p: CommentPayload) => {
      const info = issueCommentPayloadInfo(p, noneLink, false);
      return make(p.sender, info.text, p.comment.body, p.comment.html_url, info.color);
    },
    pullRequest: (p: PullPayload) => {
      const info = pullRequestPayloadInfo(p, noneLink, false);
      return make(p.sender, info.text, info.extraMarkdown, p.pull_request.html_url, info.color);
    },
    wiki: (p: WikiPayload) => {
      const { text, color } = wikiPayloadInfo(p, noneLink, false);
      const url = `${repoOf(p).html_url}/wiki/${pathEscape(p.page)}`;
      return make(p.sender, text, p.action === 'deleted' ? '' : p.comment ?? '', url, color);
    },
    release: (p: ReleasePayload) => {
      const { text, color } = releasePayloadInfo(p, noneLink, false);
      return make(p.sender, text, p.release.body ?? '', p.release.html_url, color);
    },
    package: (p: PackagePayload) => {
      const { text, color } = packagePayloadInfo(p, noneLink, false);
      return make(p.sender, text, '', p.package.html_url, color);
    },
    status: (p: StatusPayload) => {
      const { text, color } = statusPayloadInfo(p, noneLink, false);
      return make(p.sender, text, '', p.target_url ?? '', color);
    },
    workflowRun: (p: WorkflowRunPayload) => {
      const { text, color } = workflowRunPayloadInfo(p, noneLink, false);
      return make(p.sender, text, '', p.workflow_run.html_url ?? '', color);
    },
    workflowJob: (p: WorkflowJobPayload) => {
      const { text, color } = workflowJobPayloadInfo(p, noneLink, false);
      return make(p.sender, text, '', p.workflow_job.html_url ?? '', color);
    },
  };
}

function repository(make: Make, p: RepositoryPayload): DiscordPayload {
  const repo = repoOf(p);
  if (p.action === 'created') return make(p.sender, `[${repo.full_name}] Repository created`, '', repo.html_url, GREEN);
  if (p.action === 'deleted') return make(p.sender, `[${repo.full_name}] Repository deleted`, '', '', RED);
  return make(p.sender, '', '', '', 0);
}

/** The Discord converter for one hook's settings (username, icon_url). */
export function discordConvertor(meta: HookMeta): Convertor<DiscordPayload> {
  const make: Make = (sender, title, text, url, color) => ({
    wait: false,
    content: '',
    username: meta.username ?? '',
    ...(meta.icon_url ? { avatar_url: meta.icon_url } : {}),
    tts: false,
    embeds: [{
      title: limit(title, 256), description: limit(text, 4096), url, color, footer: { text: '' },
      author: { name: sender.login, url: userUrl(sender, {}), icon_url: sender.avatar_url ?? '' },
      fields: null,
    }],
  });
  return {
    ...infoHandlers(make),
    create: (p) => refMessage(make, p, 'created', GREEN),
    delete: (p) => refMessage(make, p, 'deleted', RED),
    fork: (p) => make(p.sender, `${p.forkee.full_name} is forked to ${repoOf(p).full_name}`, '', repoOf(p).html_url, GREEN),
    push: (p) => push(make, p),
    review: (p, event) => review(make, p, event),
    repository: (p) => repository(make, p),
  };
}
