import { issueHtmlUrl } from '../../convert/issue';
import { COMMENT_TYPE as T } from '../../lib/comment-type';
import { secToHours } from '../../lib/duration';
import { html, type SafeHtml } from '../../lib/html';
import type { IssueView } from '../../services/issue/issue-views';
import type { TimelineView } from '../../services/issue/issue-timeline';
import type { Thread, ThreadEntry } from '../../services/web/issue-thread';
import { personLink, textBlock, type ThreadView } from './comment-view';
import { labelSpans, milestoneLink } from './issue-pages-html';
import { repoLink, when } from './layout';

// The conversation's timeline, as the API's timeline has it: texts as comment blocks
// (comment-view.ts), every other event as one line saying who did what and when. A pull
// request's page passes `custom` for the entries it shows its own way (reviews).

export type EntryRenderer = (v: ThreadView, e: ThreadEntry) => SafeHtml | null;

const kindOf = (t: TimelineView) => (t.issue.is_pull ? 'pull request' : 'issue');
const short = (sha: string) => sha.slice(0, 10);

/** `title #N`, qualified with its repository when it is another's. */
function issueRef(v: ThreadView, ref: IssueView): SafeHtml {
  const other = ref.repo.id !== v.access.repo.id ? `${ref.owner.name}/${ref.repo.name}` : '';
  return html`<a href="${issueHtmlUrl(v.config, ref.owner, ref.repo, ref.issue)}">${ref.issue.title} ${other}#${ref.issue.index}</a>`;
}

const commitLink = (v: ThreadView, sha: string): SafeHtml =>
  html`<a href="${repoLink(v.config, v.access, `commit/${encodeURIComponent(sha)}`)}"><code>${short(sha)}</code></a>`;

function closed(v: ThreadView, t: TimelineView): SafeHtml {
  const c = t.comment;
  // A merged pull request, or the commit whose keyword closed it (Gitea's close with a commit).
  const cause = t.refIssue ? html` in ${issueRef(v, t.refIssue)}` : c.commit_sha ? html` in commit ${commitLink(v, c.commit_sha)}` : '';
  return html`${c.type === T.close ? 'closed' : 'reopened'} this ${kindOf(t)}${cause}`;
}

function reference(v: ThreadView, t: TimelineView): SafeHtml {
  if (!t.refIssue) return html`referenced this ${kindOf(t)}`;
  const action = String(t.meta.ref_action ?? 'none');
  if (t.comment.type === T.pullRef && (action === 'closes' || action === 'reopens')) {
    return html`linked ${issueRef(v, t.refIssue)}, which will ${action === 'closes' ? 'close' : 'reopen'} this ${kindOf(t)} when merged`;
  }
  const from = t.comment.type === T.commentRef ? 'a comment on' : t.refIssue.issue.is_pull ? 'pull request' : 'issue';
  const url = t.refComment ? `${issueHtmlUrl(v.config, t.refIssue.owner, t.refIssue.repo, t.refIssue.issue)}#issuecomment-${t.refComment.comment.id}` : '';
  return html`referenced this ${kindOf(t)} from ${url ? html`<a href="${url}">${from}</a>` : from} ${issueRef(v, t.refIssue)}`;
}

function assignees(v: ThreadView, t: TimelineView): SafeHtml {
  const self = t.assignee?.id === t.poster?.id;
  if (t.comment.removed_assignee) return self ? html`removed their assignment` : html`unassigned ${personLink(v, t.assignee)}`;
  return self ? html`self-assigned this` : html`assigned ${personLink(v, t.assignee)}`;
}

function milestone(v: ThreadView, t: TimelineView): SafeHtml {
  const to = t.milestone ? milestoneLink(v, t.milestone) : null;
  const from = t.oldMilestone ? milestoneLink(v, t.oldMilestone) : null;
  if (to && from) return html`moved this from the ${from} milestone to ${to}`;
  return to ? html`added this to the ${to} milestone` : html`removed this from the ${from ?? 'a'} milestone`;
}

const deadline = (t: TimelineView): SafeHtml => {
  const [to, from] = t.comment.content.split('|');
  if (t.comment.type === T.addedDeadline) return html`set the due date to ${to}`;
  if (t.comment.type === T.removedDeadline) return html`removed the due date ${to}`;
  return html`changed the due date from ${from} to ${to}`;
};

