import type { PullRequest, Review, User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import type { PullFile } from '../../git/merge';
import { lastSubmittedReview, pendingReviewOf } from '../../models/review-thread';
import { loadedPullFiles, pullPageDiff } from '../pull/pull-files';
import { pullPerms, type PullPerms } from '../pull/pull-perms';
import { viewedFiles } from '../pull/pull-viewed';
import { getPull, loadPull } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import { highlightFiles } from './diff-read';
import { parseDiffByPath, readDiff, type FileDiff } from './issue-pages-diff';
import { dirOfRepo } from '../pull/pull-git';
import { placeThreads, threadsOf, type Thread } from './pull-threads-view';
import type { Hearth } from '../../hearth';

// The "Files changed" tab, the heart of review: one page of the pull's files (300), each with
// its diff, its threads placed on their lines, and the visitor's Viewed mark (kept per blob),
// from the same services as the API's .../pulls/{index}/files and .diff.

export const FILES_PAGE_SIZE = 300;
/** Bytes of diff read for one page; past it the rest is left to the raw .diff. */
const MAX_DIFF = 8 * 1024 * 1024;
/** A file changing more lines, or with a bigger diff, starts collapsed behind "Load diff". */
const BIG_LINES = 1000;
const BIG_BYTES = 100 * 1024;

export type FilesView = {
  whitespace: string;
  page: number;
  /** Paths whose big diff the visitor asked to see. */
  load: string[];
  /** Only the changes since the visitor's last review. */
  sinceReview: boolean;
};

export type FileEntry = {
  file: PullFile;
  diff: FileDiff | undefined;
  /** Over the size limits and not asked for: shown collapsed, without its lines. */
  big: boolean;
  viewed: boolean;
  /** Threads on the lines the diff shows, by `lineKey`, and those it no longer shows (outdated). */
  placed: Map<string, Thread[]>;
  outdated: Thread[];
};

export type FilesPage = {
  pull: PullView;
  files: FileEntry[];
  total: number;
  viewedCount: number;
  truncated: boolean;
  hasMore: boolean;
  perms: PullPerms;
  pending: Review | undefined;
  /** The head commit of the visitor's last submitted review, when the head moved since. */
  lastReviewed: string | undefined;
  /** Threads whose file this page does not show (a file no longer changed, or on another page). */
  elsewhere: Thread[];
};

const sizeOf = (d: FileDiff): number => d.lines.reduce((n, l) => n + l.text.length + 1, 0);

export async function pullFilesPage(h: Hearth, access: RepoAccess, doer: User | null, index: number, q: FilesView): Promise<FilesPage> {
  // Refreshed once (getPull): the reads after it take the pull as stored, without asking git again.
  const pull = await getPull(h, access, doer, index);
  const loaded = await loadPull(h, access, doer, index, false);
  const [perms, pending, last] = await Promise.all([
    pullPerms(h.db, access, loaded),
    doer ? pendingReviewOf(h.db, loaded.issue.id, doer.id) : undefined,
    doer ? lastSubmittedReview(h.db, loaded.issue.id, doer.id) : undefined,
  ]);
  const lastReviewed = last?.commit_id && last.commit_id !== loaded.pr.head_commit_id ? last.commit_id : undefined;
  const since = q.sinceReview ? lastReviewed : undefined;
  const range = { offset: (q.page - 1) * FILES_PAGE_SIZE, limit: FILES_PAGE_SIZE };
  const found = await loadedPullFiles(h, access, loaded.pr, range, { whitespace: q.whitespace });
  const files = since ? await sinceFiles(h, access, loaded.pr, since, found.files, q.whitespace) : found.files;
  const paths = files.flatMap((f) => (f.previous ? [f.previous, f.filename] : [f.filename]));
  const raw = files.length
    ? await readDiff(await pullPageDiff(h, access, loaded.pr, { whitespace: q.whitespace, paths, since }), MAX_DIFF)
    : { text: '', truncated: false };
  const diffs = parseDiffByPath(raw.text);
  const [viewed, threads] = await Promise.all([
    viewedFiles(h.db, doer, loaded.issue.id, files.map((f) => ({ path: f.filename, blob: f.blob }))),
    threadsOf(h, access, loaded, doer),
  ]);
  const entries = files.map((file): FileEntry => {
    // A file past the read limit has no diff here; one `git diff -w` left out changed only whitespace.
    const diff = diffs.get(file.filename) ?? (raw.truncated ? undefined : { lines: [] });
    const big = !!diff && !q.load.includes(file.filename) && (file.additions + file.deletions > BIG_LINES || sizeOf(diff) > BIG_BYTES);
    const mine = threads.filter((t) => t.head.path === file.filename);
    return { file, diff, big, viewed: viewed.has(file.filename), ...placeThreads(diff, mine, loaded.pr.head_commit_id) };
  });
  await highlightFiles(await dirOfRepo(h, access.repo), entries.filter((e) => e.diff?.lines.length && !e.big).map((e) => ({
    oldSha: e.file.oldBlob, newSha: e.file.newBlob, oldPath: e.file.previous || e.file.filename, path: e.file.filename, binary: false, lines: e.diff!.lines,
  })));
  const shown = new Set(files.map((f) => f.filename));
  return {
    pull, files: entries, total: found.total, viewedCount: viewed.size, truncated: raw.truncated,
    hasMore: range.offset + found.files.length < found.total, perms, pending, lastReviewed,
    elsewhere: threads.filter((t) => !shown.has(t.head.path)),
  };
}

/** Of this page's files, those that changed since `since` (their counts stay the pull's). */
async function sinceFiles(
  h: Hearth, access: RepoAccess, pr: PullRequest, since: string, files: PullFile[], whitespace: string,
): Promise<PullFile[]> {
  const raw = await readDiff(await pullPageDiff(h, access, pr, { since, whitespace, paths: files.map((f) => f.filename) }), MAX_DIFF);
  const changed = new Set([...raw.text.matchAll(/^\+\+\+ b\/(.*)$/gm)].map((m) => m[1]!));
  return files.filter((f) => changed.has(f.filename));
}
