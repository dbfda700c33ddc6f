// Microsoft Teams connector MessageCards, as Gitea's services/webhook/msteams.go writes them.

import type { Convertor } from './convert';
import {
  GREEN, GREY, RED, YELLOW,
  issueCommentPayloadInfo, issuesPayloadInfo, noneLink, packagePayloadInfo, pullRequestPayloadInfo,
  releasePayloadInfo, reviewAction, statusPayloadInfo, wikiPayloadInfo, workflowJobPayloadInfo,
  workflowRunPayloadInfo, pushSummary,
} from './general';
import { hexColor, pathEscape, pathEscapeSegments, refShortName, trimRight } from './go-compat';
import {
  repoOf, type PRepo, type PullPayload, type PushPayload, type PUser, type RefPayload, type RepositoryPayload,
} from './payloads';
import type { HookEvent } from './types';

interface Fact { name: string; value: string }

export interface MSTeamsPayload {
  '@type': string;
  '@context': string;
  themeColor: string;
  title: string;
  summary: string;
  sections: { activityTitle: string; activitySubtitle: string; activityImage: string; facts: Fact[]; text: string }[];
  potentialAction: { '@type': string; name: string; targets: { os: string; uri: string }[] }[];
}

interface Card {
  repo: PRepo | null | undefined;
  sender: PUser;
  title: string;
  text: string;
  target: string;
  color: number;
  fact?: Fact;
}

/** Gitea's createMSTeamsPayload. */
function card(c: Card): MSTeamsPayload {
  const facts: Fact[] = [];
  if (c.repo) facts.push({ name: 'Repository:', value: c.repo.full_name });
  if (c.fact) facts.push(c.fact);
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    themeColor: hexColor(c.color),
    title: c.title,
    summary: c.title,
    sections: [{
      activityTitle: c.sender.full_name ?? '', activitySubtitle: c.sender.login,
      activityImage: c.sender.avatar_url ?? '', facts, text: c.text,
    }],
    potentialAction: [{ '@type': 'OpenUri', name: 'View in Gitea', targets: [{ os: 'default', uri: c.target }] }],
  };
}

// The repository as Gitea holds it: package payloads may have none.
function repoField(p: { repository?: PRepo | null; repo?: PRepo | null }): PRepo | null {
  return p.repository ?? p.repo ?? null;
}

function refCard(p: RefPayload, verb: string, color: number): MSTeamsPayload {
  const repo = repoOf(p);
  const refName = refShortName(p.ref);
  return card({
    repo, sender: p.sender, title: `[${repo.full_name}] ${p.ref_type} ${refName} ${verb}`, text: '',
    target: `${repo.html_url}/src/${pathEscapeSegments(refName)}`, color, fact: { name: `${p.ref_type}:`, value: refName },
  });
}

function push(p: PushPayload): MSTeamsPayload {
  const { repo, commits, branchName, commitDesc, titleLink: target } = pushSummary(p);
  const text = commits.map((c) => `[${c.id.slice(0, 7)}](${c.url}) ${trimRight(c.message, '\r\n')} - ${c.author?.name ?? ''}`)
    .join('\n\n');
  return card({
    repo, sender: p.sender, title: `[${repo.full_name}:${branchName}] ${commitDesc}`, text, target, color: GREEN,
    fact: { name: 'Commit count:', value: `${p.total_commits}` },
  });
}

const REVIEW_COLORS: Record<string, number> = {
  pull_request_review_approved: GREEN, pull_request_review_rejected: RED, pull_request_review_comment: GREY,
};

function review(p: PullPayload, event: HookEvent): MSTeamsPayload | null {
  let [title, text, color] = ['', '', 0];
  if (p.action === 'reviewed') {
    const action = reviewAction(event);
    if (!action) return null;
    title = `[${repoOf(p).full_name}] Pull request review ${action}: #${p.number} ${p.pull_request.title}`;
    [text, color] = [p.review?.content ?? '', REVIEW_COLORS[event] ?? YELLOW];
  }
  return card({
    repo: repoOf(p), sender: p.sender, title, text, target: p.pull_request.html_url, color,
    fact: { name: 'Pull request #:', value: `${p.pull_request.id}` },
  });
}

