import type { DB } from '../../db/connect';
import type { ReviewComment, User } from '../../db/schema';
import { fileAt } from '../../git/blob';
import { revParse } from '../../git/repo';
import { hunkSideLines } from '../../lib/diff-hunk';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { setResolver, visibleLineComments } from '../../models/review-thread';
import { ACCESS } from '../permissions';
import { changeFiles } from '../repo/contents-write';
import type { RepoAccess } from '../repo/repos';
import { headRepoAccess } from './pull-merge-land';
import { dirOfRepo } from './pull-git';
import { loadPull, type LoadedPull } from './pull-views';
import type { Hearth } from '../../hearth';

// Suggested changes: a review comment holding a ```suggestion block proposes new text for the
// lines it is on; "Apply" commits that text to the head branch through the contents service
// (one commit, the head branch's protection applies) and resolves the thread.

const BLOCK = /^(`{3,}|~{3,})suggestion[ \t]*\r?\n([\s\S]*?)^\1[ \t]*$/m;

/** The text of the comment's first suggestion block (empty text: delete the lines), or null. */
export function suggestionOf(body: string): string | null {
  const m = BLOCK.exec(body);
  if (!m) return null;
  return m[2]!.replace(/\r\n/g, '\n').replace(/\n$/, '');
}

/** Lines `first..last` (1-based) of `text` replaced by `replacement`, keeping the final newline as it was. */
export function replaceLines(text: string, first: number, last: number, replacement: string): string {
  const ends = text.endsWith('\n');
  const lines = (ends ? text.slice(0, -1) : text).split('\n');
  const added = replacement === '' ? [] : replacement.split('\n');
  lines.splice(first - 1, last - first + 1, ...added);
  const out = lines.join('\n');
  return out && ends ? `${out}\n` : out;
}

export type SuggestionTarget = { comment: ReviewComment; first: number; last: number; text: string };

/** The suggestion of a new-side comment and the lines it replaces; null when it has none. */
export function suggestionTarget(comment: ReviewComment): SuggestionTarget | null {
  const text = comment.line > 0 ? suggestionOf(comment.content) : null;
  if (text === null) return null;
  const first = comment.start_line > 0 ? comment.start_line : comment.line;
  return { comment, first, last: comment.line, text };
}

/** Who may push to the head branch: its writers, or the base's writers when the author allows maintainer edits. */
async function writableHead(db: DB, access: RepoAccess, loaded: LoadedPull, doer: User): Promise<RepoAccess> {
  const head = await headRepoAccess(db, loaded.pr, doer);
  if (!head) throw new NotFoundError('head repository does not exist');
  if (head.repo.is_archived) throw new ForbiddenError('The head repository is archived.');
  if (head.mode >= ACCESS.write) return head;
  if (loaded.pr.allow_maintainer_edit === 1 && access.mode >= ACCESS.write) return { ...head, mode: ACCESS.write };
  throw new ForbiddenError('You may not push to the head branch of this pull request.');
}

/** POST "Apply suggestion": one commit on the head branch; the commit id. */
export async function applySuggestion(h: Hearth, access: RepoAccess, doer: User, index: number, commentId: number): Promise<string> {
  const loaded = await loadPull(h, access, doer, index);
  if (loaded.pr.has_merged || loaded.issue.is_closed) throw new InvalidError('This pull request is closed: suggestions are not applied any more.', 'comment');
  const comment = (await visibleLineComments(h.db, loaded.issue.id, doer.id)).find((c) => c.id === commentId);
  if (!comment) throw new NotFoundError(`review comment does not exist [id: ${commentId}]`);
  const target = suggestionTarget(comment);
  if (!target) throw new InvalidError('This comment suggests no change.', 'comment');
  const head = await writableHead(h.db, access, loaded, doer);
  const dir = await dirOfRepo(h, head.repo);
  const tip = await revParse(dir, `refs/heads/${loaded.pr.head_branch}`);
  const blob = tip ? await revParse(dir, `${tip}:${comment.path}`) : null;
  const bytes = tip && blob ? await fileAt(dir, tip, comment.path) : null;
  if (!tip || !blob || !bytes) throw new ConflictError('The file is no longer on the head branch.');
  const text = bytes.toString('utf8');
  // The lines must still read as the reviewer saw them (the end of the comment's hunk).
  const seen = hunkSideLines(comment.diff_hunk, false).slice(-(target.last - target.first + 1));
  const now = text.replace(/\n$/, '').split('\n').slice(target.first - 1, target.last);
  if (!seen.length || seen.join('\n') !== now.join('\n')) throw new ConflictError('These lines changed since the suggestion was made: it cannot be applied.');
  const content = Buffer.from(replaceLines(text, target.first, target.last, target.text));
  const message = `Apply suggestion to ${comment.path}\n\nSuggested in review comment #${comment.id}.`;
  const result = await changeFiles(h, head, doer, { branch: loaded.pr.head_branch, message }, [
    { operation: 'update', path: comment.path, content, sha: blob },
  ]);
  await setResolver(h.db, threadHeadId(await visibleLineComments(h.db, loaded.issue.id, doer.id), comment), doer.id);
  return result.commit.sha;
}

const threadHeadId = (all: ReviewComment[], c: ReviewComment): number =>
  all.find((x) => x.review_id === c.review_id && x.path === c.path && x.line === c.line)?.id ?? c.id;
