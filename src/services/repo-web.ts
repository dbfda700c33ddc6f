import type { Config } from '../config/schema';
import type { DB } from '../db/connect';
import type { User } from '../db/schema';
import { listTopLevel, type TreeEntryName } from '../git/ls-tree';
import { repoDir } from '../git/repo';
import { NotFoundError } from '../lib/errors';
import { lookupRepo, type RepoAccess } from './repos';

export type TreePage =
  | { redirectTo: { owner: string; name: string } }
  | { access: RepoAccess; branch: string; empty: boolean; entries: TreeEntryName[] };

// Branch names git accepts never contain these; refusing them early keeps odd input off git.
const BAD_BRANCH = /(^|\/)\.|\.\.|[\x00-\x20~^:?*[\\\x7f]|@\{|\/\/|\/$|\.lock$|^-/;

/**
 * What the minimal web page of a repository shows: the top-level tree of `branch` (the default
 * branch when null). 404 when the repository is hidden from the viewer or the branch is missing;
 * an empty repository's default page has no entries and `empty` set.
 */
export async function repoTreePage(
  db: DB, config: Config, ownerName: string, repoName: string, viewer: User | null, branch: string | null,
): Promise<TreePage> {
  const found = await lookupRepo(db, ownerName, repoName, viewer);
  if ('redirectTo' in found) return found;
  const name = branch ?? found.repo.default_branch;
  const dir = repoDir(config.repository.root, found.owner.name, found.repo.name);
  const entries = BAD_BRANCH.test(name) ? null : await listTopLevel(dir, `refs/heads/${name}^{tree}`);
  if (entries) return { access: found, branch: name, empty: false, entries };
  if (branch === null) return { access: found, branch: name, empty: true, entries: [] };
  throw new NotFoundError(`branch does not exist [name: ${name}]`);
}
