import { issueHtmlUrl } from '../../convert/issue';
import type { PullView } from '../../convert/pull';
import { html, raw, type SafeHtml } from '../../lib/html';
import type { ReviewEntry } from '../../services/web/issue-pages';
import { headLabelOf, type ConversationPage } from '../../services/web/pull-conversation';
import { commentBlock, commentOf, issueHead, openingPost, plural, userLink, type View } from './issue-pages-html';
import { repoLink, when } from './layout';
import { mergeBoxHtml, type Forms } from './pull-merge-html';

// A pull request's head (title, state, branches, tabs) and its conversation: the opening post,
// comments and reviews in time order, the sidebar (reviewers, close, draft) and the merge box.

export type PullTab = 'conversation' | 'commits' | 'files';

export const pullUrl = (v: View, p: PullView): string => issueHtmlUrl(v.config, v.access.owner, v.access.repo, p.issue.issue);

/** Title, state, branches and the Conversation / Commits / Files changed tabs. */
export function pullHeadHtml(v: View, p: PullView, active: PullTab, draft: boolean): SafeHtml {
  const { pr } = p;
  const url = pullUrl(v, p);
  const branches = html`${plural(pr.commits_ahead, 'commit')} into <code>${pr.base_branch}</code> from <code>${headLabelOf(p)}</code>`;
  const summary = pr.has_merged
    ? html`${userLink(v.config, p.mergedBy ?? undefined)} merged ${branches} ${when(pr.merged_unix)}${pr.merged_commit_id ? html` as <a href="${repoLink(v.config, v.access, `commit/${pr.merged_commit_id}`)}"><code>${pr.merged_commit_id.slice(0, 10)}</code></a>` : ''}`
    : html`${draft ? html`<span class="badge">Draft</span> ` : ''}${userLink(v.config, p.issue.poster)} wants to merge ${branches}`;
  const tab = (name: PullTab, label: string, rest: string, n: number) =>
    html`<a ${name === active ? raw('aria-current="page" class="active"') : ''} href="${url}${rest}">${label} <span class="count">${n}</span></a>`;
  return html`${issueHead(v, p.issue, pr.has_merged === 1, summary)}
<nav class="tabs" aria-label="Pull request">${tab('conversation', 'Conversation', '', p.issue.issue.num_comments)}${tab('commits', 'Commits', '/commits', pr.commits_ahead)}${tab('files', 'Files changed', '/files', pr.changed_files)}</nav>`;
}

/** A review in the conversation: its verdict and body, then its line comments, each linking to its thread. */
function reviewHtml(v: View, p: PullView, r: ReviewEntry): SafeHtml {
  const { review, team, comments } = r.view;
  const who = team ? html`<span>${team.org.name}/${team.team.name}</span>` : userLink(v.config, r.view.reviewer);
  const flags = [review.dismissed ? ' (dismissed)' : '', review.stale ? ' (on an earlier head)' : ''].join('');
  const notes = comments.length ? html`<ul class="review-notes">${comments.map((c) => html`<li><a href="${pullUrl(v, p)}/files#issuecomment-${c.id}"><code>${c.path}</code> line ${Math.abs(c.line)}</a> ${userLink(v.config, r.view.people?.get(c.poster_id))}: ${c.content.split('\n', 1)[0]}</li>`)}</ul>` : '';
  const block = commentBlock(v.config, { id: `issuecomment-${r.view.eventCommentId ?? review.id}`, who, what: html`${r.verdict}${flags}`, at: review.created_unix, body: r.html });
  return html`${block}${notes}`;
}

function timeline(v: View, page: ConversationPage): SafeHtml[] {
  return [
    ...page.comments.map((c) => ({ at: c.view.comment.created_unix, block: commentOf(v.config, c) })),
    ...page.submitted.map((r) => ({ at: r.view.review.created_unix, block: reviewHtml(v, page.pull, r) })),
  ].sort((a, b) => a.at - b.at).map((e) => e.block);
}

