import type { Attachment, Issue, User } from '../../db/schema';
import { CONTENT_COMMENT_TYPES } from '../../lib/comment-type';
import { mayHoldTasks, textDigest } from '../../lib/task-list';
import { commentAttachments } from '../../models/issue';
import { canWrite, type IssueCtx } from '../issue/issue-access';
import { timelineOfIssue, type TimelineView } from '../issue/issue-timeline';
import { issueReactionTallies, type ReactionTally } from '../issue/reactions';
import { renderStoredBatch, renderStoredMarkup, type StoredText } from '../markdown';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// The conversation of an issue or a pull request as its page shows it: the API's timeline
// (the same service, so the same events and the same hidden references), each text rendered
// (cached by row and update time), with its files, its reactions, and whether the viewer may
// edit it. Pull request pages use it too (their reviews add to it).

/** One entry of the conversation: a text (comment, review, dismissal) or an event line. */
export type ThreadEntry = {
  t: TimelineView;
  /** Rendered markdown of the entry's text ('' for none). */
  html: string;
  /** Fingerprint of the raw text: task-list ticks are made against it ('' for a text without tasks). */
  digest: string;
  assets: Attachment[];
  reactions: ReactionTally[];
  /** The viewer may edit or delete it (its poster, or a writer), and so tick its tasks. */
  mayEdit: boolean;
};

export type Thread = { entries: ThreadEntry[]; issueReactions: ReactionTally[] };

/** Issue references (#N) resolve against this repository, as in Gitea's comment mode. */
export const markupContext = (access: Pick<RepoAccess, 'owner' | 'repo'>) => `${access.owner.name}/${access.repo.name}`;

export function renderStored(h: Hearth, viewer: User | null, access: RepoAccess, text: string, stored: StoredText): Promise<string> {
  if (!text.trim()) return Promise.resolve('');
  return renderStoredMarkup(h, viewer, stored, { text, mode: 'comment', context: markupContext(access), filePath: '', wiki: false });
}

const hasText = (t: TimelineView) => CONTENT_COMMENT_TYPES.includes(t.comment.type);

/** The thread of `issue` (already read by the caller through `ctx`). */
export async function loadThread(h: Hearth, ctx: IssueCtx, issue: Issue): Promise<Thread> {
  const doer = ctx.doer;
  const [timeline, tallies] = await Promise.all([
    timelineOfIssue(h.db, ctx, issue),
    issueReactionTallies(h.db, issue, doer),
  ]);
  const texts = timeline.filter(hasText);
  const files = await commentAttachments(h.db, texts.map((t) => t.comment.id));
  const filesOf = new Map<number, Attachment[]>();
  for (const f of files) filesOf.set(f.comment_id, [...(filesOf.get(f.comment_id) ?? []), f]);
  const writer = canWrite(ctx, issue.is_pull);
  // One mention lookup for the whole conversation, each text still cached on its own.
  const rendered = await renderStoredBatch(h, doer, texts.map((t) => ({
    stored: { kind: 'comment', id: t.comment.id, updatedUnix: t.comment.updated_unix }, text: t.comment.content,
  })), { mode: 'comment', context: markupContext(ctx), filePath: '', wiki: false });
  const htmlOf = new Map(texts.map((t, i) => [t.comment.id, rendered[i]!]));
  const entries: ThreadEntry[] = [];
  for (const t of timeline) {
    const c = t.comment;
    const text = hasText(t);
    entries.push({
      t,
      html: htmlOf.get(c.id) ?? '',
      digest: text && mayHoldTasks(c.content) ? textDigest(c.content) : '',
      assets: filesOf.get(c.id) ?? [],
      reactions: tallies.get(c.id) ?? [],
      mayEdit: !!doer && text && (c.poster_id === doer.id || writer),
    });
  }
  return { entries, issueReactions: tallies.get(0) ?? [] };
}
