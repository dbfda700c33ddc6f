import type { PullRequest, User } from '../../db/schema';
import { streamGit } from '../../git/stream';
import { countCommits, logCommits } from '../../git/log';
import { diffFiles, WHITESPACE_FLAGS, type PullFile } from '../../git/merge';
import { InvalidError } from '../../lib/errors';
import type { Download } from '../repo/archive';
import { withUsers, type CommitsWithUsers } from '../repo/commits';
import { dirOfRepo, headRefOf } from './pull-git';
import { loadPull } from './pull-views';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// What a pull request changes: its commits (merge base..head), files and raw diff, read from
// the base repository where refs/pull/N/head holds the head (also for forks).

type Range = { dir: string; base: string; head: string };

async function rangeOf(h: Hearth, access: RepoAccess, doer: User | null, index: number): Promise<Range> {
  return rangeOfLoaded(h, access, (await loadPull(h, access, doer, index)).pr);
}

/** The range of a pull request already loaded (and refreshed) by the caller: no git to ask again. */
async function rangeOfLoaded(h: Hearth, access: RepoAccess, pr: PullRequest): Promise<Range> {
  const dir = await dirOfRepo(h, access.repo);
  // A merged pull request keeps its range: the merge base it had, the head it merged.
  const head = pr.head_commit_id || headRefOf(pr);
  return { dir, base: pr.merge_base || pr.base_commit_id, head };
}

export type Page = { offset: number; limit: number };

/** GET .../pulls/{index}/commits */
export async function pullCommits(
  h: Hearth, access: RepoAccess, doer: User | null, index: number, page: Page, want: { files: boolean; stat: boolean },
): Promise<CommitsWithUsers & { total: number }> {
  const r = await rangeOf(h, access, doer, index);
  const not = r.base ? [r.base] : [];
  const [commits, total] = await Promise.all([
    logCommits(r.dir, { revs: [r.head], not, skip: page.offset, limit: page.limit, ...want }),
    countCommits(r.dir, { revs: [r.head], not }),
  ]);
  return { ...(await withUsers(h.db, commits)), total };
}

export type FilesQuery = { skipTo?: string; whitespace?: string };

/** GET .../pulls/{index}/files: from the `skip-to` file on when given, then paged (as Gitea). */
export async function pullFiles(
  h: Hearth, access: RepoAccess, doer: User | null, index: number, page: Page, q: FilesQuery = {},
): Promise<{ files: PullFile[]; total: number; head: string }> {
  const flags = q.whitespace ? WHITESPACE_FLAGS[q.whitespace] : [];
  if (!flags) throw new InvalidError(`[whitespace]: unknown whitespace behaviour ${q.whitespace}`, 'whitespace');
  return filesInRange(await rangeOf(h, access, doer, index), page, q, flags);
}

/** The files of a pull request the caller loaded, as pullFiles (the files page reads the pull once). */
export async function loadedPullFiles(h: Hearth, access: RepoAccess, pr: PullRequest, page: Page, q: FilesQuery = {}) {
  const flags = q.whitespace ? WHITESPACE_FLAGS[q.whitespace] : [];
  if (!flags) throw new InvalidError(`[whitespace]: unknown whitespace behaviour ${q.whitespace}`, 'whitespace');
  return filesInRange(await rangeOfLoaded(h, access, pr), page, q, flags);
}

async function filesInRange(r: Range, page: Page, q: FilesQuery, flags: string[]): Promise<{ files: PullFile[]; total: number; head: string }> {
  let files = await diffFiles(r.dir, r.base, r.head, flags);
  const from = q.skipTo ? files.findIndex((f) => f.filename === q.skipTo) : -1;
  if (from > 0) files = files.slice(from);
  return { files: files.slice(page.offset, page.offset + page.limit), total: files.length, head: r.head };
}

/** GET .../pulls/{index}.diff|.patch, streamed from git (a large pull never sits in memory). */
export async function pullRawDiff(h: Hearth, access: RepoAccess, doer: User | null, index: number, type: 'diff' | 'patch', binary: boolean): Promise<Download> {
  const r = await rangeOf(h, access, doer, index);
  const bin = binary ? ['--binary'] : [];
  const args = type === 'patch'
    ? ['format-patch', '--no-signature', '--stdout', ...bin, `${r.base}..${r.head}`, '--']
    : ['diff', '-M', ...bin, r.base, r.head, '--'];
  return { filename: `${index}.${type}`, contentType: 'text/plain; charset=utf-8', commit: r.head, format: type, open: () => streamGit(r.dir, args) };
}

export type PageDiffQuery = { whitespace?: string; paths?: string[]; since?: string };

/**
 * The diff the files page shows: the pull's range (or from `since`, a commit the head's history
 * holds: "changes since your last review"), whitespace ignored as asked, only `paths` when given.
 */
export async function pullPageDiff(h: Hearth, access: RepoAccess, pr: PullRequest, q: PageDiffQuery): Promise<Download> {
  const flags = WHITESPACE_FLAGS[q.whitespace ?? 'show-all'];
  if (!flags) throw new InvalidError(`[whitespace]: unknown whitespace behaviour ${q.whitespace}`, 'whitespace');
  const r = await rangeOfLoaded(h, access, pr);
  const base = q.since && /^[0-9a-f]{40,64}$/.test(q.since) ? q.since : r.base;
  const args = ['diff', '-M', ...flags, base, r.head, '--', ...(q.paths ?? [])];
  return { filename: `${pr.index}.diff`, contentType: 'text/plain; charset=utf-8', commit: r.head, format: 'diff', open: () => streamGit(r.dir, args) };
}
