import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';
import type { ReviewComment, User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import type { PullFile } from '../../git/merge';
import type { CommitsWithUsers } from '../repo/commits';
import { pullCommits, pullFiles, pullRawDiff } from '../pull/pull-files';
import { listPullReviews } from '../pull/pull-reviews';
import { getPull } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import { parseDiff, readDiff, type FileDiff } from './issue-pages-diff';
import { renderText } from './issue-pages';

// The files and commits tabs of a pull request page, from the services behind the API's
// .../pulls/{index}/files, /commits and .diff (the same range, the same permission checks).

/** Files listed on the page; a pull changing more is read as its raw .diff. */
const MAX_FILES = 300;
/** Bytes of diff read for the page; the rest is left to the raw .diff. */
const MAX_DIFF = 2 * 1024 * 1024;
const MAX_REVIEWS = 500;
export const COMMITS_PAGE_SIZE = 50;

export type ReviewNote = { comment: ReviewComment; reviewer: User | undefined; html: string };
export type FileEntry = { file: PullFile; diff: FileDiff | undefined; notes: ReviewNote[] };
export type FilesPage = {
  pull: PullView; files: FileEntry[]; total: number;
  /** Some files or lines are not shown (over the limits). */
  truncated: boolean;
  /** Line comments on paths the diff no longer has (an outdated review). */
  others: ReviewNote[];
};
export type CommitsPage = { pull: PullView; found: CommitsWithUsers; total: number; hasMore: boolean };

async function reviewNotes(db: DB, config: Config, access: RepoAccess, doer: User | null, index: number): Promise<ReviewNote[]> {
  const { views } = await listPullReviews(db, config, access, doer, index, { offset: 0, limit: MAX_REVIEWS });
  const notes: ReviewNote[] = [];
  for (const v of views) {
    for (const comment of v.comments) {
      notes.push({ comment, reviewer: v.reviewer, html: await renderText(db, config, doer, access, comment.content) });
    }
  }
  return notes;
}

/** `/pulls/{index}/files`: each changed file with its diff and the review comments on it. */
export async function pullFilesPage(db: DB, config: Config, access: RepoAccess, doer: User | null, index: number): Promise<FilesPage> {
  const pull = await getPull(db, config, access, doer, index);
  const found = await pullFiles(db, config, access, doer, index, { offset: 0, limit: MAX_FILES });
  const raw = await readDiff(await pullRawDiff(db, config, access, doer, index, 'diff', false), MAX_DIFF);
  const diffs = parseDiff(raw.text);
  // `git diff` and `git diff --raw` list files in the same order: the n-th diff is the n-th
  // file. Should the counts disagree, no diff is shown rather than one under the wrong name.
  const paired = raw.truncated || diffs.length === found.total;
  const notes = await reviewNotes(db, config, access, doer, index);
  const files = found.files.map((file, n) => ({
    file, diff: paired ? diffs[n] : undefined, notes: notes.filter((x) => x.comment.path === file.filename),
  }));
  const shown = new Set(found.files.map((f) => f.filename));
  return {
    pull, files, total: found.total, truncated: raw.truncated || found.total > found.files.length,
    others: notes.filter((x) => !shown.has(x.comment.path)),
  };
}

/** `/pulls/{index}/commits`: one page of the pull's commits, newest first. */
export async function pullCommitsPage(db: DB, config: Config, access: RepoAccess, doer: User | null, index: number, page: number): Promise<CommitsPage> {
  const pull = await getPull(db, config, access, doer, index);
  const range = { offset: (page - 1) * COMMITS_PAGE_SIZE, limit: COMMITS_PAGE_SIZE };
  const found = await pullCommits(db, config, access, doer, index, range, { files: false, stat: false });
  return { pull, found, total: found.total, hasMore: range.offset + found.commits.length < found.total };
}
