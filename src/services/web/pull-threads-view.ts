import type { User } from '../../db/schema';
import { hunkSideLines } from '../../lib/diff-hunk';
import { REVIEW_TYPE } from '../../models/review';
import { visibleLineComments, type VisibleLineComment } from '../../models/review-thread';
import { usersByIds } from '../../models/user-lookup';
import { suggestionOf } from '../pull/pull-suggestion';
import type { LoadedPull } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import type { FileDiff } from './issue-pages-diff';
import { renderText } from './issue-pages';
import type { Hearth } from '../../hearth';

// Review threads as the files page shows them: the line comments the visitor may see grouped
// as Gitea groups a conversation (same review, path and line), with their posters, rendered
// bodies, suggestions, resolver, and where in the current diff each belongs.

export type ThreadComment = { comment: VisibleLineComment; poster: User | undefined; html: string; suggestion: string | null };
export type Thread = {
  head: VisibleLineComment;
  side: 'old' | 'new';
  line: number;
  /** The first line of a range (0: one line). */
  start: number;
  comments: ThreadComment[];
  resolver: User | undefined;
  /** In the visitor's pending review: only they see it, and it can still be edited. */
  pending: boolean;
};

export async function threadsOf(h: Hearth, access: RepoAccess, loaded: LoadedPull, doer: User | null): Promise<Thread[]> {
  const all = await visibleLineComments(h.db, loaded.issue.id, doer?.id ?? 0);
  if (!all.length) return [];
  const ids = [...new Set(all.flatMap((c) => [c.poster_id, c.resolve_doer_id]).filter((id) => id > 0))];
  const users = new Map((await usersByIds(h.db, ids)).map((u) => [u.id, u]));
  const byKey = new Map<string, Thread>();
  for (const c of all) {
    const key = `${c.review_id}\0${c.path}\0${c.line}`;
    const entry: ThreadComment = {
      comment: c, poster: users.get(c.poster_id), html: await renderText(h, doer, access, c.content),
      suggestion: c.line > 0 ? suggestionOf(c.content) : null,
    };
    const thread = byKey.get(key);
    if (thread) thread.comments.push(entry);
    else {
      byKey.set(key, {
        head: c, side: c.line < 0 ? 'old' : 'new', line: Math.abs(c.line), start: c.start_line, comments: [entry],
        resolver: users.get(c.resolve_doer_id), pending: c.review_type === REVIEW_TYPE.pending,
      });
    }
  }
  return [...byKey.values()];
}

export const lineKey = (side: 'old' | 'new', line: number): string => `${side}:${line}`;

/**
 * Threads on the lines the current diff shows, by `lineKey`; the others are outdated (their
 * line is no longer part of the changes). A thread made on an earlier head whose line now
 * reads differently from what the reviewer saw is also outdated, as Gitea marks it.
 */
export function placeThreads(diff: FileDiff | undefined, threads: Thread[], head: string): { placed: Map<string, Thread[]>; outdated: Thread[] } {
  const text = new Map<string, string>();
  for (const l of diff?.lines ?? []) {
    if (l.new !== undefined && l.kind !== 'del') text.set(lineKey('new', l.new), l.text);
    if (l.old !== undefined && l.kind !== 'add') text.set(lineKey('old', l.old), l.text);
  }
  const placed = new Map<string, Thread[]>();
  const outdated: Thread[] = [];
  for (const t of threads) {
    const key = lineKey(t.side, t.line);
    const now = text.get(key);
    const seen = hunkSideLines(t.head.diff_hunk, t.side === 'old').at(-1);
    if (now === undefined || (t.head.commit_id !== head && seen !== undefined && seen !== now)) outdated.push(t);
    else placed.set(key, [...(placed.get(key) ?? []), t]);
  }
  return { placed, outdated };
}
