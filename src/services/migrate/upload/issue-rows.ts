import type { DB } from '../../../db/connect';
import type { Issue } from '../../../db/schema';
import { COMMENT_TYPE } from '../../../lib/comment-type';
import { insertComment } from '../../../models/comment';
import { insertIssue } from '../../../models/issue';
import { addIssueLabels, insertMigratedReaction, takenIssueIndexes } from '../../../models/migrated-rows';
import type { SourceComment, SourceIssue, SourceReaction, SourceUser } from '../downloader';
import { unix, type ImportContext } from './context';

// Issues and pull requests share these rows: the issue with its number, state, dates and
// author, its labels and milestone by name, its comments and the reactions of both. One page of
// the source is read with what hangs off each item, then written in one transaction.

export type { SourceComment, SourceIssue, SourceReaction };

export type Fetched<T extends SourceIssue> = {
  item: T;
  reactions: SourceReaction[];
  comments: { comment: SourceComment; reactions: SourceReaction[] }[];
};

export type RowCounts = { items: number; comments: number; reactions: number; skipped: number };

/** Reads an item's comments with their reactions (Gitea's GetComments); its own reactions came with it. */
export async function fetchExtras<T extends SourceIssue>(ctx: ImportContext, item: T): Promise<Fetched<T>> {
  // A source that lists the repository's comments at once has them read after the items.
  const list = ctx.source.getAllComments ? [] : await ctx.source.getComments(item);
  const comments = list.map((comment) => ({ comment, reactions: comment.reactions ?? [] }));
  return { item, reactions: item.reactions ?? [], comments };
}

/** Looks up every author of a fetched page at once. */
export async function primeAuthors<T extends SourceIssue>(ctx: ImportContext, page: Fetched<T>[], extra: SourceUser[] = []): Promise<void> {
  const users: SourceUser[] = [...extra];
  for (const f of page) {
    users.push(f.item.user, ...f.reactions.map((r) => r.user));
    for (const c of f.comments) users.push(c.comment.user, ...c.reactions.map((r) => r.user));
  }
  await ctx.authors.prime(users);
}

export async function writeReactions(
  ctx: ImportContext, trx: DB, at: { issueId: number; commentId: number; time: number }, list: SourceReaction[], counts: RowCounts,
) {
  for (const r of list) {
    const a = ctx.authors.of(r.user);
    const inserted = await insertMigratedReaction(trx, {
      type: r.content, issue_id: at.issueId, comment_id: at.commentId, user_id: a.poster_id,
      created_unix: unix(r.created_at) || at.time, original_author: a.original_author, original_author_id: a.original_author_id,
    });
    if (inserted) counts.reactions++;
    else counts.skipped++;
  }
}

function issueRow(ctx: ImportContext, item: SourceIssue, isPull: boolean) {
  const created = unix(item.created_at);
  const closed = item.state === 'closed';
  const a = ctx.authors.of(item.user);
  return {
    repo_id: ctx.repo.id, index: item.number, title: item.title, content: item.body ?? '', ref: item.ref ?? '',
    poster_id: a.poster_id, original_author: a.original_author, original_author_id: a.original_author_id,
    milestone_id: item.milestone ? ctx.milestones.get(item.milestone.title) ?? null : null,
    is_closed: closed ? 1 : 0, is_pull: isPull ? 1 : 0, is_locked: item.is_locked ? 1 : 0,
    created_unix: created, updated_unix: unix(item.updated_at) || created,
    closed_unix: closed ? unix(item.closed_at) || unix(item.updated_at) || created : 0,
    deadline_unix: unix(item.due_date),
  };
}

/**
 * Writes one fetched page; `extra` adds the rows of a pull request. Numbers already taken here
 * are skipped (and counted as such) rather than renumbered: links between items keep working.
 */
export async function writePage<T extends SourceIssue>(
  ctx: ImportContext, page: Fetched<T>[], isPull: boolean,
  extra?: (trx: DB, issue: Issue, f: Fetched<T>) => Promise<void>,
): Promise<RowCounts> {
  const counts: RowCounts = { items: 0, comments: 0, reactions: 0, skipped: 0 };
  await ctx.db.transaction().execute(async (trx) => {
    const taken = await takenIssueIndexes(trx, ctx.repo.id, page.map((f) => f.item.number));
    for (const f of page) {
      if (taken.has(f.item.number)) {
        ctx.log.warn({ repo: ctx.repo.id, number: f.item.number }, 'migration: number already taken here, item skipped');
        counts.skipped++;
        continue;
      }
      const issue = await insertIssue(trx, issueRow(ctx, f.item, isPull));
      ctx.imported.set(issue.index, { id: issue.id, isPull, created: issue.created_unix });
      const labelIds = (f.item.labels ?? []).flatMap((l) => (ctx.labels.has(l.name) ? [ctx.labels.get(l.name)!] : []));
      await addIssueLabels(trx, issue.id, labelIds);
      await writeReactions(ctx, trx, { issueId: issue.id, commentId: 0, time: issue.created_unix }, f.reactions, counts);
      for (const { comment, reactions } of f.comments) {
        const a = ctx.authors.of(comment.user);
        const created = unix(comment.created_at) || issue.created_unix;
        const row = await insertComment(trx, {
          type: COMMENT_TYPE.comment, issue_id: issue.id, content: comment.body ?? '', created_unix: created,
          updated_unix: unix(comment.updated_at) || created, ...a,
        });
        counts.comments++;
        await writeReactions(ctx, trx, { issueId: issue.id, commentId: row.id, time: created }, reactions, counts);
      }
      if (extra) await extra(trx, issue, f);
      counts.items++;
    }
  });
  return counts;
}

export const addCounts = (into: RowCounts, c: RowCounts) => {
  into.items += c.items; into.comments += c.comments; into.reactions += c.reactions; into.skipped += c.skipped;
};