const alertOf = (f: Forms, key: string): SafeHtml | '' =>
  (f.state.errors[key] ? html`<div class="flash error" role="alert">${f.state.errors[key]}</div>` : '');

function requestForm(page: ConversationPage, f: Forms): SafeHtml | '' {
  const { users, teams } = page.candidates;
  if (!page.perms.requestReviews || (!users.length && !teams.length)) return '';
  const options = [
    ...users.map((u) => html`<option value="user:${u.name}">${u.name}</option>`),
    ...teams.map((t) => html`<option value="team:${t.name}">Team ${t.name}</option>`),
  ];
  return html`<form method="post" action="${f.action('reviewers')}" class="stack">${f.csrf}<input type="hidden" name="action" value="add">
<label for="f-reviewer">Ask for a review</label><select id="f-reviewer" name="reviewer">${options}</select> <button type="submit">Request</button></form>`;
}

function reviewersHtml(v: View, page: ConversationPage, f: Forms): SafeHtml {
  const { pull } = page;
  const remove = (value: string, name: string) => (page.perms.requestReviews
    ? html` <form method="post" action="${f.action('reviewers')}" class="inline">${f.csrf}<input type="hidden" name="action" value="remove"><input type="hidden" name="reviewer" value="${value}"><button type="submit" class="link" aria-label="Withdraw the review request of ${name}">Remove</button></form>`
    : '');
  const rows = [
    ...pull.requested.map((u) => html`<li>${userLink(v.config, u)} <span class="meta">review requested</span>${remove(`user:${u.name}`, u.name)}</li>`),
    ...(pull.requestedTeams ?? []).map((t) => html`<li>${t.org.name}/${t.team.name} <span class="meta">review requested</span>${remove(`team:${t.team.name}`, t.team.name)}</li>`),
    ...page.verdicts.map((r) => html`<li>${userLink(v.config, r.view.reviewer)} <span class="meta">${r.verdict}</span></li>`),
  ];
  return html`<section aria-labelledby="reviewers-title"><h2 id="reviewers-title">Reviewers</h2>${alertOf(f, 'reviewers')}
${rows.length ? html`<ul class="plain">${rows}</ul>` : html`<p class="meta">No reviews yet.</p>`}${requestForm(page, f)}</section>`;
}

function actionsHtml(page: ConversationPage, f: Forms): SafeHtml | '' {
  const { pr, issue } = page.pull;
  if (!page.perms.edit || pr.has_merged) return '';
  const closed = issue.issue.is_closed === 1;
  const state = html`<form method="post" action="${f.action('state')}" class="inline">${f.csrf}<input type="hidden" name="state" value="${closed ? 'open' : 'closed'}"><button type="submit">${closed ? 'Reopen pull request' : 'Close pull request'}</button></form>`;
  const draft = closed ? '' : html` <form method="post" action="${f.action('draft')}" class="inline">${f.csrf}<input type="hidden" name="draft" value="${page.box.wip ? 'off' : 'on'}"><button type="submit">${page.box.wip ? 'Ready for review' : 'Mark as draft'}</button></form>`;
  return html`<section aria-label="Pull request actions" class="actions">${alertOf(f, 'actions')}${state}${draft}</section>`;
}

function pendingNote(v: View, page: ConversationPage): SafeHtml | '' {
  if (!page.pending) return '';
  return html`<p class="flash">You have a review in progress. <a href="${pullUrl(v, page.pull)}/files#finish-review">Finish your review</a></p>`;
}

export function conversationHtml(v: View, page: ConversationPage, f: Forms): SafeHtml {
  return html`${pullHeadHtml(v, page.pull, 'conversation', page.box.wip)}
<div class="with-side"><div class="main-col">${pendingNote(v, page)}
${openingPost(v.config, page.pull.issue, page.body)}
${timeline(v, page)}
${mergeBoxHtml(v, page, f)}</div>
<aside class="side-col" aria-label="Pull request details">${reviewersHtml(v, page, f)}${actionsHtml(page, f)}</aside></div>`;
}
