// WeChat Work (WeCom) group robot markdown messages, as Gitea's services/webhook/wechatwork.go writes them.

import type { Convertor } from './convert';
import {
  issueCommentPayloadInfo, issuesPayloadInfo, noneLink, packagePayloadInfo, pullRequestPayloadInfo,
  releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo,
  workflowRunPayloadInfo,
} from './general';
import { refShortName } from './go-compat';
import { repoOf, type PullPayload, type PushPayload } from './payloads';
import type { HookEvent } from './types';

export interface WechatworkPayload {
  msgtype: string;
  text: { content: string; mentioned_list: null; mentioned_mobile_list: null };
  markdown: { content: string };
}

function payload(msgtype: string, content: string): WechatworkPayload {
  return { msgtype, text: { content: '', mentioned_list: null, mentioned_mobile_list: null }, markdown: { content } };
}

function markdown(content: string): WechatworkPayload {
  return payload('markdown', content);
}

function push(p: PushPayload): WechatworkPayload {
  // Gitea leaves the commit count out of the title (its commitDesc stays empty).
  const title = `# ${repoOf(p).full_name}:${refShortName(p.ref)} <font color="warning">    </font>`;
  const commits = (p.commits ?? []).map((c) => {
    const author = c.author ? `Author: ${c.author.name}` : '';
    const message = c.message.replaceAll('\n\n', '\r\n');
    return ` > [${c.id.slice(0, 7)}](${c.url}) \r\n ><font color="info">${message}</font> \n ><font color="warning">${author}</font>`;
  });
  return markdown(`${title}\r\n\r\n${commits.join('\n')}`);
}

function review(p: PullPayload, event: HookEvent): WechatworkPayload | null {
  let [title, text] = ['', ''];
  if (p.action === 'reviewed') {
    const action = reviewAction(event);
    if (!action) return null;
    title = `[${repoOf(p).full_name}] Pull request review ${action} : #${p.number} ${p.pull_request.title}`;
    text = p.review?.content ?? '';
  }
  return markdown(`# ${title}\r\n\r\n >${text}`);
}

export const wechatworkConvertor: Convertor<WechatworkPayload> = {
  create: (p) => markdown(`[${repoOf(p).full_name}] ${p.ref_type} ${refShortName(p.ref)} created`),
  delete: (p) => markdown(`[${repoOf(p).full_name}] ${p.ref_type} ${refShortName(p.ref)} deleted`),
  fork: (p) => markdown(`${p.forkee.full_name} is forked to ${repoOf(p).full_name}`),
  push,
  issue: (p) => {
    const { text, issueTitle, extraMarkdown } = issuesPayloadInfo(p, noneLink, true);
    const url = p.issue.html_url;
    return markdown(` ><font color="info">${text}</font>\n >${extraMarkdown} \n ><font color="warning"> ${issueTitle}</font> \n [${url}](${url})`);
  },
  issueComment: (p) => {
    const { text, issueTitle } = issueCommentPayloadInfo(p, noneLink, true);
    const url = p.comment.html_url;
    return markdown(` ><font color="info">${text}</font>\n >${p.comment.body} \n ><font color="warning">${issueTitle}</font> \n [${url}](${url})`);
  },
  pullRequest: (p) => {
    const { text, issueTitle, extraMarkdown } = pullRequestPayloadInfo(p, noneLink, true);
    return markdown(`> <font color="info"> ${text} </font> \r\n > <font color="comment">${issueTitle} </font> \r\n`
      + ` > <font color="comment">${extraMarkdown} </font> \r\n`);
  },
  review,
  repository: (p) => {
    if (p.action === 'created') return markdown(`[${repoOf(p).full_name}] Repository created`);
    if (p.action === 'deleted') return markdown(`[${repoOf(p).full_name}] Repository deleted`);
    return payload('', '');
  },
  wiki: (p) => markdown(wikiPayloadInfo(p, noneLink, true).text),
  release: (p) => markdown(releasePayloadInfo(p, noneLink, true).text),
  package: (p) => markdown(packagePayloadInfo(p, noneLink, true).text),
  status: (p) => markdown(statusPayloadInfo(p, noneLink, true).text),
  workflowRun: (p) => markdown(workflowRunPayloadInfo(p, noneLink, true).text),
  workflowJob: (p) => markdown(workflowJobPayloadInfo(p, noneLink, true).text),
};
