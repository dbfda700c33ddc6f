// Telegram sendMessage bodies (HTML parse mode), as Gitea's services/webhook/telegram.go writes them.

import type { Convertor } from './convert';
import {
  htmlLink, issueCommentPayloadInfo, issuesPayloadInfo, packagePayloadInfo, pullRequestPayloadInfo,
  releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo,
  workflowRunPayloadInfo, pushSummary,
} from './general';
import { htmlEscape, htmlUnescape, pathEscapeSegments, refShortName, trimRight } from './go-compat';
import { repoOf, type PullPayload, type PushPayload, type RefPayload, type RepositoryPayload } from './payloads';
import type { HookEvent } from './types';

export interface TelegramPayload {
  text: string;
  parse_mode: string;
  disable_web_page_preview: boolean;
}

const LINK_TAG = /<a href="([^"]*)">|<\/a>/g;

function reescape(s: string): string {
  return htmlEscape(htmlUnescape(s));
}

/**
 * Gitea passes the message through its HTML sanitizer, which re-serialises text (so a literal `'`
 * becomes `&#39;`) and adds rel="nofollow" to links. The messages hold no tags but the links
 * written by htmlLink, so this does the same for them.
 */
function sanitize(message: string): string {
  let out = '';
  let last = 0;
  for (const m of message.matchAll(LINK_TAG)) {
    out += reescape(message.slice(last, m.index));
    out += m[1] === undefined ? '</a>' : `<a href="${reescape(m[1])}" rel="nofollow">`;
    last = m.index + m[0].length;
  }
  return out + reescape(message.slice(last));
}

/** Gitea's createTelegramPayloadHTML. */
function html(message: string): TelegramPayload {
  return { text: sanitize(message).trim(), parse_mode: 'HTML', disable_web_page_preview: true };
}

function refMessage(p: RefPayload, verb: string): TelegramPayload {
  const repo = repoOf(p);
  const refName = refShortName(p.ref);
  const refLink = htmlLink(`${repo.html_url}/src/${pathEscapeSegments(refName)}`, refName);
  return html(`[${htmlLink(repo.html_url, repo.full_name)}] ${htmlEscape(p.ref_type)} ${refLink} ${verb}`);
}

function push(p: PushPayload): TelegramPayload {
  const { repo, commits, branchName, commitDesc, titleLink } = pushSummary(p);
  const title = `[${htmlLink(repo.html_url, repo.full_name)}:${htmlLink(titleLink, branchName)}] ${htmlEscape(commitDesc)}`;
  const lines = commits.map((c) => `\n[${htmlLink(c.url, c.id.slice(0, 7))}] ${htmlEscape(trimRight(c.message, '\r\n'))}`
    + (c.author ? ` - ${htmlEscape(c.author.name)}` : ''));
  return html(title + lines.join(''));
}

function review(p: PullPayload, event: HookEvent): TelegramPayload | null {
  let text = '';
  let extra = '';
  if (p.action === 'reviewed') {
    const action = reviewAction(event);
    if (!action) return null;
    text = `[${htmlEscape(repoOf(p).full_name)}] Pull request review ${htmlEscape(action)}: `
      + `#${p.number} ${htmlEscape(p.pull_request.title)}`;
    extra = p.review?.content ?? '';
  }
  return html(`${text}\n${htmlEscape(extra)}`);
}

function repository(p: RepositoryPayload): TelegramPayload {
  const repo = repoOf(p);
  if (p.action === 'created') return html(`[${htmlLink(repo.html_url, repo.full_name)}] Repository created`);
  if (p.action === 'deleted') return html(`[${htmlEscape(repo.full_name)}] Repository deleted`);
  return { text: '', parse_mode: '', disable_web_page_preview: false };
}

export const telegramConvertor: Convertor<TelegramPayload> = {
  create: (p) => refMessage(p, 'created'),
  delete: (p) => refMessage(p, 'deleted'),
  fork: (p) => html(`${htmlEscape(p.forkee.full_name)} is forked to ${htmlLink(repoOf(p).html_url, repoOf(p).full_name)}`),
  push,
  issue: (p) => {
    // Gitea sends the markdown body as plain text: its links depend on the page it is rendered in.
    const info = issuesPayloadInfo(p, htmlLink, true);
    return html(`${info.text}\n\n${htmlEscape(info.extraMarkdown)}`);
  },
  issueComment: (p) => html(`${issueCommentPayloadInfo(p, htmlLink, true).text}\n${htmlEscape(p.comment.body)}`),
  pullRequest: (p) => {
    const info = pullRequestPayloadInfo(p, htmlLink, true);
    return html(`${info.text}\n${htmlEscape(info.extraMarkdown)}`);
  },
  review,
  repository,
  wiki: (p) => html(wikiPayloadInfo(p, htmlLink, true).text),
  release: (p) => html(releasePayloadInfo(p, htmlLink, true).text),
  package: (p) => html(packagePayloadInfo(p, htmlLink, true).text),
  status: (p) => html(statusPayloadInfo(p, htmlLink, true).text),
  workflowRun: (p) => html(workflowRunPayloadInfo(p, htmlLink, true).text),
  workflowJob: (p) => html(workflowJobPayloadInfo(p, htmlLink, true).text),
};
