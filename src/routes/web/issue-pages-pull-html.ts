import { issueHtmlUrl } from '../../convert/issue';
import type { PullView } from '../../convert/pull';
import { html, type SafeHtml } from '../../lib/html';
import type { PullPage, ReviewEntry } from '../../services/web/issue-pages';
import type { DiffLine, FileDiff } from '../../services/web/issue-pages-diff';
import type { CommitsPage, FileEntry, FilesPage, ReviewNote } from '../../services/web/issue-pages-pull';
import { commentBlock, commentOf, headLabel, issueHead, openingPost, plural, userLink, type View } from './issue-pages-html';
import { codeRegion, pager, repoLink, when } from './layout';

// The pull request's own markup: its head (branches, merge state, tabs), the conversation with
// reviews, the changed files with their diffs and line comments, and its commits.

export type PullTab = 'conversation' | 'commits' | 'files';

const pullUrl = (v: View, p: PullView) => issueHtmlUrl(v.config, v.access.owner, v.access.repo, p.issue.issue);

function mergeState(p: PullView): SafeHtml | '' {
  if (p.pr.has_merged || p.issue.issue.is_closed) return '';
  const says: Record<string, string> = {
    mergeable: 'This pull request can be merged automatically.', empty: 'This branch is equal to the target branch.',
    conflict: 'This pull request has conflicts and cannot be merged automatically.', checking: 'Checking for conflicts…',
  };
  return html`<p class="merge-state ${p.pr.status}">${says[p.pr.status] ?? 'The merge state could not be checked.'}</p>`;
}

/** Title, branches, merge state and the Conversation / Commits / Files tabs. */
export function pullHead(v: View, p: PullView, active: PullTab): SafeHtml {
  const { pr } = p;
  const url = pullUrl(v, p);
  const branches = html`${plural(pr.commits_ahead, 'commit')} into <code>${pr.base_branch}</code> from <code>${headLabel(p)}</code>`;
  const summary = pr.has_merged
    ? html`${userLink(v.config, p.mergedBy ?? undefined)} merged ${branches} ${when(pr.merged_unix)}${pr.merged_commit_id ? html` as <a href="${repoLink(v.config, v.access, `commit/${pr.merged_commit_id}`)}"><code>${pr.merged_commit_id.slice(0, 10)}</code></a>` : ''}`
    : html`${userLink(v.config, p.issue.poster)} wants to merge ${branches}`;
  const tab = (name: PullTab, label: string, rest: string, n?: number) =>
    html`<a class="${name === active ? 'active' : ''}" href="${url}${rest}">${label}${n === undefined ? '' : html` <span class="count">${n}</span>`}</a>`;
  return html`${issueHead(v, p.issue, pr.has_merged === 1, summary)}
${mergeState(p)}
<nav class="tabs">${tab('conversation', 'Conversation', '', p.issue.issue.num_comments)}${tab('commits', 'Commits', '/commits', pr.commits_ahead)}${tab('files', 'Files changed', '/files', pr.changed_files)}</nav>
<p class="meta">+${pr.additions} −${pr.deletions} · <a href="${url}.diff">.diff</a> · <a href="${url}.patch">.patch</a></p>`;
}

function reviewOf(v: View, p: PullView, r: ReviewEntry): SafeHtml {
  const { review, team, comments } = r.view;
  const who = team ? html`<span>${team.org.name}/${team.team.name}</span>` : userLink(v.config, r.view.reviewer);
  const flags = [review.dismissed ? ' (dismissed)' : '', review.stale ? ' (stale)' : ''].join('');
  const notes = comments.length
    ? html` · <a href="${pullUrl(v, p)}/files#issuecomment-${comments[0]!.id}">${plural(comments.length, 'line comment')}</a>`
    : '';
  return commentBlock(v.config, { id: `issuecomment-${r.view.eventCommentId ?? review.id}`, who, what: html`${r.verdict}${flags}${notes}`, at: review.created_unix, body: r.html });
}