function repository(p: RepositoryPayload): MSTeamsPayload {
  const repo = repoOf(p);
  const base = { repo, sender: p.sender, text: '' };
  if (p.action === 'created') return card({ ...base, title: `[${repo.full_name}] Repository created`, target: repo.html_url, color: GREEN });
  if (p.action === 'deleted') return card({ ...base, title: `[${repo.full_name}] Repository deleted`, target: '', color: YELLOW });
  return card({ ...base, title: '', target: '', color: 0 });
}

type Cards<K extends keyof Convertor<MSTeamsPayload>> = Pick<Convertor<MSTeamsPayload>, K>;

const issueCards: Cards<'issue' | 'issueComment' | 'pullRequest'> = {
  issue: (p) => {
    const { text, extraMarkdown, color } = issuesPayloadInfo(p, noneLink, false);
    return card({
      repo: repoOf(p), sender: p.sender, title: text, text: extraMarkdown, target: p.issue.html_url, color,
      fact: { name: 'Issue #:', value: `${p.issue.id}` },
    });
  },
  issueComment: (p) => {
    const { text, color } = issueCommentPayloadInfo(p, noneLink, false);
    return card({
      repo: repoOf(p), sender: p.sender, title: text, text: p.comment.body, target: p.comment.html_url, color,
      fact: { name: 'Issue #:', value: `${p.issue.id}` },
    });
  },
  pullRequest: (p) => {
    const { text, extraMarkdown, color } = pullRequestPayloadInfo(p, noneLink, false);
    return card({
      repo: repoOf(p), sender: p.sender, title: text, text: extraMarkdown, target: p.pull_request.html_url, color,
      fact: { name: 'Pull request #:', value: `${p.pull_request.id}` },
    });
  },
};

const otherCards: Cards<'wiki' | 'release' | 'package' | 'status' | 'workflowRun' | 'workflowJob'> = {
  wiki: (p) => {
    const { text, color } = wikiPayloadInfo(p, noneLink, false);
    const repo = repoOf(p);
    return card({
      repo, sender: p.sender, title: text, text: '', target: `${repo.html_url}/wiki/${pathEscape(p.page)}`, color,
      fact: { name: 'Repository:', value: repo.full_name },
    });
  },
  release: (p) => {
    const { text, color } = releasePayloadInfo(p, noneLink, false);
    return card({
      repo: repoOf(p), sender: p.sender, title: text, text: '', target: p.release.html_url, color,
      fact: { name: 'Tag:', value: p.release.tag_name },
    });
  },
  package: (p) => {
    const { text, color } = packagePayloadInfo(p, noneLink, false);
    return card({
      repo: repoField(p), sender: p.sender, title: text, text: '', target: p.package.html_url, color,
      fact: { name: 'Package:', value: p.package.name },
    });
  },
  status: (p) => {
    const { text, color } = statusPayloadInfo(p, noneLink, false);
    return card({
      repo: repoField(p), sender: p.sender, title: text, text: '', target: p.target_url ?? '', color,
      fact: { name: 'CommitStatus:', value: p.context },
    });
  },
  workflowRun: (p) => {
    const { text, color } = workflowRunPayloadInfo(p, noneLink, false);
    return card({
      repo: repoField(p), sender: p.sender, title: text, text: '', target: p.workflow_run.html_url ?? '', color,
      fact: { name: 'WorkflowRun:', value: p.workflow_run.display_title ?? '' },
    });
  },
  workflowJob: (p) => {
    const { text, color } = workflowJobPayloadInfo(p, noneLink, false);
    return card({
      repo: repoField(p), sender: p.sender, title: text, text: '', target: p.workflow_job.html_url ?? '', color,
      fact: { name: 'WorkflowJob:', value: p.workflow_job.name ?? '' },
    });
  },
};

export const msteamsConvertor: Convertor<MSTeamsPayload> = {
  ...issueCards,
  ...otherCards,
  create: (p) => refCard(p, 'created', GREEN),
  // Gitea colours a deleted ref yellow here, unlike its other formats.
  delete: (p) => refCard(p, 'deleted', YELLOW),
  fork: (p) => card({
    repo: repoOf(p), sender: p.sender, title: `${p.forkee.full_name} is forked to ${repoOf(p).full_name}`, text: '',
    target: repoOf(p).html_url, color: GREEN, fact: { name: 'Forkee:', value: p.forkee.full_name },
  }),
  push,
  review,
  repository,
};
