import type { User } from '../../db/schema';
import type { PullView } from '../../convert/pull';
import type { CommitsWithUsers } from '../repo/commits';
import { pullCommits } from '../pull/pull-files';
import { getPull } from '../pull/pull-views';
import type { RepoAccess } from '../repo/repos';
import type { Hearth } from '../../hearth';

// The commits tab of a pull request page, from the service behind the API's
// .../pulls/{index}/commits (the same range, the same permission checks).

export const COMMITS_PAGE_SIZE = 50;

export type CommitsPage = { pull: PullView; found: CommitsWithUsers; total: number; hasMore: boolean };

/** `/pulls/{index}/commits`: one page of the pull's commits, newest first. */
export async function pullCommitsPage(h: Hearth, access: RepoAccess, doer: User | null, index: number, page: number): Promise<CommitsPage> {
  const pull = await getPull(h, access, doer, index);
  const range = { offset: (page - 1) * COMMITS_PAGE_SIZE, limit: COMMITS_PAGE_SIZE };
  const found = await pullCommits(h, access, doer, index, range, { files: false, stat: false });
  return { pull, found, total: found.total, hasMore: range.offset + found.commits.length < found.total };
}