/** The conversation: the opening post, then comments and reviews in time order. */
export function pullBody(v: View, page: PullPage): SafeHtml {
  const entries = [
    ...page.comments.map((c) => ({ at: c.view.comment.created_unix, block: commentOf(v.config, c) })),
    ...page.reviews.map((r) => ({ at: r.view.review.created_unix, block: reviewOf(v, page.pull, r) })),
  ].sort((a, b) => a.at - b.at);
  return html`${pullHead(v, page.pull, 'conversation')}
${openingPost(v.config, page.pull.issue, page.body)}
${entries.map((e) => e.block)}`;
}

const SIGN: Record<DiffLine['kind'], string> = { add: '+', del: '-', ctx: ' ', hunk: '', meta: '' };

const diffTable = (d: FileDiff): SafeHtml => codeRegion('Diff', html`<table class="code diff">${d.lines.map((l) =>
  html`<tr class="${l.kind}"><td class="num">${l.old ?? ''}</td><td class="num">${l.new ?? ''}</td><td>${SIGN[l.kind]}${l.text}</td></tr>`)}</table>`);

/** A line comment: its anchor is the review comment's html_url (`.../files#issuecomment-{id}`). */
const noteOf = (v: View, n: ReviewNote): SafeHtml => {
  const { comment } = n;
  const where = comment.line ? ` on ${comment.path} line ${Math.abs(comment.line)}${comment.line < 0 ? ' (old)' : ''}` : ` on ${comment.path}`;
  return commentBlock(v.config, { id: `issuecomment-${comment.id}`, who: userLink(v.config, n.reviewer), what: `commented${where}`, at: comment.created_unix, body: n.html });
};

function fileSection(v: View, f: FileEntry, n: number): SafeHtml {
  const { file } = f;
  const renamed = file.previous ? html` <span class="meta">(${file.status} from ${file.previous})</span>` : '';
  const diff = f.diff ? diffTable(f.diff) : html`<p class="meta">Diff not shown.</p>`;
  return html`<section class="file" id="diff-${n}"><h3>${file.filename}${renamed} <span class="meta">${file.status} +${file.additions} −${file.deletions}</span></h3>
${diff}
${f.notes.map((x) => noteOf(v, x))}</section>`;
}

export function filesBody(v: View, page: FilesPage): SafeHtml {
  const toc = page.files.map((f, n) => html`<li><a href="#diff-${n}">${f.file.filename}</a> <span class="meta">${f.file.status} +${f.file.additions} −${f.file.deletions}</span></li>`);
  const cut = page.truncated ? html`<p class="meta">This diff is too large to show in full: see the <a href="${pullUrl(v, page.pull)}.diff">raw diff</a>.</p>` : '';
  const others = page.others.length ? html`<h2>Comments on outdated lines</h2>${page.others.map((x) => noteOf(v, x))}` : '';
  return html`${pullHead(v, page.pull, 'files')}
<p class="meta">${plural(page.total, 'changed file')}</p>
${toc.length ? html`<ul class="list">${toc}</ul>` : ''}
${cut}${page.files.map((f, n) => fileSection(v, f, n))}${others}`;
}

export function commitsBody(v: View, page: CommitsPage, n: number): SafeHtml {
  const { commits, users } = page.found;
  const row = (c: (typeof commits)[number]) => {
    const author = users.get(c.author.email);
    const subject = c.message.split('\n', 1)[0] ?? '';
    return html`<li><a href="${repoLink(v.config, v.access, `commit/${c.sha}`)}"><code>${c.sha.slice(0, 10)}</code></a> ${subject}
<div class="meta">${author ? userLink(v.config, author) : c.author.name} committed ${when(c.committer.date)}</div></li>`;
  };
  const list = commits.length ? html`<ul class="list">${commits.map(row)}</ul>` : html`<p class="meta">No commits.</p>`;
  return html`${pullHead(v, page.pull, 'commits')}
${list}
${pager(`${pullUrl(v, page.pull)}/commits`, n, page.hasMore)}`;
}
