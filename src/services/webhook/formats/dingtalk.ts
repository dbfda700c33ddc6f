// DingTalk robot messages (an action card with one link), as Gitea's services/webhook/dingtalk.go writes them.

import type { Convertor } from './convert';
import {
  issueCommentPayloadInfo, issuesPayloadInfo, noneLink, packagePayloadInfo, pullRequestPayloadInfo,
  releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo,
  workflowRunPayloadInfo, pushSummary,
} from './general';
import { pathEscape, pathEscapeSegments, queryEscape, refShortName, trimRight } from './go-compat';
import { repoOf, type PullPayload, type PushPayload, type RefPayload, type RepositoryPayload } from './payloads';
import type { HookEvent } from './types';

// The whole dingtalk_webhook.Payload struct is marshalled, unused parts included.
export interface DingtalkPayload {
  msgtype: string;
  text: { content: string };
  link: { text: string; title: string; picUrl: string; messageUrl: string };
  markdown: { text: string; title: string };
  actionCard: {
    text: string; title: string; hideAvatar: string; btnOrientation: string;
    singleTitle: string; singleURL: string; btns: null;
  };
  feedCard: { links: null };
  at: { atMobiles: null; isAtAll: boolean };
}

function dingtalkPayload(msgtype: string, content: string, card: Partial<DingtalkPayload['actionCard']>): DingtalkPayload {
  return {
    msgtype,
    text: { content },
    link: { text: '', title: '', picUrl: '', messageUrl: '' },
    markdown: { text: '', title: '' },
    actionCard: {
      text: '', title: '', hideAvatar: '', btnOrientation: '', singleTitle: '', singleURL: '', btns: null, ...card,
    },
    feedCard: { links: null },
    at: { atMobiles: null, isAtAll: false },
  };
}

/** Gitea's createDingtalkPayload. */
function card(title: string, text: string, singleTitle: string, singleURL: string): DingtalkPayload {
  return dingtalkPayload('actionCard', '', {
    text: text.trim(),
    title: title.trim(),
    hideAvatar: '0',
    singleTitle,
    // This URL form opens the link in the browser rather than inside the DingTalk client.
    singleURL: `dingtalk://dingtalkclient/page/link?pc_slide=false&url=${queryEscape(singleURL)}`,
  });
}

function refCard(p: RefPayload, verb: string): DingtalkPayload {
  const repo = repoOf(p);
  const refName = refShortName(p.ref);
  const title = `[${repo.full_name}] ${p.ref_type} ${refName} ${verb}`;
  return card(title, title, `view ref ${refName}`, `${repo.html_url}/src/${pathEscapeSegments(refName)}`);
}

function push(p: PushPayload): DingtalkPayload {
  const { repo, commits, branchName, commitDesc, titleLink, single } = pushSummary(p);
  const text = commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${trimRight(c.message, '\r\n')}`
    + (c.author ? ` - ${c.author.name}` : '')).join('\r\n');
  return card(`[${repo.full_name}:${branchName}] ${commitDesc}`, text, single ? 'view commit' : 'view commits', titleLink);
}

function review(p: PullPayload, event: HookEvent): DingtalkPayload | null {
  let title = '';
  let text = '';
  if (p.action === 'reviewed') {
    const action = reviewAction(event);
    if (!action) return null;
    title = `[${repoOf(p).full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}`;
    text = p.review?.content ?? '';
  }
  return card(title, `${title}\r\n\r\n${text}`, 'view pull request', p.pull_request.html_url);
}

function repository(p: RepositoryPayload): DingtalkPayload {
  const repo = repoOf(p);
  if (p.action === 'created') {
    const title = `[${repo.full_name}] Repository created`;
    return card(title, title, 'view repository', repo.html_url);
  }
  if (p.action === 'deleted') return dingtalkPayload('text', `[${repo.full_name}] Repository deleted`, {});
  return dingtalkPayload('', '', {});
}

export const dingtalkConvertor: Convertor<DingtalkPayload> = {
  create: (p) => refCard(p, 'created'),
  delete: (p) => refCard(p, 'deleted'),
  fork: (p) => {
    const title = `${p.forkee.full_name} is forked to ${repoOf(p).full_name}`;
    return card(title, title, `view forked repo ${repoOf(p).full_name}`, repoOf(p).html_url);
  },
  push,
  issue: (p) => {
    const info = issuesPayloadInfo(p, noneLink, true);
    return card(info.issueTitle, `${info.text}\r\n\r\n${info.extraMarkdown}`, 'view issue', p.issue.html_url);
  },
  issueComment: (p) => {
    const info = issueCommentPayloadInfo(p, noneLink, true);
    return card(info.issueTitle, `${info.text}\r\n\r\n${p.comment.body}`, 'view issue comment', p.comment.html_url);
  },
  pullRequest: (p) => {
    const info = pullRequestPayloadInfo(p, noneLink, true);
    return card(info.issueTitle, `${info.text}\r\n\r\n${info.extraMarkdown}`, 'view pull request', p.pull_request.html_url);
  },
  review,
  repository,
  wiki: (p) => {
    const { text } = wikiPayloadInfo(p, noneLink, true);
    return card(text, text, 'view wiki', `${repoOf(p).html_url}/wiki/${pathEscape(p.page)}`);
  },
  release: (p) => {
    const { text } = releasePayloadInfo(p, noneLink, true);
    return card(text, text, 'view release', p.release.html_url);
  },
  package: (p) => {
    const { text } = packagePayloadInfo(p, noneLink, true);
    return card(text, text, 'view package', p.package.html_url);
  },
  status: (p) => {
    const { text } = statusPayloadInfo(p, noneLink, true);
    return card(text, text, 'Status Changed', p.target_url ?? '');
  },
  workflowRun: (p) => {
    const { text } = workflowRunPayloadInfo(p, noneLink, true);
    return card(text, text, 'Workflow Run', p.workflow_run.html_url ?? '');
  },
  workflowJob: (p) => {
    const { text } = workflowJobPayloadInfo(p, noneLink, true);
    return card(text, text, 'Workflow Job', p.workflow_job.html_url ?? '');
  },
};