const timeSpent = (t: TimelineView) => (t.trackedTime ? secToHours(t.trackedTime.time.time) : t.comment.content.replace(/^\|/, ''));

/** What one event did, after its doer's name; null for kinds the page does not show. */
function eventText(v: ThreadView, t: TimelineView): SafeHtml | null {
  const c = t.comment;
  switch (c.type) {
    case T.close: case T.reopen: return closed(v, t);
    case T.issueRef: case T.commentRef: case T.pullRef: return reference(v, t);
    case T.commitRef: return html`referenced this ${kindOf(t)} in commit ${commitLink(v, c.commit_sha)} <span class="meta">${c.content.replace(/<[^>]*>/g, '')}</span>`;
    case T.label: return t.label ? html`${c.content ? 'added' : 'removed'} the${labelSpans(v, [t.label])} label` : null;
    case T.milestone: return milestone(v, t);
    case T.assignees: return t.assignee ? assignees(v, t) : null;
    case T.changeTitle: return html`changed the title from <del>${c.old_title}</del> to <ins>${c.new_title}</ins>`;
    case T.deleteBranch: return html`deleted branch <code>${c.commit_sha}</code>`;
    case T.startTracking: return html`started working`;
    case T.stopTracking: return html`stopped working, spent ${timeSpent(t)}`;
    case T.addTimeManual: return html`added ${timeSpent(t)} of time spent`;
    case T.deleteTimeManual: return html`deleted ${timeSpent(t)} of time spent`;
    case T.cancelTracking: return html`cancelled time tracking`;
    case T.addedDeadline: case T.modifiedDeadline: case T.removedDeadline: return deadline(t);
    case T.addDependency: case T.removeDependency:
      return t.dependentIssue ? html`${c.type === T.addDependency ? 'added' : 'removed'} a dependency: ${issueRef(v, t.dependentIssue)}` : null;
    case T.lock: return html`locked${c.content ? html` as <em>${c.content}</em>` : ''} and limited the conversation to collaborators`;
    case T.unlock: return html`unlocked this conversation`;
    case T.changeIssueRef: return html`changed the branch or tag from <code>${String(t.meta.old_ref ?? '')}</code> to <code>${String(t.meta.new_ref ?? '')}</code>`;
    case T.pin: return html`pinned this`;
    case T.unpin: return html`unpinned this`;
    case T.mergePull: return html`merged this pull request`;
    case T.reviewRequest: return html`${c.removed_assignee ? 'removed the review request for' : 'requested a review from'} ${t.assigneeTeam ? t.assigneeTeam.team.name : personLink(v, t.assignee)}`;
    case T.prScheduledToAutoMerge: return html`scheduled this to merge when the checks succeed`;
    case T.prUnscheduledToAutoMerge: return html`cancelled the scheduled merge`;
    default: return null;
  }
}

const TEXT_VERBS: Record<number, string> = { [T.comment]: 'commented', [T.review]: 'reviewed', [T.dismissReview]: 'dismissed a review' };

/** A text entry of the timeline as a comment block. */
export function commentEntry(v: ThreadView, e: ThreadEntry): SafeHtml {
  const c = e.t.comment;
  return textBlock(v, {
    anchor: `issuecomment-${c.id}`, key: String(c.id), who: e.t.poster, what: TEXT_VERBS[c.type] ?? 'commented', at: c.created_unix,
    edited: c.updated_unix > c.created_unix, html: e.html, raw: c.content, digest: e.digest, assets: e.assets, reactions: e.reactions,
    mayEdit: e.mayEdit, target: `comments/${c.id}`, editAction: `comments/${c.id}`,
    deletePath: c.type === T.comment ? `comments/${c.id}/delete` : undefined,
  });
}

function entry(v: ThreadView, e: ThreadEntry, custom?: EntryRenderer): SafeHtml | '' {
  const mine = custom?.(v, e);
  if (mine) return mine;
  const c = e.t.comment;
  if (c.type in TEXT_VERBS && (c.type === T.comment || e.html)) return commentEntry(v, e);
  const text = eventText(v, e.t);
  if (!text) return '';
  return html`<div class="event" id="issuecomment-${c.id}">${personLink(v, e.t.poster)} ${text} ${when(c.created_unix)}</div>`;
}

export function timelineHtml(v: ThreadView, thread: Thread, custom?: EntryRenderer): SafeHtml {
  return html`${thread.entries.map((e) => entry(v, e, custom))}`;
}
