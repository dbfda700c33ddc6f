import { streamRawDiff } from '../../git/archive';
import type { Download } from '../repo/archive';
import { NotFoundError } from '../../lib/errors';
import { compareCommits, getCommit, listCommits, type CommitList, type CommitsWithUsers } from '../repo/commits';
import { dirOfRepo } from '../repo/contents-paths';
import type { RepoAccess } from '../repo/repos';
import { readWebDiff, type DiffOptions, type ShownDiff } from './diff-read';
import { resolveTypedRef, type WebRefKind, type WebTargetWithRefs } from './refs';
import type { Hearth } from '../../hearth';

// What the commit pages show: a commit with its diff against its first parent, a page of
// history, and a comparison of two refs. The same reads as the API's commits and compare.

export type CommitPage = CommitsWithUsers & { diff: ShownDiff };

/** `commit/{sha}`: the commit and its diff (a root commit against nothing). */
export async function commitPage(h: Hearth, access: RepoAccess, sha: string, opts: DiffOptions): Promise<CommitPage> {
  if (access.repo.is_empty) throw new NotFoundError();
  const found = await getCommit(h, access, sha, { files: false, stat: false });
  const c = found.commits[0]!;
  return { ...found, diff: await readWebDiff(dirOfRepo(h.config, access), c.parents[0] ?? null, c.sha, opts) };
}

export const COMMITS_PAGE_SIZE = 30;

/** `commits/{kind}/{ref}[/{path}]`: one page of the history of a ref, or of a path in it. */
export async function commitsPage(h: Hearth, access: RepoAccess, kind: WebRefKind, rest: string, page: number): Promise<{ target: WebTargetWithRefs; list: CommitList }> {
  if (access.repo.is_empty) throw new NotFoundError();
  const target = await resolveTypedRef(h.config, access, kind, rest);
  const list = await listCommits(h, access, { sha: target.ref.commit, path: target.path || undefined, page, limit: COMMITS_PAGE_SIZE, files: false, stat: false });
  return { target, list };
}

export type ComparePage = CommitsWithUsers & { diff: ShownDiff | null };

/** `compare/{base}...{head}`: the commits on head that base lacks, and what they change since the merge base. */
export async function comparePage(h: Hearth, access: RepoAccess, basehead: string, opts: DiffOptions): Promise<ComparePage> {
  if (access.repo.is_empty) throw new NotFoundError();
  const found = await compareCommits(h, access, basehead, { files: false, stat: false });
  const dir = dirOfRepo(h.config, access);
  const head = found.commits[0];
  const oldest = found.commits[found.commits.length - 1];
  if (!head || !oldest) return { ...found, diff: null };
  // What head adds, as Gitea's base...head: from the oldest new commit's parent.
  return { ...found, diff: await readWebDiff(dir, oldest.parents[0] ?? null, head.sha, opts) };
}

/** `compare/{base}...{head}.diff`: what the page's diff shows, as text. */
export async function compareDiff(h: Hearth, access: RepoAccess, basehead: string): Promise<Download> {
  if (access.repo.is_empty) throw new NotFoundError();
  const { commits } = await compareCommits(h, access, basehead, { files: false, stat: false });
  const head = commits[0];
  const oldest = commits[commits.length - 1];
  if (!head || !oldest) throw new NotFoundError('nothing to compare');
  const dir = dirOfRepo(h.config, access);
  return {
    filename: `${head.sha}.diff`, contentType: 'text/plain; charset=utf-8', commit: head.sha, format: 'diff',
    open: () => streamRawDiff(dir, 'diff', head.sha, oldest.parents[0] ?? null),
  };
}
